/**
 * Freshness that bends to the budget, through GraphQL against the governance emulator with its rate
 * limits on: once the account's budget left falls below CACHE_BUDGET_STALE's belowPercent, reads of expired
 * records are answered from the cache, marked stale and counted (`stale-budget` in the metrics),
 * with no call upstream and no 429; with budget to spare the same reads refetch; past
 * its maxStaleMs (or with it 0) they refetch even on a tight budget; and with replicas
 * sharing Redis, a replica that spent nothing bends to what the others spent.
 */
import { describe, expect, it } from 'vitest';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { createGateway, type Gateway } from '../src/app/gateway.js';
import { loadConfig } from '../src/config/config.js';
import { ResponseCache } from '../src/core/cache.js';
import { requireRedis, REDIS_URL, uniquePrefix } from './support/redis.js';
import { startStack, type GraphQLResponse, type Stack } from './support/stack.js';
import { until, untilClock } from './support/wait.js';

type Any = any;

const TTL_MS = 500;
const BUDGET_MAX_STALE_MS = 4_000;
/** The emulator allows 20 a minute; the gateway 18 of them: below half of that left, reads bend. */
const LIMITS = { rateLimits: { minute: 20, hour: 1_000 } };
const TIGHT = {
  GOVERNANCE_RATE_LIMITS: 'minute:20,hour:1000',
  CACHE_TTL_MS: String(TTL_MS),
  // Pauses and failures serve nothing stale here: what is, is for the budget (and kept for it).
  CACHE_MAX_STALE_MS: '0',
  CACHE_BUDGET_STALE: `belowPercent:50,maxStaleMs:${BUDGET_MAX_STALE_MS}`,
  RESPONSE_CACHE: 'false',
  // One caller alone spends the account here: no cap on its share (25 % by default).
  FAIR_SHARE: '*:share=100%',
  // The reads by id here are to spend the budget: records kept from the list would answer them.
  CACHE_REUSE: 'off',
};

type Query = (doc: string) => Promise<GraphQLResponse<Any>>;
/** A stack's operations, as a replica's. */
const queryOf =
  (stack: Stack): Query =>
  (doc) =>
    stack.query<Any>(doc);

const read = (ids: string[]) => `{ ${ids.map((id, i) => `e${i}: entity(id: "${id}") { id name }`).join(' ')} }`;

/** GETs of these records the emulator answered, and its 429s. */
function seen(stack: Stack, ids: string[]) {
  const log = stack.governance.control.requests().requests;
  return {
    gets: log.filter((r) => r.method === 'GET' && ids.some((id) => r.path === `/entities/${id}`)).length,
    rateLimited: log.filter((r) => r.status === 429).length,
  };
}

/** Stale serves for the budget's sake, from the gateway's metrics. */
async function staleBudgetServed(gateway: Gateway): Promise<number> {
  const metrics = await (await gateway.yoga.fetch('http://gateway.test/metrics')).text();
  const line = metrics
    .split('\n')
    .find(
      (l) => l.startsWith('gateway_upstream_cache_total{') && l.includes('governance') && l.includes('stale-budget'),
    );
  return line ? Number(line.split(' ').at(-1)) : 0;
}

/** Ids of seeded entities (one list call), `n` of them. */
async function entityIds(query: Query, n: number): Promise<string[]> {
  const res = await query(`{ entities(first: ${n}) { nodes { id } } }`);
  expect(res.errors).toBeUndefined();
  return res.data.entities.nodes.map((e: { id: string }) => e.id);
}

/**
 * Reads `ids` once, cached for TTL_MS from some moment in [from, to]: they have expired by
 * `to + TTL_MS`, and are within a max staleness M until `from + TTL_MS + M`.
 */
async function warm(query: Query, ids: string[]): Promise<{ from: number; to: number }> {
  const from = Date.now();
  const res = await query(read(ids));
  expect(res.errors).toBeUndefined();
  expect(res.extensions!.stale).toBeUndefined();
  return { from, to: Date.now() };
}

function expectStale(res: GraphQLResponse<Any>, ids: string[]): void {
  expect(res.errors).toBeUndefined();
  expect(ids.map((_, i) => res.data[`e${i}`].id)).toEqual(ids);
  expect(res.extensions!.stale).toBe(true);
  expect(res.extensions!.cost!.governance).toMatchObject({ actual: 0, staleHits: ids.length });
}

function expectFresh(res: GraphQLResponse<Any>, ids: string[]): void {
  expect(res.errors).toBeUndefined();
  expect(res.extensions!.stale).toBeUndefined();
  expect(res.extensions!.cost!.governance).toMatchObject({ actual: ids.length });
  expect(res.extensions!.cost!.governance!.staleHits ?? 0).toBe(0);
}

