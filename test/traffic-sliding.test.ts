/**
 * The account budget's guarantee: in ANY span of a rule's window (not only in clock windows) the
 * upstream receives at most margin × limit requests. Checked from the emulator's own arrival
 * timestamps, over every span, for one process, for two processes sharing a Redis, and for three
 * processes whose Redis is killed and started again (empty) in the middle of the burst. The rule is
 * written in the `limit/duration` grammar, a few seconds long, so the test runs in seconds.
 */
import { describe, expect, it } from 'vitest';
import { gateEnv, getEntity, seedIds, startEmulator, startGate, type GovernanceEmulator } from './support/traffic.js';
import type { Config } from '../src/config/config.js';
import { maxInAnySpan, OwnRedis, REDIS_URL, requireRedis, uniquePrefix } from './support/redis.js';
import { startReplicas, type ReplicaResult } from './support/replicas.js';
import { until } from './support/wait.js';

const run = await requireRedis();
const WINDOW = 2_000;
/** `20/2s` at the default margin of 0.9: 18 in any 2 s span. */
const ALLOWED = 18;
// The guard band covers the time from admission to arrival, as the emulator timestamps it: on a
// loaded 2-core machine the gateway's or the emulator's event loop can stall for several hundred ms
// between the two, so the tests give it 1 s (the default for a 2 s window is 250 ms; for the
// platform's minute and hour rules it is 1 s).
const RULES = { GOVERNANCE_RATE_LIMITS: '20/2s,minute:0,hour:0' };
const GUARD_MS = 1_000;
const guarded = (c: Config): Config => ({
  ...c,
  traffic: { ...c.traffic, governance: { ...c.traffic.governance, guardMs: GUARD_MS } },
});

/** The emulator enforces the same limit on fixed 2 s windows: any overspend there is a 429. */
const emulatorOptions = { rateLimits: { minute: 20, hour: 100_000 }, windows: { minuteMs: WINDOW, hourMs: 600_000 } };

const arrivals = (emulator: GovernanceEmulator) => emulator.control.requests().requests.map((r) => r.receivedAt);
const rejected = (emulator: GovernanceEmulator) => emulator.control.requests().requests.filter((r) => r.status === 429);
/** The ids of the entities read with a 200. */
const readIds = (emulator: GovernanceEmulator) =>
  new Set(
    emulator.control
      .requests()
      .requests.filter((r) => r.route === 'GET /entities/:entityId' && r.status === 200)
      .map((r) => r.path.split('/').pop()),
  );

/** Gateway processes (test/support/replica.ts) with this file's rules, reading `ids` each, started together. */
const replicas = (emulator: GovernanceEmulator, env: Record<string, string>, ids: string[][]) =>
  startReplicas({ ...gateEnv(emulator), ...RULES, REPLICA_GUARD_MS: String(GUARD_MS), ...env }, ids);

async function seeded(emulator: GovernanceEmulator): Promise<string[]> {
  const seeder = await startGate(emulator, { GOVERNANCE_RATE_LIMITS: 'minute:0,hour:0' });
  const { ids } = await seedIds(seeder, await seeder.caller());
  await seeder.close();
  emulator.control.clearRequests();
  return ids;
}

describe('the budget holds in every sliding span', () => {
  it('one process: a burst never puts more than margin × limit into any 2 s span', async () => {
    const emulator = await startEmulator(emulatorOptions);
    const gate = await startGate(emulator, RULES, guarded);
    const caller = await gate.caller();
    const { ids } = await seedIds(gate, caller);
    const results = await Promise.all(ids.slice(0, 45).map((id) => getEntity(gate, caller, id)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(rejected(emulator)).toEqual([]);
    const most = maxInAnySpan(arrivals(emulator), WINDOW);
    if (most > ALLOWED)
      console.log(
        arrivals(emulator)
          .map((t) => Math.round(t - arrivals(emulator)[0]!))
          .join(' '),
        gate.sentAt.map((t) => t - gate.sentAt[0]!).join(' '),
      );
    expect(most).toBeLessThanOrEqual(ALLOWED);
    // The budget is used, not merely undershot: the burst fills a span.
    expect(most).toBeGreaterThanOrEqual(ALLOWED / 2);
  }, 30_000);

  it.skipIf(!run)(
    'two processes sharing Redis stay within margin × limit together in every span',
    async () => {
      const emulator = await startEmulator(emulatorOptions);
      const ids = await seeded(emulator);
      const env = { REDIS_URL, REDIS_KEY_PREFIX: uniquePrefix() };
      const [one, two] = (await replicas(emulator, env, [ids.slice(0, 25), ids.slice(25, 50)])) as [
        ReplicaResult,
        ReplicaResult,
      ];
      expect([...one.statuses, ...two.statuses].every((s) => s === 200)).toBe(true);
      expect(readIds(emulator)).toEqual(new Set(ids.slice(0, 50)));
      expect(emulator.control.requests().total).toBeGreaterThanOrEqual(52);
      expect(rejected(emulator)).toEqual([]);
      const most = maxInAnySpan(arrivals(emulator), WINDOW);
      expect(most).toBeLessThanOrEqual(ALLOWED);
      expect(most).toBeGreaterThanOrEqual(ALLOWED / 2);
    },
    40_000,
  );

  it.skipIf(!run)(
    'three processes whose Redis is killed and restarted empty mid-burst stay within margin × limit in every span',
    async () => {
      const emulator = await startEmulator(emulatorOptions);
      const ids = await seeded(emulator);
      const redis = new OwnRedis();
      await redis.start();
      try {
        const env = { REDIS_URL: redis.url, REDIS_KEY_PREFIX: uniquePrefix(), REPLICA_REDIS_TIMEOUT_MS: '200' };
        const running = replicas(
          emulator,
          env,
          [0, 1, 2].map((i) => ids.slice(i * 16, i * 16 + 16)),
        );
        // Three tokens, then kill Redis once the burst has filled most of a span.
        await until(() => emulator.control.requests().total >= 3 + 14, 'the burst to fill most of a span', {
          timeout: 20_000,
        });
        await redis.stop();
        const atOutage = emulator.control.requests().total;
        // Every replica spends only its share of what the last seen counts left while Redis is away…
        await until(() => emulator.control.requests().total >= atOutage + 8, 'sends during the outage', {
          timeout: 20_000,
        });
        await redis.start();
        const results = await running;
        expect(results.flatMap((r) => r.statuses).every((s) => s === 200)).toBe(true);
        // Every record was read; on a loaded machine a read may be sent again (a retried attempt), and
        // such a resend counts in the spans below like any other request.
        expect(readIds(emulator)).toEqual(new Set(ids.slice(0, 48)));
        expect(emulator.control.requests().total).toBeGreaterThanOrEqual(3 + 48);
        expect(rejected(emulator)).toEqual([]);
        expect(maxInAnySpan(arrivals(emulator), WINDOW)).toBeLessThanOrEqual(ALLOWED);
      } finally {
        await redis.stop();
      }
    },
    60_000,
  );
});
