/**
 * One upstream reading the caller's own credential (`forward`), the other the gateway's (`configured`),
 * over real HTTP: a credential the gateway cannot verify holds only the permissions of the upstream
 * that judges it, so it never acts on the other one with the gateway's own credential, nor reads
 * /metrics; a token the gateway verifies keeps what its claims grant.
 */
import { describe, expect, it } from 'vitest';
import { DEV_AUDIENCE, DevIssuer } from '../src/identity/dev-issuer.js';
import { countRequests, startStack } from './support/stack.js';

async function post(url: string, query: string, authorization: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: any[] } };
}

const GARBAGE = 'Bearer garbage';
const VIEWER = '{ viewer { id permissions } }';
const TAG = 'mutation { createTag(input: { name: "Mixed modes" }) { name } }';
const ENTITIES = '{ entities(first: 1) { nodes { id } } }';

async function mixed(forward: 'GOVERNANCE_AUTH_MODE' | 'CALENDAR_AUTH_MODE') {
  const stack = await startStack({
    env: { [forward]: 'forward', AUTH_ANONYMOUS: 'none' },
    // As in production: /metrics needs a credential.
    configure: (c) => ({ ...c, auth: { ...c.auth, metricsNeedCredentials: true } }),
  });
  const url = await stack.listen();
  return { stack, url, metrics: url.replace(/\/graphql$/, '/metrics') };
}

describe('mixed auth modes: an unverified credential holds only what its own upstream judges', () => {
  it('governance forwarded, calendar configured: garbage gets governance permissions only, no calendar write', async () => {
    const { stack, url, metrics } = await mixed('GOVERNANCE_AUTH_MODE');
    const viewer = await post(url, VIEWER, GARBAGE);
    expect(viewer.body.data.viewer.permissions).toEqual([
      'governance:delete',
      'governance:read',
      'governance:workflow',
      'governance:write',
    ]);
    stack.clearRequests();
    const write = await post(url, TAG, GARBAGE);
    expect(write.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', permission: 'calendar:write' });
    expect(countRequests(stack.calendar)).toBe(0);
    expect((await fetch(metrics, { headers: { authorization: GARBAGE } })).status).toBe(401);
  });

  it('calendar forwarded, governance configured: garbage gets calendar permissions only, no governance read', async () => {
    const { stack, url, metrics } = await mixed('CALENDAR_AUTH_MODE');
    const viewer = await post(url, VIEWER, GARBAGE);
    expect(viewer.body.data.viewer.permissions).toEqual(['calendar:read', 'calendar:write']);
    stack.clearRequests();
    const read = await post(url, ENTITIES, GARBAGE);
    expect(read.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', permission: 'governance:read' });
    expect(countRequests(stack.governance)).toBe(0);
    expect((await fetch(metrics, { headers: { authorization: GARBAGE } })).status).toBe(401);
  });

  it("a token of the gateway's issuer keeps its claims' permissions on both upstreams", async () => {
    const issuer = await DevIssuer.start();
    try {
      const stack = await startStack({
        env: {
          GOVERNANCE_AUTH_MODE: 'forward',
          AUTH_ANONYMOUS: 'none',
          AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${issuer.jwksUrl}`,
        },
      });
      const url = await stack.listen();
      const token = await issuer.sign({ sub: 'editor', scope: 'governance:read calendar:write' });
      const viewer = await post(url, VIEWER, `Bearer ${token}`);
      expect(viewer.body.data.viewer.permissions).toEqual(['calendar:write', 'governance:read']);
    } finally {
      await issuer.close();
    }
  });
});
