/**
 * Workloads 1–5 (6, 7 and 8 live in throughput.ts, replicas.ts and shared-cache.ts). Each returns one record of the JSON
 * document: what the emulators saw, the lower bound walked from their data, wall-clock percentiles,
 * the critical path and the gateway process's own CPU time and peak RSS.
 */
import { GraphQLClient, round } from './client.js';
import { entityGraphBound, eventGraphBound, fanOutBound, type LowerBound, type UpstreamName } from './lower-bound.js';
import { compareResources, requestsOf, series, wall, WARMUP_REQUESTS, WARMUP_RUNS, type Series } from './measure.js';
import { startChild, type Child } from './processes.js';
import { ENTITY_GRAPH, EVENT_GRAPH, FAN_OUT_ENTITIES, FAN_OUT_EVENTS, topIds } from './queries.js';
import { replayable, type Upstreams } from './upstreams.js';

export interface BenchOptions {
  latencyMs: number;
  /** Cold runs per workload (each stops earlier at `maxSeriesMs`). */
  runs: number;
  maxSeriesMs: number;
  systems: number;
  events: number;
  fanOutEntities: number;
  fanOutEvents: number;
  stormRuns: number;
  throughputSeconds: number;
  concurrency: number;
  /** No workload starts after this much time (the bench must finish within five minutes). */
  maxTotalMs: number;
  quick: boolean;
}

export interface Ctx {
  /** The gateway's concurrency cap per upstream (from its configuration). */
  caps: Record<UpstreamName, number>;
  up: Upstreams;
  gateway: Child;
  /** The bare undici + JSON.parse client (floor-process.ts). */
  floor: Child;
  client: GraphQLClient;
  options: BenchOptions;
}

export type WorkloadRecord = Record<string, unknown> & { id: string; name: string };

function record(id: string, name: string, ctx: Ctx, s: Series, bound: LowerBound | null) {
  const requests = requestsOf(s);
  const times = wall(s.times);
  const boundTotal = bound ? bound.requests.governance + bound.requests.calendar : null;
  const criticalMs = bound ? bound.depth * ctx.options.latencyMs : null;
  return {
    id,
    name,
    runs: s.runs,
    errors: s.errors,
    ...(s.errorSample.length ? { errorSample: s.errorSample } : {}),
    upstreamRequests: requests,
    lowerBound: bound ? { ...bound.requests, total: boundTotal, levels: bound.levels } : null,
    ratio: boundTotal ? round(requests.total / boundTotal, 2) : null,
    wallMs: times,
    criticalPath:
      bound && criticalMs
        ? {
            depth: bound.depth,
            latencyMs: ctx.options.latencyMs,
            ms: criticalMs,
            p50Ratio: round(times.p50 / criticalMs, 2),
            withConcurrencyCaps: capped(bound, ctx),
          }
        : null,
    gateway: {
      cpuMs: round(s.cpuMs, 1),
      cpuMsPerRun: round(s.cpuMs / Math.max(1, s.runs), 1),
      // Of which V8's helper threads (compiling, collecting): the main thread's share is the rest.
      helperThreadsCpuMsPerRun:
        s.helperThreadsCpuMs === null ? null : round(s.helperThreadsCpuMs / Math.max(1, s.runs), 1),
      peakRssMb: s.peakRssMb,
    },
    emulatorsCpuMsPerRun: round(s.emulatorsCpuMs / Math.max(1, s.runs), 1),
    upstreamTimeline: s.firstTimeline,
    ...(bound?.topIds.length ? { sameRecordsAsWalk: sameIds(topIds(s.firstData), bound.topIds) } : {}),
    ...(bound ? { resourcesVsWalk: compareResources(s.firstResources, bound.resources) } : {}),
  };
}

/**
 * For reading the figure: the same levels when each upstream serves at most its configured number of
 * requests at once (a level of n calls then takes ceil(n / cap) latencies).
 */
function capped(bound: LowerBound, ctx: Ctx) {
  const depth = Math.max(bound.levels.governance.length, bound.levels.calendar.length);
  let waves = 0;
  for (let level = 0; level < depth; level++) {
    const perUpstream = (['governance', 'calendar'] as const).map((u) =>
      Math.ceil((bound.levels[u][level] ?? 0) / ctx.caps[u]),
    );
    waves += Math.max(...perUpstream);
  }
  return { caps: ctx.caps, latencies: waves, ms: waves * ctx.options.latencyMs };
}

