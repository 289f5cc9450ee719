/**
 * The bench's replicas workload (7) in its short mode (a 1.5 s burst): two gateway processes, then
 * one, against the workload's own emulator and account budget shared through Redis. No span of the
 * emulator's arrivals may hold more than the budget, a timing guarantee across processes, so this
 * file runs with the suite's timed files, alone; the rest of the bench's tiny mode is
 * test/bench-smoke.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { tinyBench } from './support/bench.js';
import { REDIS_URL, requireRedis } from './support/redis.js';

const redis = await requireRedis();

describe('bench harness (tiny mode), workload 7', () => {
  it.skipIf(!redis)(
    "measures workload 7: two gateway processes against the workload's own emulator and budget",
    { timeout: 150_000 },
    async () => {
      process.env.REDIS_URL ??= REDIS_URL;
      const { byId } = await tinyBench(['7']);
      const w = byId['7']!;
      expect(w.skipped).toBeUndefined();
      expect(w.sharedBudgetReady).toEqual([true, true]);
      expect(w.errors).toBe(0);
      // The burst reached this workload's emulator, and no span (sliding, not per clock window) saw more than the budget.
      expect(w.upstreamRequests).toBeGreaterThan(0);
      expect(w.maxInSlidingWindow).toBeGreaterThan(0);
      expect(w.ratio).toBeLessThanOrEqual(1);
      expect(w.emulatorRejected429).toBe(0);
      // The same with one gateway alone.
      const one = byId['7a']!;
      expect(one.errors).toBe(0);
      expect(one.ratio).toBeLessThanOrEqual(1);
    },
  );
});
