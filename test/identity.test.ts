/**
 * Authentication and authorization over real HTTP, against a real JWKS on a socket (the development
 * issuer): under the production profile no credentials is 401 with nothing sent upstream; each kind
 * of bad token is refused; a rotated key is picked up without a restart; refused fields are
 * FORBIDDEN naming the permission, the other fields keep their data, nothing is sent for them; the
 * response cache is shared by callers of one role and never reaches a caller with fewer permissions.
 */
import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_AUDIENCE, DevIssuer } from '../src/identity/dev-issuer.js';
import { PERMISSIONS } from '../src/identity/principal.js';
import { countRequests, startStack, type Stack } from './support/stack.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const upstreamCalls = (stack: Stack) =>
  countRequests(stack.governance, /^(?!POST .*token)/) + countRequests(stack.calendar);

async function post(url: string, query: string, headers: Record<string, string> = {}, variables = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : {} };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const ENTITIES = '{ entities(first: 2) { nodes { id name } } }';

let issuer: DevIssuer;
let stranger: DevIssuer;
let stack: Stack;
let url: string;

beforeAll(async () => {
  [issuer, stranger] = await Promise.all([DevIssuer.start(), DevIssuer.start()]);
  stack = await startStack({
    env: {
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${issuer.jwksUrl}`,
      AUTH_API_KEYS: `ops|${sha256('ops-key')}|governance:read,scrape|${sha256('scrape-key')}|metrics:read`,
      RESPONSE_CACHE: 'true',
    },
    // No JWKS cooldown: the rotation test must see the new key on its first request.
    configure: (c) => ({ ...c, auth: { ...c.auth, jwksCooldownMs: 0 } }),
  });
  url = await stack.listen();
});

afterAll(async () => {
  await Promise.all([issuer?.close(), stranger?.close()]);
});

describe('authentication (production profile)', () => {
  it('answers 401 with WWW-Authenticate to every way in without credentials, sending nothing upstream', async () => {
    stack.clearRequests();
    const plain = await post(url, ENTITIES);
    expect(plain.status).toBe(401);
    expect(plain.headers.get('www-authenticate')).toBe('Bearer realm="gateway"');
    expect(plain.body.errors[0].extensions).toEqual({ code: 'UNAUTHENTICATED', reason: 'missing' });
    const get = await fetch(`${url}?query=${encodeURIComponent(ENTITIES)}`);
    expect(get.status).toBe(401);
    const sse = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { eventsChanged { changed { id } } }' }),
    });
    expect(sse.status).toBe(401);
    expect(upstreamCalls(stack)).toBe(0);
    // Probes stay open; metrics need metrics:read in production.
    const origin = new URL(url).origin;
    expect((await fetch(`${origin}/health`)).status).toBe(200);
    expect((await fetch(`${origin}/metrics`)).status).toBe(401);
    expect((await fetch(`${origin}/metrics`, { headers: bearer('ops-key') })).status).toBe(403);
    const metrics = await fetch(`${origin}/metrics`, { headers: bearer('scrape-key') });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/gateway_auth_failures_total\{reason="missing"\} [1-9]/);
  });

  it('refuses expired, wrong-issuer, wrong-audience, alg none, HMAC-confused, unknown-kid and tampered tokens', async () => {
    const now = Math.floor(Date.now() / 1000);
    const good = await issuer.tokenFor('admin');
    const [header, payload] = good.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    // HS256 keyed with the issuer's public key, as a confused verifier would accept.
    const hmacInput = `${b64({ alg: 'HS256', typ: 'JWT', kid: issuer.publicJwk.kid })}.${payload}`;
    const hmacSig = createHmac('sha256', JSON.stringify(issuer.publicJwk)).update(hmacInput).digest('base64url');
    const tokens: Record<string, string> = {
      expired: await issuer.sign({ sub: 'x', scope: 'governance:read', exp: now - 3600, iat: now - 7200 }),
      'wrong issuer': await stranger.tokenFor('admin'),
      'issuer claimed, key of another': await stranger.sign(
        { sub: 'x', scope: 'governance:read' },
        { issuer: issuer.issuer },
      ),
      'wrong audience': await issuer.sign({ sub: 'x', scope: 'governance:read' }, { audience: 'someone-else' }),
      'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      'HMAC with the public key': `${hmacInput}.${hmacSig}`,
      'unknown kid': await issuer.sign({ sub: 'x', scope: 'governance:read' }, { kid: 'not-a-key' }),
      tampered: `${header}.${b64({ ...claims, sub: 'someone-else' })}.${good.split('.')[2]}`,
      garbage: 'not-a-token',
    };
    stack.clearRequests();
    for (const [what, token] of Object.entries(tokens)) {
      const res = await post(url, ENTITIES, bearer(token));
      expect({ what, status: res.status }).toEqual({ what, status: 401 });
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect(res.body.data).toBeUndefined();
    }
    expect(upstreamCalls(stack)).toBe(0);
    // The good one passes.
    expect((await post(url, ENTITIES, bearer(good))).status).toBe(200);
  });

  it('picks up a rotated signing key without a restart', async () => {
    const before = await issuer.tokenFor('reader');
    expect((await post(url, ENTITIES, bearer(before))).status).toBe(200);
    await issuer.rotate();
    const after = await issuer.tokenFor('reader');
    const res = await post(url, ENTITIES, bearer(after));
    expect(res.status).toBe(200);
    expect(res.body.data.entities.nodes.length).toBeGreaterThan(0);
  });

  it('accepts an API key stored only as its hash', async () => {
    const res = await post(url, '{ viewer { id kind permissions } }', bearer('ops-key'));
    expect(res.body.data.viewer).toEqual({ id: 'key:ops', kind: 'apikey', permissions: ['governance:read'] });
    expect((await post(url, ENTITIES, bearer('ops-key-wrong'))).status).toBe(401);
  });
});

describe('authorization per field', () => {
  it('a reader cannot mutate: FORBIDDEN naming governance:write, nothing sent upstream', async () => {
    const reader = bearer(await issuer.tokenFor('reader'));
    const viewer = await post(url, '{ viewer { id permissions } }', reader);
    expect(viewer.body.data.viewer).toEqual({
      id: `${issuer.issuer}|reader`,
      permissions: ['calendar:read', 'governance:read'],
    });
    stack.clearRequests();
    const res = await post(
      url,
      'mutation { createEntity(input: { organizationId: "x", kind: DATASET, name: "no" }) { id } }',
      reader,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ createEntity: null });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', permission: 'governance:write' });
    expect(res.body.errors[0].message).toContain('governance:write');
    expect(upstreamCalls(stack)).toBe(0);
  });

  it('an editor cannot delete: that field is FORBIDDEN, the update beside it is applied', async () => {
    const editor = bearer(await issuer.tokenFor('editor'));
    const [entity] = (await post(url, ENTITIES, editor)).body.data.entities.nodes;
    stack.clearRequests();
    const res = await post(
      url,
      'mutation ($id: ID!) { rename: updateEntity(id: $id, input: { name: "Renamed by an editor" }) { id name } drop: deleteEntity(id: $id) { deletedId } }',
      editor,
      { id: entity.id },
    );
    expect(res.body.data.rename).toEqual({ id: entity.id, name: 'Renamed by an editor' });
    expect(res.body.data.drop).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({
      path: ['drop'],
      extensions: { code: 'FORBIDDEN', permission: 'governance:delete' },
    });
    expect(countRequests(stack.governance, /^DELETE /)).toBe(0);
  });

  it('a caller without calendar:read gets its governance data and a FORBIDDEN events field, with no calendar call', async () => {
    stack.clearRequests();
    const res = await post(
      url,
      `{ entities(first: 1) { nodes { id } } events(first: 1) { nodes { id } } }`,
      bearer('ops-key'),
    );
    expect(res.body.data.entities.nodes).toHaveLength(1);
    expect(res.body.data.events).toBeNull();
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', permission: 'calendar:read' });
    expect(countRequests(stack.calendar)).toBe(0);
  });
});

describe('the response cache with identity', () => {
  const query = '{ venues(first: 2) { nodes { id name } } entityTypes(first: 2) { nodes { id name } } }';

  it("serves a role's answer to another user of that role, never to a caller with fewer permissions", async () => {
    const alice = await issuer.sign({ sub: 'alice', scope: 'governance:read calendar:read' });
    const bob = await issuer.sign({ sub: 'bob', scope: 'calendar:read governance:read' });
    const first = await post(url, query, bearer(alice));
    expect(first.body.errors).toBeUndefined();
    stack.clearRequests();
    const shared = await post(url, query, bearer(bob));
    expect(shared.headers.get('x-cache')).toBe('HIT');
    expect(shared.body.data).toEqual(first.body.data);
    expect(upstreamCalls(stack)).toBe(0);
    // Fewer permissions: not the cached answer, its own refusal.
    const fewer = await post(url, query, bearer('ops-key'));
    expect(fewer.headers.get('x-cache')).not.toBe('HIT');
    expect(fewer.body.data.venues).toBeNull();
    expect(fewer.body.errors[0].extensions.permission).toBe('calendar:read');
    // A refreshed token of the same user keeps the cache.
    const refreshed = await issuer.sign({ sub: 'alice', scope: 'governance:read calendar:read', jti: 'again' });
    expect((await post(url, query, bearer(refreshed))).headers.get('x-cache')).toBe('HIT');
  });

  it('gives the same ETag to callers of one role and another to a caller with other permissions', async () => {
    const get = (token: string) =>
      fetch(`${url}?query=${encodeURIComponent('{ tags(first: 1) { nodes { id } } }')}`, {
        headers: { ...bearer(token), 'x-graphql-yoga-csrf': '1' },
      });
    const a = await get(await issuer.sign({ sub: 'carol', scope: 'calendar:read' }));
    const b = await get(await issuer.sign({ sub: 'dave', scope: 'calendar:read' }));
    const c = await get(await issuer.tokenFor('admin'));
    expect(a.headers.get('etag')).toBeTruthy();
    expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
    expect(c.headers.get('etag')).not.toBe(a.headers.get('etag'));
  });
});

describe('anonymous reads enabled (AUTH_ANONYMOUS=governance:read)', () => {
  let open: Stack;
  beforeAll(async () => {
    open = await startStack({
      env: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        AUTH_ANONYMOUS: 'governance:read',
        AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${issuer.jwksUrl}`,
      },
    });
  });

  it('lets anonymous callers read, refuses them beyond it, and never downgrades a bad token to anonymous', async () => {
    const read = await open.query<{ entities: { nodes: unknown[] } }>(ENTITIES);
    expect(read.data!.entities.nodes.length).toBeGreaterThan(0);
    open.clearRequests();
    const events = await open.query('{ events(first: 1) { nodes { id } } }');
    expect(events.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', permission: 'calendar:read' });
    expect(upstreamCalls(open)).toBe(0);
    const bad = await open.query(ENTITIES, undefined, bearer(await stranger.tokenFor('admin')));
    expect(bad.status).toBe(401);
  });
});

describe('a permission mapping (AUTH_PERMISSIONS_FILE)', () => {
  it('grants what the mapped claims say, and a permission name in `scope` no longer grants by itself', async () => {
    const mapped = await startStack({
      env: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${issuer.jwksUrl}`,
        AUTH_PERMISSIONS_FILE: 'test/fixtures/permissions.json',
      },
    });
    const viewer = async (claims: Record<string, unknown>) =>
      (
        await mapped.query<{ viewer: { permissions: string[] } }>(
          '{ viewer { permissions } }',
          undefined,
          bearer(await issuer.sign({ sub: 'someone', ...claims })),
        )
      ).data!.viewer.permissions;
    expect(await viewer({ roles: ['gov-editor'], realm_access: { groups: ['calendar-team'] } })).toEqual([
      'calendar:read',
      'governance:read',
      'governance:write',
    ]);
    expect(await viewer({ roles: ['lead'] })).toHaveLength(PERMISSIONS.length);
    expect(await viewer({ scope: 'governance:delete' })).toEqual([]);
  });
});
