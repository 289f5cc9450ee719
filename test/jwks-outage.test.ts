/**
 * An issuer whose JWKS endpoint fails, on a real socket: a valid token is 503 `jwks-unavailable`
 * with `Retry-After` (not 401), the failing endpoint is asked at most once per cooldown however many
 * requests come, and once it answers again (the cooldown passed, on a clock the test moves) tokens
 * verify; keys already fetched keep verifying while it fails.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticatorFrom } from '../src/app/identity.js';
import { loadConfig } from '../src/config/config.js';
import { DEV_AUDIENCE, DevIssuer } from '../src/identity/dev-issuer.js';
import { startStack } from './support/stack.js';

let issuer: DevIssuer;
let jwks: Server;
let jwksUrl: string;
/** What the JWKS endpoint answers: 500, a page that is not JSON, or the issuer's keys. */
let mode: 'error' | 'html' | 'keys' = 'error';
let fetches = 0;

beforeAll(async () => {
  issuer = await DevIssuer.start();
  jwks = createServer((_req, res) => {
    fetches += 1;
    if (mode === 'error') return void res.writeHead(500).end('down');
    if (mode === 'html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [issuer.publicJwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
});

afterAll(async () => {
  jwks?.closeAllConnections();
  await new Promise((resolve) => jwks?.close(resolve));
  await issuer?.close();
});

describe('a failing JWKS', () => {
  it('a valid token gets 503 jwks-unavailable with Retry-After; the endpoint is fetched once per cooldown', async () => {
    mode = 'error';
    fetches = 0;
    const stack = await startStack({
      env: { AUTH_ANONYMOUS: 'none', AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${jwksUrl}` },
    });
    const url = await stack.listen();
    const token = await issuer.sign({ sub: 'reader', scope: 'governance:read' });
    for (let i = 0; i < 5; i++) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: '{ viewer { id } }' }),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await res.json()).errors[0].extensions).toEqual({
        code: 'UNAVAILABLE',
        reason: 'jwks-unavailable',
      });
    }
    expect(fetches).toBe(1);
  });

  it('is asked again after the cooldown, then verifies; fetched keys outlast a later outage', async () => {
    let now = Date.now();
    const auth = loadConfig({ NODE_ENV: 'test', AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${jwksUrl}` }).auth;
    const authenticator = authenticatorFrom({ ...auth, jwksCooldownMs: 30_000 }, [], () => now);
    const token = await issuer.sign({ sub: 'reader', scope: 'governance:read' });
    mode = 'html';
    fetches = 0;
    expect(await authenticator.authenticate(`Bearer ${token}`)).toEqual({ failure: 'jwks-unavailable' });
    expect(await authenticator.authenticate(`Bearer ${token}`)).toEqual({ failure: 'jwks-unavailable' });
    expect(fetches).toBe(1);
    mode = 'keys';
    now += 30_001;
    expect(await authenticator.authenticate(`Bearer ${token}`)).toMatchObject({ principal: { subject: 'reader' } });
    expect(fetches).toBe(2);
    // Down again, and a token of an unknown key asks once; a token of the fetched key still verifies.
    mode = 'error';
    now += 30_001;
    const unknownKid = await issuer.sign({ sub: 'x', scope: 'governance:read' }, { kid: 'not-a-key' });
    expect(await authenticator.authenticate(`Bearer ${unknownKid}`)).toEqual({ failure: 'jwks-unavailable' });
    expect(await authenticator.authenticate(`Bearer ${unknownKid}`)).toEqual({ failure: 'jwks-unavailable' });
    const other = await issuer.sign({ sub: 'editor', scope: 'governance:read' });
    expect(await authenticator.authenticate(`Bearer ${other}`)).toMatchObject({ principal: { subject: 'editor' } });
    expect(fetches).toBe(3);
  });
});