describe('freshness that bends to the budget', () => {
  it('a record cache lookup answers within the max staleness asked for: the pause and failure one by default', () => {
    const cache = new ResponseCache({ maxBytes: 1 << 20, maxStaleMs: 1_000, keepStaleMs: 5_000 });
    const response = { status: 200, headers: {}, body: {}, bytes: 2 };
    const at = Date.now();
    cache.set('k', response, 100, []);
    // The clock passed in: 3 s past the TTL, beyond the pause's max staleness, within the budget's.
    expect(cache.get('k', at + 100 + 3_000)).toBeUndefined();
    expect(cache.get('k', at + 100 + 3_000, 5_000)).toMatchObject({ fresh: false, entry: { response } });
    expect(cache.get('k', at + 100 + 6_000, 5_000)).toBeUndefined();
  });

  it('below the threshold, expired records answer stale with no call (counted, no 429), until their max staleness', async () => {
    const stack = await startStack({ governance: LIMITS, env: TIGHT });
    const traffic = stack.gateway.upstreams.governance.traffic;
    const ids = await entityIds(queryOf(stack), 12); // token + one list: 2 of 18
    const hot = ids.slice(0, 3);
    const stored = await warm(queryOf(stack), hot); // 5 of 18
    expect(traffic.leftShare()).toBeGreaterThanOrEqual(0.5);
    // Other reads spend the budget below half: 10 of 18 gone.
    expect((await stack.query(read(ids.slice(3, 8)))).errors).toBeUndefined();
    expect(traffic.leftShare()).toBeLessThan(0.5);
    const before = seen(stack, hot);
    expect(before.gets).toBe(3);

    await untilClock(stored.to + TTL_MS + 50);
    for (let i = 0; i < 3; i++) expectStale(await stack.query<Any>(read(hot)), hot);
    expect(Date.now()).toBeLessThan(stored.from + TTL_MS + BUDGET_MAX_STALE_MS);
    expect(seen(stack, hot)).toEqual({ gets: 3, rateLimited: 0 });
    expect(await staleBudgetServed(stack.gateway)).toBe(9);

    // Past the max staleness the records are refetched, budget or not.
    await untilClock(stored.to + TTL_MS + BUDGET_MAX_STALE_MS + 50);
    expectFresh(await stack.query<Any>(read(hot)), hot);
    expect(seen(stack, hot)).toEqual({ gets: 6, rateLimited: 0 });
  }, 30_000);

  it('with budget to spare, or maxStaleMs:0, expired records are refetched as usual', async () => {
    for (const env of [
      { ...TIGHT, GOVERNANCE_RATE_LIMITS: 'minute:1000,hour:10000' },
      { ...TIGHT, CACHE_BUDGET_STALE: 'belowPercent:50,maxStaleMs:0' },
    ]) {
      const stack = await startStack({ governance: LIMITS, env });
      const ids = await entityIds(queryOf(stack), 12);
      const hot = ids.slice(0, 3);
      const stored = await warm(queryOf(stack), hot);
      expect((await stack.query(read(ids.slice(3, 8)))).errors).toBeUndefined();
      await untilClock(stored.to + TTL_MS + 50);
      expectFresh(await stack.query<Any>(read(hot)), hot);
      expect(seen(stack, hot)).toEqual({ gets: 6, rateLimited: 0 });
      expect(await staleBudgetServed(stack.gateway)).toBe(0);
      await stack.close();
    }
  }, 30_000);

  it('replicas sharing Redis: a replica that spent little bends to what the others spent', async () => {
    if (!(await requireRedis())) return;
    const env = { ...TIGHT, REDIS_URL, REDIS_KEY_PREFIX: uniquePrefix() };
    const a = await startStack({ governance: LIMITS, env });
    const b = createGateway({
      config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...emulatorEnv(a.governance, a.calendar), ...env }),
    });
    try {
      const queryB = async (doc: string) => {
        const res = await b.yoga.fetch('http://gateway.test/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
          body: JSON.stringify({ query: doc }),
        });
        return { ...(await res.json()), status: res.status, headers: res.headers } as GraphQLResponse<Any>;
      };
      const shareB = () => b.upstreams.governance.traffic.leftShare();
      await until(() => a.gateway.upstreams.redis!.ready && b.upstreams.redis!.ready, 'both replicas on Redis');
      const ids = await entityIds(queryOf(a), 12); // A: token + list, 2 of 18
      const hot = ids.slice(0, 3);
      const stored = await warm(queryB, hot); // B: token + 3 reads, 6 of 18
      expect(shareB()).toBeGreaterThanOrEqual(0.5);
      // A spends the shared budget below half (11 of 18); B learns it from Redis within a heartbeat.
      expect((await a.query(read(ids.slice(3, 8)))).errors).toBeUndefined();
      await until(() => shareB() < 0.5, "B to see A's spending");

      await untilClock(stored.to + TTL_MS + 50);
      expectStale(await queryB(read(hot)), hot);
      expect(Date.now()).toBeLessThan(stored.from + TTL_MS + BUDGET_MAX_STALE_MS);
      expect(seen(a, hot)).toEqual({ gets: 3, rateLimited: 0 });
      expect(await staleBudgetServed(b)).toBe(3);
    } finally {
      await b.close();
    }
  }, 30_000);
});
