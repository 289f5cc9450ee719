/**
 * Several replicas sharing a Redis (a redis-server of this file's own): two independent sets of upstreams (two "gateways",
 * each with its own scheduler, budget and pause) in front of one governance emulator. Together they
 * never exceed the shared budget, a 429 seen by one pauses the other, their counters deleted from Redis in the middle of a
 * burst does not let them overshoot, and during a Redis outage each falls back to its local share
 * (nothing fails) and returns to the shared budget when Redis is back.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  getEntity,
  maxPerWindow,
  seedIds,
  sentAfterFirst429,
  startEmulator,
  startGate,
  type Gate,
} from './support/traffic.js';
import { fileRedis, OwnRedis, RedisProxy, uniquePrefix } from './support/redis.js';
import { startThrowawayRedis } from '../scripts/throwaway-redis.js';
import { AccountBudget, type BudgetAnswer } from '../src/core/budget.js';
import { RedisLink } from '../src/core/redis.js';
import { until, untilClock, untilNextWindow } from './support/wait.js';

// A redis-server of this file's own: the tests delete counters to play a loss.
const OWN_REDIS_URL = (await fileRedis()) ?? '';
const run = OWN_REDIS_URL !== '';
const WINDOW = 1_000;
const limits = (prefix: string, url = OWN_REDIS_URL): Record<string, string> => ({
  REDIS_URL: url,
  REDIS_KEY_PREFIX: prefix,
  GOVERNANCE_RATE_LIMITS: `minute:0,hour:0,20/${WINDOW}ms,10000/600s`,
});

const admin = run ? new Redis(OWN_REDIS_URL) : undefined;
afterAll(() => admin?.disconnect());

async function burst(gate: Gate, ids: string[], n: number) {
  const caller = await gate.caller();
  return Promise.all(ids.slice(0, n).map((id) => getEntity(gate, caller, id)));
}

/** Two gateways on one Redis prefix, both connected, with ids seeded through the first. */
async function startPair(emulator: Parameters<typeof startGate>[0], url = OWN_REDIS_URL) {
  const prefix = uniquePrefix();
  const [a, b] = await Promise.all([
    startGate(emulator, limits(prefix, url)),
    startGate(emulator, limits(prefix, url)),
  ]);
  await until(() => a.upstreams.redis!.ready && b.upstreams.redis!.ready);
  const callerA = await a.caller();
  const { ids } = await seedIds(a, callerA);
  return { a, b, callerA, ids, prefix };
}

