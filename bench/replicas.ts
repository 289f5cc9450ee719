/**
 * Workload 7: gateway processes (one: `7a`; two sharing one Redis: `7`) under a burst of uncached
 * EntityGraph operations, against a scaled-down account budget (the governance emulator enforces
 * the same budget on fixed windows). The figure is the most requests the emulator saw in ANY span of
 * the budget's window (sliding, from its arrival timestamps, not per clock window), divided by the
 * budget: above 1.00 the gateways overspent the account for a platform that counts any phase.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { GraphQLClient, round } from './client.js';
import { startChild, type Child } from './processes.js';
import { ENTITY_GRAPH } from './queries.js';
import { maxInAnySpan } from './spans.js';
import { benchRedis } from './redis.js';
import { startEmulator, type Upstreams } from './upstreams.js';
import type { BenchOptions, WorkloadRecord } from './workloads.js';

const NAME = 'replicas: two gateways sharing Redis, burst against a scaled-down governance budget';
const NAME_ONE = 'one gateway, burst against a scaled-down governance budget (sliding spans)';

export async function replicas(
  up: Upstreams,
  options: BenchOptions,
  log: (line: string) => void,
  count: 1 | 2 = 2,
): Promise<WorkloadRecord> {
  const id = count === 2 ? '7' : '7a';
  const name = count === 2 ? NAME : NAME_ONE;
  const budget = options.quick ? 40 : 100;
  const windowMs = options.quick ? 1_000 : 2_000;
  const burstMs = options.quick ? 1_500 : 6_000;
  const redis = count === 2 ? await benchRedis() : undefined;
  if (typeof redis === 'string') return { id, name, skipped: redis };

  const governance = await startEmulator('governance', {
    latency: { fixedMs: options.latencyMs },
    rateLimits: { minute: budget },
    windows: { minuteMs: windowMs },
  });
  const gateways: Child[] = [];
  const clients: GraphQLClient[] = [];
  try {
    const env = up.gatewayEnv({
      // This workload's own governance emulator (with the scaled-down budget), not the shared one.
      ...emulatorEnv(governance, up.calendar),
      ...(redis ? { REDIS_URL: redis.url, REDIS_KEY_PREFIX: `bench-${process.pid}-${Date.now()}:` } : {}),
      GOVERNANCE_RATE_LIMITS: `minute:0,hour:0,${budget}/${windowMs}ms`,
      // Nothing cached: every operation costs its full set of upstream calls.
      CACHE_TTL_MS: '0',
      // One caller (anonymous) presses on the whole account: no cap on its share (a quarter by default).
      FAIR_SHARE: '*:share=100%',
    });
    gateways.push(...(await Promise.all(Array.from({ length: count }, () => startChild('gateway-process.ts', env)))));
    const shared = redis ? await Promise.all(gateways.map((g) => waitForRedis(g))) : 'no redis (one gateway)';
    clients.push(...gateways.map((g) => new GraphQLClient(g.url, options.concurrency)));
    await governance.clear();

    log(`workload ${id}: burst of ${burstMs} ms on ${count} gateway(s), budget ${budget} per ${windowMs} ms`);
    const stopAt = performance.now() + burstMs;
    let operations = 0;
    let errors = 0;
    const errorSample: string[] = [];
    const worker = async (client: GraphQLClient) => {
      while (performance.now() < stopAt && operations < 10_000) {
        const r = await client.run(ENTITY_GRAPH, { first: options.quick ? 3 : 20 });
        operations++;
        if (r.status !== 200 || r.errors.length > 0) {
          errors++;
          if (errorSample.length < 3)
            errorSample.push(
              r.errors
                .map((e) => `${e.extensions?.code ?? ''} ${e.message}`)
                .join(' | ')
                .slice(0, 200),
            );
        }
      }
    };
    await Promise.all(gateways.map((g) => g.request('reset-peak')));
    const before = await Promise.all(gateways.map((g) => g.stats()));
    // The emulator timestamps arrivals in its own process; stalls of this one (the load) are recorded.
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const started = performance.now();
    await Promise.all(clients.flatMap((c) => Array.from({ length: options.concurrency }, () => worker(c))));
    const elapsedMs = performance.now() - started;
    loop.disable();
    const after = await Promise.all(gateways.map((g) => g.stats()));

    const seen = await governance.requests();
    const perWindow = new Map<number, number>();
    for (const r of seen) {
      const w = Math.floor(r.receivedAt / windowMs);
      perWindow.set(w, (perWindow.get(w) ?? 0) + 1);
    }
    const maxInWindow = Math.max(0, ...perWindow.values());
    const maxInSlidingWindow = maxInAnySpan(
      seen.map((r) => r.receivedAt),
      windowMs,
    );
    return {
      id,
      name,
      budget,
      windowMs,
      gatewayMargin: 'default (GOVERNANCE_RATE_MARGIN 0.9)',
      redis: redis ? (redis.own ? 'redis-server started by the bench' : 'REDIS_URL') : 'none',
      sharedBudgetReady: shared,
      burstMs,
      elapsedMs: round(elapsedMs, 0),
      operations,
      errors,
      ...(errorSample.length ? { errorSample } : {}),
      upstreamRequests: seen.length,
      windows: [...perWindow.values()],
      maxInWindow,
      maxInSlidingWindow,
      emulatorRejected429: seen.filter((r) => r.status === 429).length,
      benchLoopDelayMs: { p99: round(loop.percentile(99) / 1e6, 1), max: round(loop.max / 1e6, 1) },
      gateways: after.map((a, i) => ({
        cpuMs: round(a.cpuMs - before[i]!.cpuMs, 1),
        peakRssMb: a.peakRssKb === null ? null : round(a.peakRssKb / 1024, 1),
      })),
      ratio: round(maxInSlidingWindow / budget, 2),
      ratioToGatewayAllowance: round(maxInSlidingWindow / Math.floor(budget * 0.9), 2),
    };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(gateways.map((g) => g.stop()));
    await governance.child.stop();
    await redis?.close();
  }
}

/** The gateway's Redis link connects in the background; the burst starts once both are connected. */
export async function waitForRedis(gateway: Child): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (await gateway.request<boolean>('redis-ready')) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
