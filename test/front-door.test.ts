/**
 * The front door over real sockets, under the production profile: Host and Origin checked on every
 * path but the probes (DNS rebinding), CORS answered before authentication with its headers on every
 * answer to an allowed origin (401, 403, 429 included), and CSRF prevention: a request a browser
 * could send from another site without a preflight never acts with the permissions of callers
 * without a token, while a bearer token's GET (what urql and Apollo's `useGETForQueries` send)
 * needs no extra header.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_AUDIENCE, DevIssuer } from '../src/identity/dev-issuer.js';
import { countRequests, startStack, type Stack } from './support/stack.js';

const APP = 'https://app.example';
let issuer: DevIssuer;
let stack: Stack;
let url: string;
let port: string;

beforeAll(async () => {
  issuer = await DevIssuer.start();
  stack = await startStack({
    env: {
      NODE_ENV: 'production',
      // What callers without a token may do: the ambient permissions a cross-site request must not use.
      AUTH_ANONYMOUS: 'governance:read,calendar:read,calendar:write',
      AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${issuer.jwksUrl}`,
      CORS_ORIGINS: APP,
      PUBLIC_HOSTS: 'api.example.com,*.gateway.example',
      MCP: 'true',
      MCP_STATE_KEY: 'front-door-test-state-key-of-32-characters',
    },
  });
  url = await stack.listen();
  port = new URL(url).port;
});
afterAll(() => issuer.close());

const upstreamRequests = () => countRequests(stack.governance) + countRequests(stack.calendar);

/** A request with headers fetch would not let us set (Host). */
async function send(path: string, headers: Record<string, string>, init: { method?: string; body?: string } = {}) {
  const res = await request(new URL(path, url), { method: (init.method ?? 'GET') as 'GET', headers, body: init.body });
  const text = await res.body.text();
  let body: { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] } | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body, text };
}

const TYPENAME = `/graphql?query=${encodeURIComponent('{ __typename }')}`;
const CSRF = { 'x-graphql-yoga-csrf': '1' };
const MCP_INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'door-test', version: '1' } },
});
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('Host: only the gateway’s own names (DNS rebinding)', () => {
  it('refuses another name with 403 on every door, before anything runs', async () => {
    const evil = { host: `evil.example:${port}` };
    stack.clearRequests();
    const doors = [
      await send(TYPENAME, { ...evil, ...CSRF }),
      await send(
        '/graphql',
        { ...evil, 'content-type': 'application/json' },
        { method: 'POST', body: '{"query":"{ entities(first: 1) { totalCount } }"}' },
      ),
      await send('/graphql', { ...evil, accept: 'text/html' }),
      await send(`/graphql?query=${encodeURIComponent('subscription { eventsChanged { id } }')}`, {
        ...evil,
        ...CSRF,
        accept: 'text/event-stream',
      }),
      await send(
        '/mcp',
        { ...evil, ...MCP_HEADERS, origin: `http://evil.example:${port}` },
        { method: 'POST', body: MCP_INIT },
      ),
      await send('/metrics', evil),
    ];
    for (const answer of doors) {
      expect(answer.status).toBe(403);
      expect(answer.body?.errors?.[0]?.extensions?.code).toBe('HOST_NOT_ALLOWED');
    }
    expect(upstreamRequests()).toBe(0);
  });

  it('answers loopback names, IP addresses (never rebound) and PUBLIC_HOSTS; probes answer any name', async () => {
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `10.1.2.3:${port}`,
      'api.example.com',
      'eu.gateway.example',
    ])
      expect((await send(TYPENAME, { host, ...CSRF })).status, host).toBe(200);
    expect((await send(TYPENAME, { host: 'gateway.example', ...CSRF })).status).toBe(403);
    expect((await send('/health', { host: 'evil.example' })).status).toBe(200);
  });

  it('development (every permission without a token): the MCP conformance dns-rebinding scenario', async () => {
    const dev = await startStack({ env: { NODE_ENV: 'development', LOG_LEVEL: 'silent' } });
    const base = new URL(await dev.listen());
    const initialize = async (host: string) => {
      const res = await request(new URL('/mcp', base), {
        method: 'POST',
        headers: { ...MCP_HEADERS, host, origin: `http://${host}` },
        body: MCP_INIT,
      });
      await res.body.text();
      return res.statusCode;
    };
    expect(await initialize('evil.example.com')).toBe(403);
    expect(await initialize(`localhost:${base.port}`)).toBe(200);
  });

  it('bound to loopback, answers loopback names only', async () => {
    const local = await startStack({ env: { NODE_ENV: 'production', AUTH_ANONYMOUS: '*', HOST: '127.0.0.1' } });
    const base = await local.listen();
    const get = async (host: string) =>
      (await request(new URL(TYPENAME, base), { headers: { host, ...CSRF } })).statusCode;
    expect(await get('localhost')).toBe(200);
    expect(await get('[::1]:4000')).toBe(200);
    expect(await get('10.1.2.3')).toBe(403);
    expect(await get('evil.example')).toBe(403);
  });
});