describe.skipIf(!run)('replicas sharing Redis', () => {
  it('two gateways together never exceed the shared budget in any window', async () => {
    const emulator = await startEmulator({
      rateLimits: { minute: 20, hour: 10_000 },
      windows: { minuteMs: WINDOW, hourMs: 600_000 },
    });
    const { a, b, ids } = await startPair(emulator);
    const results = (await Promise.all([burst(a, ids, 30), burst(b, ids.slice(10), 30)])).flat();
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(emulator.control.requests().requests.filter((r) => r.status === 429)).toEqual([]);
    // 90% of 20 = 18 per window for both together; each alone would have allowed itself 18.
    expect(maxPerWindow([...a.sentAt, ...b.sentAt], WINDOW)).toBeLessThanOrEqual(18);
    expect(a.sentAt.length + b.sentAt.length).toBe(emulator.control.requests().total);
  });

  it('a 429 seen by one gateway pauses the other until Retry-After', async () => {
    const emulator = await startEmulator();
    const { a, b, callerA, ids } = await startPair(emulator);
    const callerB = await b.caller();
    emulator.control.setFaults([{ kind: 'rate-limit', times: 1, retryAfter: 1 }]);
    const first = getEntity(a, callerA, ids[0]!);
    await until(() => a.events.some((e) => e.msg.includes('429')));
    await until(() => b.upstreams.governance.traffic.pause.remainingMs() > 0, 'b to pause', { timeout: 500 });
    const fromB = await Promise.all(ids.slice(1, 4).map((id) => getEntity(b, callerB, id)));
    expect((await first).status).toBe(200);
    expect(fromB.every((r) => r.status === 200)).toBe(true);
    const { readAt, pauseMs } = sentAfterFirst429(a);
    // b made no request since the 429 (its token came before); all three of its reads wait the pause.
    expect(b.sentAt).toHaveLength(4);
    expect(Math.min(...b.sentAt.slice(1))).toBeGreaterThanOrEqual(readAt + pauseMs - 5);
  });

  it('a Redis of the test’s own is handed out only when the server answering is the one it started', async () => {
    // This file deletes keys and kills servers: a port taken by another Redis since it was found free must be refused.
    const taken = Number(new URL(OWN_REDIS_URL).port);
    expect(await startThrowawayRedis(taken)).toBe(`another Redis answers on port ${taken}`);
    expect(await admin!.ping()).toBe('PONG');
  });

  it('the shared counters deleted from its own Redis in the middle of a burst: no failure, and the lost counters are rebuilt so the budget still holds', async () => {
    const emulator = await startEmulator({
      rateLimits: { minute: 20, hour: 10_000 },
      windows: { minuteMs: WINDOW, hourMs: 600_000 },
    });
    // A redis-server of this test's own (checked by pid before keys go): nothing else is touched.
    const own = new OwnRedis();
    const ownUrl = await own.start();
    const { a, b, ids, prefix } = await startPair(emulator, ownUrl);
    const running = Promise.all([burst(a, ids, 25), burst(b, ids.slice(20), 25)]);
    // Every key the two gateways keep there goes as soon as the current window has taken some points.
    await until(() => a.sentAt.length + b.sentAt.length >= 12);
    expect(await own.deleteKeys(prefix)).toBeGreaterThan(0);
    const results = (await running).flat();
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(emulator.control.requests().requests.filter((r) => r.status === 429)).toEqual([]);
    expect(maxPerWindow([...a.sentAt, ...b.sentAt], WINDOW)).toBeLessThanOrEqual(18);
    expect(a.events.concat(b.events).some((e) => e.msg.includes('lost'))).toBe(true);
    await own.stop();
  });

  it('after the shared counters are lost, a replica spends only its outage share until every replica it saw live has restored', async () => {
    const prefix = uniquePrefix();
    // b reaches Redis through a proxy, so it can stay away while a sees the counters lost.
    const proxy = new RedisProxy(OWN_REDIS_URL);
    const viaProxy = await proxy.start();
    const links = [OWN_REDIS_URL, viaProxy].map((url) => new RedisLink({ url, prefix, commandTimeoutMs: 200 }));
    // A minute rule: nothing frees during the test, so every count below is exact.
    const rules = [{ name: 'minute', limit: 20, windowMs: 60_000, perEndpoint: false }];
    const [a, b] = links.map(
      (redis) => new AccountBudget({ upstream: 'governance', rules, margin: 1, localShare: 0.5, redis }),
    ) as [AccountBudget, AccountBudget];
    const remaining = (budget: AccountBudget) => budget.status().rules[0]!.remaining;
    /** Takes until a refusal that is not a short 'resync' hold; the answers admitted. */
    const spend = async (budget: AccountBudget) => {
      const admitted: BudgetAnswer[] = [];
      for (;;) {
        const answer = await budget.take('GET /v1/entities');
        if (answer.ok) admitted.push(answer);
        else if (answer.rule === 'resync') await untilClock(Date.now() + answer.waitMs);
        else return { admitted, refusal: answer };
      }
    };
    try {
      await until(() => links.every((l) => l.ready));
      // A replica joining counters another started less than the loss grace ago holds back first.
      const takeOne = async (budget: AccountBudget): Promise<BudgetAnswer> => {
        const answer = await budget.take('GET /v1/entities');
        if (answer.ok || answer.rule !== 'resync') return answer;
        await untilClock(Date.now() + answer.waitMs);
        return takeOne(budget);
      };
      for (let i = 0; i < 4; i++) for (const budget of [a, b]) expect((await takeOne(budget)).ok).toBe(true);
      // Both have seen the shared count (8) and each other (two replicas) at a heartbeat.
      await until(() => remaining(a) === 12 && remaining(b) === 12);
      proxy.cut();
      await until(() => !links[1]!.ready);
      // The counters are lost (this prefix's keys only: the database is shared with other tests).
      const keys = await admin!.keys(`${prefix}*`);
      await admin!.del(...keys);
      // a restores its own 4, but b's 4 are missing until b is back: a spends only its share of
      // what the last seen count left, (20 − 8) ÷ 2, and so does b while it is away.
      const spentByA = await spend(a);
      expect(spentByA.admitted).toHaveLength(6);
      expect(spentByA.admitted.every((ans) => ans.ok && !ans.shared)).toBe(true);
      const spentByB = await spend(b);
      expect(spentByB.admitted).toHaveLength(6);
      // b is back: it adds its sends (before and during the outage) and a returns to the shared
      // counters, which hold everything both sent: the limit, not more.
      proxy.restore();
      const hash = async () =>
        Object.values(await admin!.hgetall((await admin!.keys(`${prefix}*minute*`))[0] ?? 'none')).reduce(
          (sum, n) => sum + Number(n),
          0,
        );
      await until(async () => (await hash()) >= 20, 'both replicas’ sends in the shared counters', { interval: 50 });
      expect(await hash()).toBe(20);
      const after = await a.take('GET /v1/entities');
      expect(after).toMatchObject({ ok: false, rule: 'minute' });
    } finally {
      a.close();
      b.close();
      await Promise.all(links.map((l) => l.close()));
      await proxy.close();
    }
  });

  it('Redis outage: each gateway falls back to its local share, nothing fails, and the shared budget returns with Redis', async () => {
    const emulator = await startEmulator({
      rateLimits: { minute: 20, hour: 10_000 },
      windows: { minuteMs: WINDOW, hourMs: 600_000 },
    });
    const proxy = new RedisProxy(OWN_REDIS_URL);
    const url = await proxy.start();
    const prefix = uniquePrefix();
    const [a, b] = await Promise.all([
      startGate(emulator, limits(prefix, url)),
      startGate(emulator, limits(prefix, url)),
    ]);
    try {
      await until(() => a.upstreams.redis!.ready && b.upstreams.redis!.ready);
      const callerA = await a.caller();
      const callerB = await b.caller();
      const { ids } = await seedIds(a, callerA);

      proxy.cut();
      await until(() => !a.upstreams.redis!.ready && !b.upstreams.redis!.ready);
      const outageStart = a.sentAt.length;
      const outageStartB = b.sentAt.length;
      const during = (
        await Promise.all([
          Promise.all(ids.slice(0, 20).map((id) => getEntity(a, callerA, id))),
          Promise.all(ids.slice(20, 40).map((id) => getEntity(b, callerB, id))),
        ])
      ).flat();
      expect(during.every((r) => r.status === 200)).toBe(true);
      const aDuring = a.sentAt.slice(outageStart);
      const bDuring = b.sentAt.slice(outageStartB);
      // Each allows itself half of 18: 9 per window, 18 together.
      expect(maxPerWindow(aDuring, WINDOW)).toBeLessThanOrEqual(9);
      expect(maxPerWindow(bDuring, WINDOW)).toBeLessThanOrEqual(9);
      expect(maxPerWindow([...aDuring, ...bDuring], WINDOW)).toBeLessThanOrEqual(18);
      expect(a.events.some((e) => e.msg.includes('local share'))).toBe(true);

      proxy.restore();
      await until(() => a.upstreams.redis!.ready && b.upstreams.redis!.ready);
      // Shared again: one gateway alone may now use the whole 18 of a window.
      await untilNextWindow(WINDOW);
      const backStart = a.sentAt.length;
      const after = await Promise.all(ids.slice(0, 36).map((id) => getEntity(a, callerA, id)));
      expect(after.every((r) => r.status === 200)).toBe(true);
      const aAfter = a.sentAt.slice(backStart);
      expect(maxPerWindow(aAfter, WINDOW)).toBeGreaterThan(9);
      expect(maxPerWindow(aAfter, WINDOW)).toBeLessThanOrEqual(18);
      expect(a.events.some((e) => e.msg.includes('shared through redis'))).toBe(true);
      expect(emulator.control.requests().requests.filter((r) => r.status === 429)).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('a hung Redis (connection open, no answers) costs each request at most one command timeout, never a failure', async () => {
    const emulator = await startEmulator();
    const proxy = new RedisProxy(OWN_REDIS_URL);
    const url = await proxy.start();
    const gate = await startGate(
      emulator,
      { ...limits(uniquePrefix(), url), GOVERNANCE_RATE_LIMITS: `minute:0,hour:0,1000/${WINDOW}ms,10000/600s` },
      (c) => ({ ...c, traffic: { ...c.traffic, redisCommandTimeoutMs: 200 } }),
    );
    try {
      await until(() => gate.upstreams.redis!.ready);
      const caller = await gate.caller();
      const { ids } = await seedIds(gate, caller);
      proxy.stall();
      const started = Date.now();
      const results = await Promise.all(ids.slice(0, 20).map((id) => getEntity(gate, caller, id)));
      expect(results.every((r) => r.status === 200)).toBe(true);
      // One timed-out command, then the local budget for a while: twenty timeouts of 200 ms in a row
      // would take 4 s at least, a floor no busy machine can shorten.
      expect(Date.now() - started).toBeLessThan(20 * 200);
      expect(gate.events.some((e) => e.msg.includes('local share'))).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it('an invalidation made through one gateway drops the same cached data in the other', async () => {
    const emulator = await startEmulator();
    const { a, b, callerA, ids } = await startPair(emulator);
    const callerB = await b.caller();
    const id = ids[5]!;
    const cache = { cache: { ttlMs: 60_000, tags: [`entity:${id}`] } };
    await getEntity(a, callerA, id, cache);
    await getEntity(b, callerB, id, cache);
    const before = b.sentAt.length;
    await getEntity(b, callerB, id, cache);
    expect(b.sentAt.length).toBe(before); // cached in b
    a.upstreams.governance.cache.invalidate([`entity:${id}`]);
    expect(b.upstreams.cache.size).toBe(1);
    await until(() => b.upstreams.cache.size === 0, 'b to drop the entry', { timeout: 1_000 });
    await getEntity(b, callerB, id, cache);
    expect(b.sentAt.length).toBe(before + 1);
  });
});
