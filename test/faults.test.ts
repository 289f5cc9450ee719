/**
 * Upstream faults, injected by the emulators: every case must leave a typed error on the fields
 * that touch the broken upstream, the other upstream's data intact, no URL or credential in any
 * message, a healthy gateway, and full recovery once the fault is cleared.
 */
import { createServer } from 'node:net';
import type { FaultRule } from '../src/emulators/kit/control.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countRequests, startStack, type GraphQLResponse, type Stack } from './support/stack.js';
import { until } from './support/wait.js';

// One field per upstream, so a fault on one shows up next to the other's data.
const BOTH = `{
  entities(first: 3) { totalCount nodes { id name } }
  events(first: 3) { totalCount nodes { id title } }
}`;

const TYPED = ['UPSTREAM_UNAVAILABLE', 'RATE_LIMITED', 'REQUEST_BUDGET_EXCEEDED', 'UNAUTHENTICATED'];

let stack: Stack;

/**
 * Every query reaches the upstream, with limits a loaded machine meets. The stack is warm before a
 * case runs (connections open, token held, code compiled): a cold first request on a busy machine
 * can miss the 1 s header timeout on the healthy side, which is not what these cases test.
 */
async function faultStack(): Promise<Stack> {
  const s = await startStack({
    env: {
      NODE_ENV: 'production',
      AUTH_ANONYMOUS: '*',
      // Every query must reach the upstream: no cached or stale answer may hide a fault.
      CACHE_TTL_MS: '0',
      CACHE_MAX_STALE_MS: '0',
      UPSTREAM_RETRIES: '1',
    },
    configure: (c) => ({
      ...c,
      // The gateway honours timeouts to the millisecond: 300 ms would fail a cold first request on a
      // loaded test machine, so the limits leave room for that (still far below the 6 s stall).
      timeouts: { ...c.timeouts, headersMs: 1000, bodyMs: 1000 },
      maxUpstreamBodyBytes: 256 * 1024,
      retry: { ...c.retry, baseDelayMs: 10, maxDelayMs: 50 },
      // A persistent 429 turns into RATE_LIMITED after three more sends (three 1 s pauses).
      traffic: { ...c.traffic, rateLimitRetries: 3 },
    }),
  });
  await until(async () => !(await s.query(BOTH)).errors, 'a complete answer from the fresh stack', { timeout: 30_000 });
  return s;
}

beforeAll(async () => {
  stack = await faultStack();
});

beforeEach(() => {
  stack.governance.control.clearFaults();
  stack.calendar.control.clearFaults();
  stack.clearRequests();
});

function secrets(s: Stack): string[] {
  const g = s.config.governance;
  const c = s.config.calendar;
  return [s.governance.origin, s.calendar.origin, g.clientSecret!, c.appPassword!, '127.0.0.1', 'Bearer', 'stack'];
}

/** The broken side has a typed error and null data; the other side is complete. */
function expectPartial(res: GraphQLResponse, broken: 'entities' | 'events', s: Stack = stack): string {
  const healthy = broken === 'entities' ? 'events' : 'entities';
  expect(res.status).toBe(200);
  expect(res.data?.[broken]).toBeNull();
  expect(res.data?.[healthy]).toMatchObject({ totalCount: expect.any(Number) });
  expect((res.data?.[healthy] as { nodes: unknown[] }).nodes).toHaveLength(3);
  const errors = res.errors ?? [];
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) {
    expect(error.path?.[0]).toBe(broken);
    expect(TYPED).toContain(error.extensions?.code);
    const text = JSON.stringify(error);
    for (const secret of secrets(s)) expect(text).not.toContain(secret);
  }
  return errors[0]!.extensions!.code as string;
}

