/**
 * Freshness that bends to the budget, through GraphQL against the governance emulator with its rate
 * limits on: once the account's budget left falls below CACHE_BUDGET_STALE_BELOW, reads of expired
 * records are answered from the cache, marked stale and counted (`stale-budget` in the metrics),
 * with no call upstream and no 429; with budget to spare the same reads refetch; past
 * CACHE_BUDGET_MAX_STALE_MS (or with it 0) they refetch even on a tight budget; and with replicas
 * sharing Redis, a replica that spent nothing bends to what the others spent.
 */
import { describe, expect, it } from 'vitest';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { createGateway, type Gateway } from '../src/app/gateway.js';
import { loadConfig } from '../src/config/config.js';
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
  CACHE_BUDGET_STALE_BELOW: '0.5',
  CACHE_BUDGET_MAX_STALE_MS: String(BUDGET_MAX_STALE_MS),
  RESPONSE_CACHE: 'false',
};

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
async function entityIds(query: Stack['query'], n: number): Promise<string[]> {
  const res = await query<Any>(`{ entities(first: ${n}) { nodes { id } } }`);
  expect(res.errors).toBeUndefined();
  return res.data.entities.nodes.map((e: { id: string }) => e.id);
}

/** Reads `ids` once (cached for TTL_MS); returns when they were read at the earliest (their entries expire after). */
async function warm(query: Stack['query'], ids: string[]): Promise<number> {
  const before = Date.now();
  const res = await query<Any>(read(ids));
  expect(res.errors).toBeUndefined();
  expect(res.extensions!.stale).toBeUndefined();
  return before;
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
  it('below the threshold, expired records answer stale with no call (counted, no 429), until their max staleness', async () => {
    const stack = await startStack({ governance: LIMITS, env: TIGHT });
    const traffic = stack.gateway.upstreams.governance.traffic;
    const ids = await entityIds(stack.query, 12); // token + one list: 2 of 18
    const hot = ids.slice(0, 3);
    const storedAt = await warm(stack.query, hot); // 5 of 18
    expect(traffic.leftShare()).toBeGreaterThanOrEqual(0.5);
    // Other reads spend the budget below half: 10 of 18 gone.
    expect((await stack.query(read(ids.slice(3, 8)))).errors).toBeUndefined();
    expect(traffic.leftShare()).toBeLessThan(0.5);
    const before = seen(stack, hot);
    expect(before.gets).toBe(3);

    await untilClock(storedAt + TTL_MS + 50);
    for (let i = 0; i < 3; i++) expectStale(await stack.query<Any>(read(hot)), hot);
    expect(Date.now()).toBeLessThan(storedAt + TTL_MS + BUDGET_MAX_STALE_MS);
    expect(seen(stack, hot)).toEqual({ gets: 3, rateLimited: 0 });
    expect(await staleBudgetServed(stack.gateway)).toBe(9);

    // Past the max staleness the records are refetched, budget or not.
    await untilClock(storedAt + TTL_MS + BUDGET_MAX_STALE_MS + 50);
    expectFresh(await stack.query<Any>(read(hot)), hot);
    expect(seen(stack, hot)).toEqual({ gets: 6, rateLimited: 0 });
  }, 30_000);

  it('with budget to spare, or CACHE_BUDGET_MAX_STALE_MS=0, expired records are refetched as usual', async () => {
    for (const env of [
      { ...TIGHT, GOVERNANCE_RATE_LIMITS: 'minute:1000,hour:10000' },
      { ...TIGHT, CACHE_BUDGET_MAX_STALE_MS: '0' },
    ]) {
      const stack = await startStack({ governance: LIMITS, env });
      const ids = await entityIds(stack.query, 12);
      const hot = ids.slice(0, 3);
      const storedAt = await warm(stack.query, hot);
      expect((await stack.query(read(ids.slice(3, 8)))).errors).toBeUndefined();
      await untilClock(storedAt + TTL_MS + 50);
      expectFresh(await stack.query<Any>(read(hot)), hot);
      expect(seen(stack, hot)).toEqual({ gets: 6, rateLimited: 0 });
      expect(await staleBudgetServed(stack.gateway)).toBe(0);
      await stack.close();
    }
  }, 30_000);
});