const sameIds = (a: string[], b: string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/**
 * The cold floor: the same upstream requests sent again by a bare client (undici + JSON.parse), in
 * its own process, against the same emulator processes, level after level (floor-process.ts); the
 * gateway's CPU per run is compared with its CPU, the gateway's wall time with its wall time.
 */
export async function cpuFloor(ctx: Ctx, s: Series, bound: LowerBound, gatewayCpuMsPerRun: number) {
  const { up } = ctx;
  const replay = await ctx.floor.request<{
    cpuMsPerReplay: number;
    helperThreadsCpuMsPerReplay: number | null;
    requestsPerReplay: number;
    wallMsP50: number;
  }>('replay', {
    requests: replayable(up, s.firstLogs, bound),
    caps: ctx.caps,
    // As many replays as the gateway's measured runs, after as many as its warm-up runs: both
    // processes are still settling then, so the two counts must match. Fewer than 30 moved the
    // floor 2× between runs (a GC more or less).
    repeats: s.runs,
    warmup: s.warmupRuns,
    token: { url: up.access.tokenUrl, clientId: up.access.clientId, clientSecret: up.access.clientSecret },
  });
  return {
    formula: 'a bare undici + JSON.parse client sending the run’s upstream requests, level by level',
    requests: replay.requestsPerReplay,
    replays: s.runs,
    warmupReplays: s.warmupRuns,
    cpuMsPerRun: round(replay.cpuMsPerReplay, 1),
    helperThreadsCpuMsPerRun:
      replay.helperThreadsCpuMsPerReplay === null ? null : round(replay.helperThreadsCpuMsPerReplay, 1),
    // Each level's requests at once within the caps: what the emulators (latency and their own
    // work, each in its own process) and the wire take at the least.
    wallMsP50: round(replay.wallMsP50, 1),
    cpuMsPerRequest: round(replay.cpuMsPerReplay / Math.max(1, replay.requestsPerReplay), 3),
    gatewayCpuRatio: round(gatewayCpuMsPerRun / Math.max(0.001, replay.cpuMsPerReplay), 2),
  };
}

/** Warm-up runs before a measured series: one in the smoke test's tiny mode. */
export const warmupOf = (options: BenchOptions) => (options.quick ? 1 : WARMUP_RUNS);
/** Warm-up requests before a series compared with the floor (see `WARMUP_REQUESTS`); none in tiny mode. */
const warmupRequestsOf = (options: BenchOptions) => (options.quick ? undefined : WARMUP_REQUESTS);

/**
 * Cold records also carry the floor, and how far p50 is from the floor's wall time (the gateway's
 * own share of the wall) and from the latencies alone with caps (an upstream that takes no time).
 */
async function coldRecord(id: string, name: string, ctx: Ctx, s: Series, bound: LowerBound) {
  const r = record(id, name, ctx, s, bound);
  const floor = await cpuFloor(ctx, s, bound, r.gateway.cpuMsPerRun);
  const capsMs = r.criticalPath?.withConcurrencyCaps.ms ?? null;
  return {
    ...r,
    criticalPath: r.criticalPath && {
      ...r.criticalPath,
      p50RatioWithCaps: capsMs ? round(r.wallMs.p50 / capsMs, 2) : null,
      p50MinusWithCapsMs: capsMs ? round(r.wallMs.p50 - capsMs, 1) : null,
    },
    floor: {
      ...floor,
      p50RatioToWall: round(r.wallMs.p50 / Math.max(0.001, floor.wallMsP50), 2),
      p50MinusWallMs: round(r.wallMs.p50 - floor.wallMsP50, 1),
    },
  };
}

/** Workload 1: EntityGraph, cold. */
export async function entityGraphCold(ctx: Ctx): Promise<WorkloadRecord> {
  const { up, options } = ctx;
  const bound = await up.withoutLatency(() => entityGraphBound(up.access, options.systems, 10));
  await up.clearLogs();
  const s = await series(
    up,
    ctx.gateway,
    ctx.client,
    ENTITY_GRAPH,
    { first: options.systems },
    {
      cold: true,
      runs: options.runs,
      maxMs: options.maxSeriesMs,
      warmup: warmupOf(options),
      warmupRequests: warmupRequestsOf(options),
    },
  );
  return coldRecord('1', `EntityGraph(first: ${options.systems}), cold`, ctx, s, bound);
}

/** Workload 2: EventGraph, cold. */
export async function eventGraphCold(ctx: Ctx): Promise<WorkloadRecord> {
  const { up, options } = ctx;
  const bound = await up.withoutLatency(() => eventGraphBound(up.calendar.apiRoot, options.events, 3));
  await up.clearLogs();
  const s = await series(
    up,
    ctx.gateway,
    ctx.client,
    EVENT_GRAPH,
    { first: options.events },
    {
      cold: true,
      runs: options.runs,
      maxMs: options.maxSeriesMs,
      warmup: warmupOf(options),
      warmupRequests: warmupRequestsOf(options),
    },
  );
  return coldRecord('2', `EventGraph(first: ${options.events}), cold`, ctx, s, bound);
}

/** Workload 3: one large list each, cold; pages do not depend on one another. */
export async function fanOut(ctx: Ctx): Promise<WorkloadRecord[]> {
  const { up, options } = ctx;
  const bound = await up.withoutLatency(() =>
    fanOutBound(up.access, up.calendar.apiRoot, options.fanOutEntities, options.fanOutEvents),
  );
  await up.clearLogs();
  const out: WorkloadRecord[] = [];
  const parts = [
    {
      id: '3a',
      field: 'entities',
      query: FAN_OUT_ENTITIES,
      first: options.fanOutEntities,
      upstream: 'governance' as const,
    },
    { id: '3b', field: 'events', query: FAN_OUT_EVENTS, first: options.fanOutEvents, upstream: 'calendar' as const },
  ];
  for (const part of parts) {
    const s = await series(
      up,
      ctx.gateway,
      ctx.client,
      part.query,
      { first: part.first },
      { cold: true, runs: options.runs, maxMs: options.maxSeriesMs, warmup: warmupOf(options) },
    );
    const only: LowerBound = {
      requests: {
        governance: part.upstream === 'governance' ? bound.requests.governance : 0,
        calendar: part.upstream === 'calendar' ? bound.requests.calendar : 0,
      },
      depth: 1,
      levels: {
        governance: part.upstream === 'governance' ? bound.levels.governance : [],
        calendar: part.upstream === 'calendar' ? bound.levels.calendar : [],
      },
      resources: {
        governance: part.upstream === 'governance' ? bound.resources.governance : [],
        calendar: part.upstream === 'calendar' ? bound.resources.calendar : [],
      },
      topIds: [],
    };
    const r = record(part.id, `${part.field}(first: ${part.first}), cold, pages concurrently`, ctx, s, only);
    const floor = await cpuFloor(ctx, s, only, r.gateway.cpuMsPerRun);
    const items = (s.firstData as Record<string, { nodes?: unknown[] }> | null)?.[part.field]?.nodes?.length ?? 0;
    // Target: all pages in the time a bare client takes for them (latency waves within the cap and
    // the emulator's own work) plus the gateway's own (CPU) time.
    const limitMs = round(floor.wallMsP50 + r.gateway.cpuMsPerRun, 1);
    out.push({
      ...r,
      items,
      floor,
      pageBudget: {
        limitMs,
        formula: 'bare client’s wall p50 for the same pages + gateway CPU ms per run',
        twoLatenciesMs: 2 * options.latencyMs,
        p50WithinLimit: r.wallMs.p50 <= limitMs,
      },
    });
  }
  return out;
}

/** Workload 4: workload 1 again within the cache TTL: the cache must answer everything. */
export async function warm(ctx: Ctx): Promise<WorkloadRecord> {
  const { up, options } = ctx;
  // Start empty, so the warm-up run writes every entry now and none expires during the series.
  await ctx.gateway.request('clear-cache');
  const s = await series(
    up,
    ctx.gateway,
    ctx.client,
    ENTITY_GRAPH,
    { first: options.systems },
    { cold: false, runs: options.runs, maxMs: options.maxSeriesMs, warmup: warmupOf(options) },
  );
  const r = record('4', `EntityGraph(first: ${options.systems}), warm (within cache TTL)`, ctx, s, null);
  return { ...r, lowerBound: { governance: 0, calendar: 0, total: 0 } };
}

/**
 * Workload 5: EntityGraph while the governance emulator answers every fifth request 429,
 * Retry-After: 1. After each pause the gateway sends one probe and then widens (the ramp), so an
 * upstream that keeps refusing every fifth request holds it to a few requests a second: a run takes
 * tens of seconds, past the default 20 s operation deadline. The figure here is the traffic the
 * storm adds, so this workload runs its own gateway with deadlines long enough to finish (a
 * client that waits), on a smaller graph, and compares with the same graph's storm-free count.
 */
export async function storm(ctx: Ctx): Promise<WorkloadRecord> {
  const { up, options } = ctx;
  const systems = options.quick ? 3 : 10;
  const gateway = await startChild(
    'gateway-process.ts',
    up.gatewayEnv({
      GATEWAY_OPERATION_DEADLINE_MS: '180000',
      UPSTREAM_QUEUE_DEADLINE_MS: '180000',
      BENCH_PATIENT: '1',
    }),
  );
  const client = new GraphQLClient(gateway.url, 4);
  try {
    const stormCtx = { ...ctx, gateway, client };
    const free = await series(
      up,
      gateway,
      client,
      ENTITY_GRAPH,
      { first: systems },
      { cold: true, runs: 1, maxMs: 60_000 },
    );
    const stormFree = requestsOf(free).total;
    await up.governance.setFaults([{ kind: 'rate-limit', every: 5, retryAfter: 1 }]);
    const s = await series(
      up,
      gateway,
      client,
      ENTITY_GRAPH,
      { first: systems },
      { cold: true, runs: options.stormRuns, maxMs: options.maxSeriesMs * 6, warmup: 0 },
    );
    const r = record(
      '5',
      `EntityGraph(first: ${systems}), cold, every 5th governance request answered 429 (Retry-After: 1), deadlines 180 s`,
      stormCtx,
      s,
      null,
    );
    return { ...r, stormFreeRequests: stormFree, ratioToStormFree: round(r.upstreamRequests.total / stormFree, 2) };
  } finally {
    await up.governance.setFaults([]);
    await client.close();
    await gateway.stop();
  }
}