async function expectHealthyAndRecovered(s: Stack = stack): Promise<void> {
  s.governance.control.clearFaults();
  s.calendar.control.clearFaults();
  const health = await fetch((await s.listen()).replace('/graphql', '/health'));
  expect(health.status).toBe(200);
  const res = await s.query(BOTH);
  expect(res.errors).toBeUndefined();
  expect(res.data?.entities).toMatchObject({ totalCount: expect.any(Number) });
  expect(res.data?.events).toMatchObject({ totalCount: expect.any(Number) });
}

const cases: { name: string; rule: FaultRule; code: string }[] = [
  {
    name: 'a burst of 503s longer than the retries',
    rule: { kind: 'status', status: 503 },
    code: 'UPSTREAM_UNAVAILABLE',
  },
  { name: 'a burst of 500s', rule: { kind: 'status', status: 500 }, code: 'UPSTREAM_UNAVAILABLE' },
  {
    name: 'a stalled response (headers timeout)',
    rule: { kind: 'stall', delayMs: 6000 },
    code: 'UPSTREAM_UNAVAILABLE',
  },
  {
    name: 'a body that stops half way (body timeout)',
    rule: { kind: 'slow-body', delayMs: 6000 },
    code: 'UPSTREAM_UNAVAILABLE',
  },
  { name: 'a connection reset', rule: { kind: 'reset' }, code: 'UPSTREAM_UNAVAILABLE' },
  { name: 'a reset in the middle of the body', rule: { kind: 'reset-mid-body' }, code: 'UPSTREAM_UNAVAILABLE' },
  { name: 'malformed JSON', rule: { kind: 'malformed-json' }, code: 'UPSTREAM_UNAVAILABLE' },
  {
    name: 'a wrong content type (an HTML error page)',
    rule: { kind: 'wrong-content-type' },
    code: 'UPSTREAM_UNAVAILABLE',
  },
  { name: 'an oversized body', rule: { kind: 'oversized', bytes: 1024 * 1024 }, code: 'UPSTREAM_UNAVAILABLE' },
  { name: 'a 429 from the upstream', rule: { kind: 'rate-limit', retryAfter: 1 }, code: 'RATE_LIMITED' },
];

// The two sides at once, each on a stack of its own (most cases wait out a timeout or a pause); the
// cases of one side one after another, since each breaks that side's upstream.
describe.concurrent.each([
  { side: 'governance' as const, field: 'entities' as const },
  { side: 'calendar' as const, field: 'events' as const },
])('$side faults', ({ side, field }) => {
  let own: Stack;
  beforeAll(async () => {
    own = await faultStack();
  });
  beforeEach(() => own.clearRequests());

  it.sequential.each(cases)('$name', async ({ rule, code }) => {
    const emulator = own[side];
    // Only data routes: the governance token endpoint keeps working here (it has its own case).
    emulator.control.setFaults([
      { ...rule, ...(side === 'governance' ? { pathPrefix: '/entities' } : { pathPrefix: '/events' }) },
    ]);
    const res = await own.query(BOTH);
    // The code itself shows a stall ended by the configured timeout (an upstream's answer after its 6 s
    // stall would be data, not UPSTREAM_TIMEOUT), so no clock is needed.
    expect(expectPartial(res, field, own)).toBe(code);
    expect(countRequests(emulator)).toBeGreaterThan(0);
    await expectHealthyAndRecovered(own);
  });
});

describe('retries', () => {
  it('absorbs a short burst of 503s on a read (no longer than the retries)', async () => {
    stack.governance.control.setFaults([{ kind: 'status', status: 503, times: 1, pathPrefix: '/entities' }]);
    const res = await stack.query(BOTH);
    expect(res.errors).toBeUndefined();
    expect(res.data?.entities).toMatchObject({ totalCount: expect.any(Number) });
    const attempts = stack.governance.control.requests().requests.filter((r) => r.path.startsWith('/entities'));
    expect(attempts.filter((r) => r.fault === 'status')).toHaveLength(1);
    expect(attempts.length).toBe(2);
  });
});

