/**
 * The ramp after a 429 pause, against the real emulator: when Retry-After has passed one request
 * (the probe) goes out alone, the rest follow only after it came back and then gradually (doubling,
 * never faster than the budget's pace), and an upstream that throttles bursts after a block sees no
 * burst, so there is no second block. With Redis, two replicas send one probe between them.
 */
import { describe, expect, it } from 'vitest';
import type { Config } from '../src/config/config.js';
import { getEntity, seedIds, startEmulator, startGate } from './support/traffic.js';
import { maxInAnySpan, REDIS_URL, requireRedis, uniquePrefix } from './support/redis.js';
import { until } from './support/wait.js';

const run = await requireRedis();
const RAMP = { GOVERNANCE_RATE_LIMITS: 'minute:0,hour:100000,20/1s' };
const step = (c: Config): Config => ({ ...c, traffic: { ...c.traffic, rampStepMs: 400 } });

describe('ramp after a 429 pause', () => {
  it('one probe goes first; the queue follows gradually; a burst-throttling upstream blocks nobody again', async () => {
    // Answers take 100 ms, so "after the probe came back" is visible in the arrival times.
    const emulator = await startEmulator({ latency: { fixedMs: 100 } });
    const gate = await startGate(emulator, RAMP, step);
    const caller = await gate.caller();
    const { ids } = await seedIds(gate, caller);
    emulator.control.clearRequests();
    // The first read is answered 429 (Retry-After 1 s); after that, the platform answers 429 to
    // any request that is the sixth within 200 ms: released at once, the queue would be blocked again.
    emulator.control.setFaults([
      { kind: 'rate-limit', times: 1, retryAfter: 1 },
      { kind: 'rate-limit', burst: { count: 5, withinMs: 200 }, retryAfter: 1 },
    ]);
    const first = getEntity(gate, caller, ids[0]!);
    await until(() => gate.upstreams.governance.traffic.pause.remainingMs() > 0);
    const queued = ids.slice(1, 21).map((id) => getEntity(gate, caller, id));
    const results = await Promise.all([first, ...queued]);
    expect(results.every((r) => r.status === 200)).toBe(true);

    const log = emulator.control.requests().requests;
    // One 429 only: the ramp never tripped the burst rule.
    expect(log.filter((r) => r.status === 429)).toHaveLength(1);
    const after = log.slice(1).map((r) => r.receivedAt);
    expect(after).toHaveLength(21);
    // The probe went alone: the next request arrived only after its answer (100 ms later).
    expect(after[1]! - after[0]!).toBeGreaterThanOrEqual(100);
    // Then gradually: never more than 5 in any 200 ms, and not all at once.
    expect(maxInAnySpan(after.slice(1), 200)).toBeLessThanOrEqual(5);
    expect(maxInAnySpan(after.slice(1), 400)).toBeLessThan(20);
  }, 20_000);

  it('the same queue without the ramp would have been blocked again: the burst rule is real', async () => {
    const emulator = await startEmulator();
    emulator.control.setFaults([{ kind: 'rate-limit', burst: { count: 5, withinMs: 200 }, retryAfter: 1 }]);
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () =>
        fetch(`${emulator.origin}/api/ai-governance/v1/entity-types?page=0&size=1`).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  });

  it.skipIf(!run)(
    'two replicas on Redis send one probe between them after a shared pause',
    async () => {
      const emulator = await startEmulator({ latency: { fixedMs: 100 } });
      const env = { ...RAMP, REDIS_URL, REDIS_KEY_PREFIX: uniquePrefix() };
      const [a, b] = await Promise.all([startGate(emulator, env, step), startGate(emulator, env, step)]);
      await until(() => a.upstreams.redis!.ready && b.upstreams.redis!.ready);
      const [callerA, callerB] = await Promise.all([a.caller(), b.caller()]);
      const { ids } = await seedIds(a, callerA);
      emulator.control.clearRequests();
      emulator.control.setFaults([{ kind: 'rate-limit', times: 1, retryAfter: 1 }]);
      const first = getEntity(a, callerA, ids[0]!);
      await until(() => b.upstreams.governance.traffic.pause.remainingMs() > 0);
      const queued = [
        ...ids.slice(1, 8).map((id) => getEntity(a, callerA, id)),
        ...ids.slice(8, 15).map((id) => getEntity(b, callerB, id)),
      ];
      const results = await Promise.all([first, ...queued]);
      expect(results.every((r) => r.status === 200)).toBe(true);
      const after = emulator.control
        .requests()
        .requests.slice(1)
        .map((r) => r.receivedAt);
      expect(after).toHaveLength(15);
      // Across both replicas, one request went first and alone until its answer came back.
      expect(after[1]! - after[0]!).toBeGreaterThanOrEqual(100);
    },
    20_000,
  );
});
