/**
 * Workload 14: the circuit breaker with the calendar upstream black-holed (its own emulator, which
 * accepts connections and never answers), met by the chaos run's three waves of 30 operations
 * (scripts/chaos/waves.ts), each asking for governance data and a calendar search of its own:
 * `14` through one gateway process, `14a` spread over two sharing a Redis. Settings as shipped: wave 1
 * waits out the request deadline; waves 2 and 3 meet an open breaker. The floor, measured in the same
 * run just before the black-hole: 30 of the same operations at once, answered from the record cache
 * with the calendar up.
 */
import { Callers } from '../scripts/chaos/callers.js';
import { p50 } from '../scripts/chaos/checks.js';
import { query, WAVE, waves } from '../scripts/chaos/waves.js';
import type { Replica } from '../scripts/chaos/world.js';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { loadConfig } from '../src/config/config.js';
import { round } from './client.js';
import { startChild, type Child } from './processes.js';
import { benchRedis } from './redis.js';
import { waitForRedis } from './replicas.js';
import { startEmulator, type Upstreams } from './upstreams.js';
import type { BenchOptions, WorkloadRecord } from './workloads.js';

const BLACK_HOLE = [{ kind: 'stall' as const, delayMs: 60_000 }];

export async function breakerWaves(up: Upstreams, options: BenchOptions): Promise<WorkloadRecord[]> {
  return [await episode(up, options, 1), await episode(up, options, 2)];
}

async function episode(up: Upstreams, options: BenchOptions, count: 1 | 2): Promise<WorkloadRecord> {
  const id = count === 1 ? '14' : '14a';
  const name = `calendar black-holed: three waves of ${WAVE} operations (governance + calendar) through ${
    count === 1 ? 'one gateway' : 'two gateways sharing Redis'
  }`;
  const redis = count === 2 ? await benchRedis() : undefined;
  if (typeof redis === 'string') return { id, name, skipped: redis };
  const calendar = await startEmulator('calendar', { latency: { fixedMs: options.latencyMs } });
  const gateways: Child[] = [];
  let callers: Callers | undefined;
  try {
    const env = up.gatewayEnv({
      // This workload's own calendar emulator (black-holed below), not the shared one.
      ...emulatorEnv(up.governance, calendar),
      ...(redis ? { REDIS_URL: redis.url, REDIS_KEY_PREFIX: `bench-breaker-${process.pid}-${Date.now()}:` } : {}),
    });
    const config = loadConfig(env);
    gateways.push(...(await Promise.all(Array.from({ length: count }, () => startChild('gateway-process.ts', env)))));
    const redisReady = redis ? await Promise.all(gateways.map((g) => waitForRedis(g))) : undefined;
    const replicas: Replica[] = gateways.map((g, index) => ({
      index,
      url: g.url,
      state: 'up',
      crashes: [],
      errorLines: [],
      drains: [],
    }));
    callers = new Callers(replicas, config.traffic.operationDeadlineMs + 10_000);
    const floor = await cachedWave(callers, replicas, id);

    await calendar.clear();
    await calendar.setFaults(BLACK_HOLE);
    const { requestDeadlineMs } = config.traffic;
    const run = await waves(callers, replicas, `bench${id}`, requestDeadlineMs);
    return {
      id,
      name,
      gateways: count,
      ...(redis ? { redis: redis.own ? 'redis-server started by the bench' : 'REDIS_URL', redisReady } : {}),
      settings: { requestDeadlineMs, breaker: config.breaker, cacheTtlMs: config.cache.ttlMs },
      operationsPerWave: WAVE,
      floor,
      waves: run.waves.map((w) => ({ ...w, p50RatioToFloor: round(w.p50Ms / Math.max(1, floor.p50Ms), 2) })),
      wave1MaxRatioToDeadline: round(run.waves[0]!.maxMs / requestDeadlineMs, 2),
      // What reached the black-holed calendar during the three waves (retries and the half-open probe included).
      calendarRequests: (await calendar.requests()).length,
      // The chaos run's own reference: the governance field alone, from the cache, right after the waves.
      governanceOnlyWave: run.floor,
      // The chaos run's own checks of the waves (with its looser bound on waves 2 and 3); the targets are bench/targets.ts.
      chaosViolations: run.violations,
    };
  } finally {
    await callers?.close();
    await Promise.all(gateways.map((g) => g.stop()));
    await calendar.child.stop();
    await redis?.close();
  }
}

/**
 * Unmeasured waves before the floor: they fill the caches and warm V8 up, as every measured series
 * of the bench starts (the first 30 operations of a fresh process took 660 ms at p50, the tenth wave
 * 40–120 ms on this 2-core machine).
 */
const WARMUP_WAVES = 10;

/**
 * The floor: the waves' operation (a search of its own each), `WARMUP_WAVES` times, then the same 30
 * at once again, each to the same gateway, answered from the record cache.
 */
async function cachedWave(callers: Callers, replicas: Replica[], id: string) {
  const send = () =>
    Promise.all(
      Array.from({ length: WAVE }, (_, i) =>
        callers.send('floor', replicas[i % replicas.length]!, 'Floor', { query: query(`bench${id}-floor-${i}`) }),
      ),
    );
  for (let k = 0; k < WARMUP_WAVES; k++) await send();
  const answers = await send();
  const ms = answers.map((a) => a.outcome.ms);
  return {
    warmupWaves: WARMUP_WAVES,
    p50Ms: p50(ms),
    maxMs: Math.round(Math.max(...ms)),
    errors: answers.filter((a) => a.outcome.codes.length > 0 || !a.answer?.data?.events).length,
  };
}