describe('token endpoint down', () => {
  it('fails only the governance fields, leaks nothing, and recovers', async () => {
    // A fresh gateway holds no token yet, so its first governance call needs the token endpoint.
    const fresh = await startStack({
      env: { NODE_ENV: 'production', AUTH_ANONYMOUS: '*', CACHE_TTL_MS: '0' },
      configure: (c) => ({ ...c, retry: { ...c.retry, baseDelayMs: 10, maxDelayMs: 50 } }),
    });
    fresh.governance.control.setFaults([{ kind: 'status', status: 503, pathPrefix: '/api/access' }]);
    const res = await fresh.query(BOTH);
    expectPartial(res, 'entities', fresh);
    const tokenCalls = fresh.governance.control.requests().requests.filter((r) => r.path.startsWith('/api/access'));
    expect(tokenCalls.length).toBeGreaterThan(0);
    // No data call went out without a token.
    expect(countRequests(fresh.governance, /entities/)).toBe(0);
    await expectHealthyAndRecovered(fresh);
  });
});

describe('Redis down', () => {
  it('keeps answering from the local share when REDIS_URL points at nothing', async () => {
    // A port that was just free and is closed again: connections are refused at once.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    // Commands would wait a minute before giving up, so a gateway that waited on Redis would run past
    // the test's own timeout instead of answering.
    const noRedis = await startStack({
      env: { NODE_ENV: 'production', AUTH_ANONYMOUS: '*', REDIS_URL: `redis://127.0.0.1:${port}` },
      configure: (c) => ({ ...c, traffic: { ...c.traffic, redisCommandTimeoutMs: 60_000 } }),
    });
    for (let i = 0; i < 3; i++) {
      const res = await noRedis.query(BOTH);
      expect(res.errors).toBeUndefined();
      expect(res.data?.entities).toMatchObject({ totalCount: expect.any(Number) });
      expect(res.data?.events).toMatchObject({ totalCount: expect.any(Number) });
    }
    await expectHealthyAndRecovered(noRedis);
  });
});

describe('shutdown', () => {
  it('answers the requests still waiting on or running against an upstream with a typed error', async () => {
    // The stalled read times out soon after the test, so closing the stack does not wait long on it.
    const closing = await startStack({
      env: { GOVERNANCE_MAX_CONCURRENT: '1', UPSTREAM_RETRIES: '0' },
      configure: (c) => ({ ...c, timeouts: { ...c.timeouts, headersMs: 1500 } }),
    });
    const ids = (
      await closing.query<{ entitySummaries: { nodes: { id: string }[] } }>(
        '{ entitySummaries(first: 3) { nodes { id } } }',
      )
    ).data!.entitySummaries.nodes.map((n) => n.id);
    closing.governance.control.setFaults([{ kind: 'stall', delayMs: 3_000, method: 'GET', pathPrefix: '/entities/' }]);
    const query = `{ ${ids.map((id, i) => `e${i}: entity(id: "${id}") { id }`).join(' ')} events(first: 1) { totalCount } }`;
    const pending = closing.query(query);
    // One read is stalled on the wire and two wait behind the cap of one.
    const limiter = closing.gateway.upstreams.governance.limiter;
    await until(() => limiter.load.running >= 1 && limiter.load.waiting >= 2, 'one read on the wire, two waiting');
    expect(limiter.load).toEqual({ running: 1, waiting: 2 });
    await limiter.stop();
    const res = await pending;
    expect(res.errors?.map((e) => e.extensions?.code)).toEqual([
      'UPSTREAM_UNAVAILABLE',
      'UPSTREAM_UNAVAILABLE',
      'UPSTREAM_UNAVAILABLE',
    ]);
    expect(res.errors?.every((e) => e.message.includes('shutting down'))).toBe(true);
    // The calendar is not shut down and its data is kept.
    expect(res.data?.events).toMatchObject({ totalCount: expect.any(Number) });
    expect(limiter.load).toEqual({ running: 0, waiting: 0 });
  });
});