describe('Origin and CORS', () => {
  it('refuses an origin that is neither the host itself nor listed, before authentication', async () => {
    stack.clearRequests();
    const evil = await send(TYPENAME, { origin: 'https://evil.example', ...CSRF });
    expect(evil.status).toBe(403);
    expect(evil.body?.errors?.[0]?.extensions?.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    // A page of the gateway's own host (GraphiQL) sends its Origin too.
    expect((await send(TYPENAME, { origin: `http://127.0.0.1:${port}`, ...CSRF })).status).toBe(200);
    expect(upstreamRequests()).toBe(0);
  });

  it('answers a preflight itself, unauthenticated, with what the browser may send', async () => {
    const strict = await startStack({
      env: {
        NODE_ENV: 'production',
        AUTH_ANONYMOUS: 'none',
        AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${issuer.jwksUrl}`,
        CORS_ORIGINS: APP,
      },
    });
    const base = await strict.listen();
    const preflight = await request(base, {
      method: 'OPTIONS',
      headers: {
        origin: APP,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    await preflight.body.text();
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(APP);
    expect(preflight.headers['access-control-allow-methods']).toMatch(/POST/);
    expect(preflight.headers['access-control-allow-headers']).toBe('authorization, content-type');
    expect(String(preflight.headers.vary)).toMatch(/Origin/);
    // Never counted as a refusal of authentication.
    const metrics =
      await strict.gateway.observability.metrics?.registry.getSingleMetricAsString('gateway_auth_failures_total');
    expect(metrics ?? '').not.toMatch(/reason="missing"\} [1-9]/);
  });

  it('puts Allow-Origin, Vary: Origin and the exposed headers on 200, 401, 403 and 429 answers', async () => {
    const origin = { origin: APP };
    const ok = await send(TYPENAME, { ...origin, ...CSRF });
    const unauthenticated = await send(TYPENAME, { ...origin, authorization: 'Bearer not-a-token' });
    const csrf = await send(TYPENAME, origin);
    const limited = await startStack({
      env: { NODE_ENV: 'production', AUTH_ANONYMOUS: '*', CORS_ORIGINS: APP, FAIR_SHARE: '*:rpm=1' },
    });
    const limitedUrl = await limited.listen();
    const twice = [];
    for (let i = 0; i < 2; i++) {
      const res = await request(limitedUrl, {
        method: 'POST',
        headers: { ...origin, 'content-type': 'application/json' },
        // Two different operations: the second is not a response-cache hit.
        body: JSON.stringify({ query: `{ entities(first: ${i + 1}) { totalCount } }` }),
      });
      await res.body.text();
      twice.push({ status: res.statusCode, headers: res.headers });
    }
    const tooMany = twice[1]!;
    expect([ok.status, unauthenticated.status, csrf.status, tooMany.status]).toEqual([200, 401, 403, 429]);
    for (const answer of [ok, unauthenticated, csrf, tooMany]) {
      expect(answer.headers['access-control-allow-origin']).toBe(APP);
      expect(String(answer.headers.vary)).toMatch(/\bOrigin\b/);
      expect(String(answer.headers['access-control-expose-headers'])).toMatch(/WWW-Authenticate.*Retry-After/);
    }
    expect(unauthenticated.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(tooMany.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('extends the Vary of an answer that has one instead of replacing it', async () => {
    const token = await issuer.tokenFor('reader');
    const res = await send(`/graphql?query=${encodeURIComponent('{ entities(first: 1) { nodes { id } } }')}`, {
      origin: APP,
      authorization: `Bearer ${token}`,
    });
    expect(res.status).toBe(200);
    expect(String(res.headers.vary)).toMatch(/Authorization/);
    expect(String(res.headers.vary)).toMatch(/Origin/);
  });
});

describe('CSRF prevention', () => {
  const mutation = 'mutation { createTag(input: { name: "csrf" }) { id } }';
  const list = '{ events(first: 1) { nodes { id } } }';

  it('a simple cross-site GET or form post never acts with the permissions of callers without a token', async () => {
    stack.clearRequests();
    const get = await send(`/graphql?query=${encodeURIComponent(list)}`, {});
    expect(get.status).toBe(403);
    expect(get.body?.errors?.[0]?.message).toMatch(/x-graphql-yoga-csrf/);
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const form = await send(
        '/graphql',
        { 'content-type': type },
        { method: 'POST', body: `query=${encodeURIComponent(mutation)}` },
      );
      expect(form.status, type).toBe(403);
    }
    const mcp = await send('/mcp', { 'content-type': 'text/plain' }, { method: 'POST', body: MCP_INIT });
    expect(mcp.status).toBe(403);
    // A Basic credential (which a browser may add by itself) is no bearer token: refused too.
    const basic = await send(`/graphql?query=${encodeURIComponent(list)}`, {
      authorization: `Basic ${Buffer.from('u:p').toString('base64')}`,
    });
    expect(basic.status).toBe(401);
    expect(upstreamRequests()).toBe(0);
    // The same operations as JSON (which a browser preflights) do act.
    const json = await send(
      '/graphql',
      { 'content-type': 'application/json' },
      { method: 'POST', body: JSON.stringify({ query: list }) },
    );
    expect(json.status).toBe(200);
  });

  it('a GET with a bearer token needs no header (stock urql, Apollo useGETForQueries), hit or miss', async () => {
    const token = await issuer.tokenFor('reader');
    const get = () =>
      send(`/graphql?query=${encodeURIComponent(list)}`, {
        authorization: `Bearer ${token}`,
        accept: 'application/graphql-response+json',
      });
    const first = await get();
    expect(first.status).toBe(200);
    expect(first.body?.errors).toBeUndefined();
    const again = await get();
    expect(again.status).toBe(200);
    expect(again.headers['x-cache']).toBe('HIT');
    // The cached answer is never handed to the same request without the token.
    const anonymous = await send(`/graphql?query=${encodeURIComponent(list)}`, {
      accept: 'application/graphql-response+json',
    });
    expect(anonymous.status).toBe(403);
    expect(anonymous.headers['x-cache']).toBeUndefined();
  });
});
