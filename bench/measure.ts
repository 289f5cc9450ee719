/**
 * One measured series against a gateway process: per run, optionally clear the gateway's cache
 * (cold), clear the emulators' logs, send the operation over HTTP, then read what the emulators saw.
 * CPU time and peak RSS come from the gateway process itself, taken around the series.
 */
import { type GraphQLClient, percentile, round } from './client.js';
import { resourceKey, type UpstreamName } from './lower-bound.js';
import type { Child } from './processes.js';
import { countsOf, type Logs, type UpstreamCounts, type Upstreams } from './upstreams.js';

/** Unmeasured runs before a series, and replays before the floor is measured: the same for both. */
export const WARMUP_RUNS = 20;
/**
 * Unmeasured upstream requests before a series compared with the floor (as many runs as that takes,
 * at least `WARMUP_RUNS`, at most `MAX_WARMUP_RUNS`). V8 optimises a function after enough calls,
 * and the gateway's per-request code runs once per upstream request: at 23 requests a run, EventGraph
 * needs seven times as many runs as EntityGraph (166 a run) to reach the same state. After 20 runs,
 * EventGraph's measured runs still spent 8.7 ms a run on V8's helper threads (compiler and
 * collector; 2 ms after 144 runs), while the floor, whose one path workload 1 had warmed, did not.
 */
export const WARMUP_REQUESTS = 3_300;
export const MAX_WARMUP_RUNS = 200;

export interface Series {
  runs: number;
  errors: number;
  errorSample: string[];
  /** Data of the first measured run (to compare with the lower-bound walk). */
  firstData: unknown;
  /** When each route's requests of the first measured run reached the emulator. */
  firstTimeline: Record<string, RouteTimeline>;
  /** The resources the first measured run fetched, keyed as the lower-bound walker keys them. */
  firstResources: Record<UpstreamName, string[]>;
  /** What the emulators logged during the first measured run, for the bare-client floor. */
  firstLogs: Logs;
  /** Size of the first measured run's response body, in characters. */
  firstBytes: number;
  /** Unmeasured runs made first (the floor replays as many). */
  warmupRuns: number;
  times: number[];
  counts: UpstreamCounts[];
  /** What the gateway itself reported per run (its usage extension): a count kept apart from the emulators' logs. */
  gatewayCounts: Record<string, number>[];
  cpuMs: number;
  /** CPU of the process's other threads (V8's compiler and collector helpers); null off Linux. */
  helperThreadsCpuMs: number | null;
  peakRssMb: number | null;
  /** CPU of both emulator processes over the series (their answers to the log reads included). */
  emulatorsCpuMs: number;
}

export interface SeriesOptions {
  cold: boolean;
  runs: number;
  /** The series stops at this deadline even when fewer runs were made. */
  maxMs: number;
  /**
   * Unmeasured runs first (token, connections, V8's optimisation of the hot paths): a gateway serves
   * for days, and the first few operations of a fresh process say little about it (`WARMUP_RUNS`). Default 1.
   */
  warmup?: number;
  /** Warm up for at least this many upstream requests too (`WARMUP_REQUESTS`), within `MAX_WARMUP_RUNS`. */
  warmupRequests?: number;
}

export async function series(
  up: Upstreams,
  gateway: Child,
  client: GraphQLClient,
  query: string,
  variables: Record<string, unknown>,
  options: SeriesOptions,
): Promise<Series> {
  let warmupRuns = options.warmup ?? 1;
  for (let i = 0; i < warmupRuns; i++) {
    if (options.cold) await gateway.request('clear-cache');
    if (i === 0) await up.clearLogs();
    await client.run(query, variables);
    if (i === 0 && options.warmupRequests) {
      const first = await up.counts();
      const perRun = first.governance + first.calendar;
      // A first run that reached no upstream (it failed) says nothing: the series' errors will.
      if (perRun > 0)
        warmupRuns = Math.max(warmupRuns, Math.min(MAX_WARMUP_RUNS, Math.ceil(options.warmupRequests / perRun)));
    }
  }
  await gateway.request('reset-peak');
  const emulatorsCpu = async () =>
    (await Promise.all([up.governance.child.stats(), up.calendar.child.stats()])).reduce((a, s) => a + s.cpuMs, 0);
  const emulatorsBefore = await emulatorsCpu();
  const before = await gateway.stats();
  const out: Series = {
    runs: 0,
    errors: 0,
    errorSample: [],
    firstData: null,
    firstTimeline: {},
    firstResources: { governance: [], calendar: [] },
    firstLogs: { governance: [], calendar: [] },
    firstBytes: 0,
    warmupRuns,
    times: [],
    counts: [],
    gatewayCounts: [],
    cpuMs: 0,
    helperThreadsCpuMs: null,
    peakRssMb: null,
    emulatorsCpuMs: 0,
  };
  const deadline = performance.now() + options.maxMs;
  while (out.runs < options.runs && (out.runs === 0 || performance.now() < deadline)) {
    if (options.cold) await gateway.request('clear-cache');
    await up.clearLogs();
    const r = await client.run(query, variables);
    const logs = await up.logs();
    out.counts.push(countsOf(logs));
    out.gatewayCounts.push(r.gatewayRequests);
    out.times.push(r.ms);
    if (out.runs === 0) {
      out.firstData = r.data;
      out.firstTimeline = timeline(logs);
      out.firstResources = resources(logs);
      out.firstLogs = logs;
      out.firstBytes = r.bytes;
    }
    out.runs++;
    if (r.status !== 200 || r.errors.length > 0) {
      out.errors++;
      if (out.errorSample.length < 3)
        out.errorSample.push(
          `HTTP ${r.status}: ${r.errors
            .map((e) => `${e.extensions?.code ?? ''} ${e.message} @${(e.path ?? []).join('.')}`)
            .join(' | ')
            .slice(0, 300)}`,
        );
    }
  }
  const after = await gateway.stats();
  out.emulatorsCpuMs = (await emulatorsCpu()) - emulatorsBefore;
  out.cpuMs = after.cpuMs - before.cpuMs;
  if (after.mainThreadCpuMs !== null && before.mainThreadCpuMs !== null)
    out.helperThreadsCpuMs = Math.max(0, out.cpuMs - (after.mainThreadCpuMs - before.mainThreadCpuMs));
  out.peakRssMb = after.peakRssKb === null ? null : round(after.peakRssKb / 1024, 1);
  return out;
}

export const median = (xs: number[]) => percentile(xs, 50);

export function wall(times: number[]) {
  return {
    p50: round(percentile(times, 50), 1),
    p95: round(percentile(times, 95), 1),
    min: round(Math.min(...times), 1),
    max: round(Math.max(...times), 1),
  };
}

/** Median per upstream over the runs, and the spread of the per-run totals. */
export function requestsOf(s: Series) {
  const governance = median(s.counts.map((c) => c.governance));
  const calendar = median(s.counts.map((c) => c.calendar));
  const totals = s.counts.map((c) => c.governance + c.calendar);
  return {
    governance,
    calendar,
    total: governance + calendar,
    perRunMin: Math.min(...totals),
    perRunMax: Math.max(...totals),
    tokenRequests: s.counts.reduce((a, c) => a + c.token, 0),
    /** The same medians as the gateway reported them (token requests included, as the gateway counts them). */
    gatewayReported: {
      governance: median(s.gatewayCounts.map((c) => c.governance ?? 0)),
      calendar: median(s.gatewayCounts.map((c) => c.calendar ?? 0)),
    },
    rejected429: s.counts.reduce((a, c) => a + c.rejected429, 0),
  };
}

export interface RouteTimeline {
  count: number;
  /** Arrival of the route's first and last request, ms after the upstream's first request of the run. */
  firstMs: number;
  lastMs: number;
  /** (last − first) ÷ (count − 1): how far apart requests of one level leave when nothing holds them back but the gateway. */
  msApart: number | null;
}

/**
 * Per upstream and route, when the requests arrived: a level of the query that the gateway sends in
 * one go arrives within a few ms; one held back by a concurrency cap arrives in waves a latency apart.
 */
function timeline(logs: Logs): Record<string, RouteTimeline> {
  const out: Record<string, RouteTimeline> = {};
  for (const name of ['governance', 'calendar'] as const) {
    const log = logs[name];
    if (log.length === 0) continue;
    const t0 = Math.min(...log.map((r) => r.at));
    for (const r of log) {
      // Requests answered by an injected fault never reached a route: group them by fault.
      const route = r.fault
        ? `${r.method} (answered by injected ${r.fault})`
        : r.route === 'unmatched'
          ? `${r.method} ${r.path}`
          : r.route;
      const key = `${name} ${route}`;
      const t = out[key] ?? (out[key] = { count: 0, firstMs: Infinity, lastMs: 0, msApart: null });
      t.count++;
      t.firstMs = Math.min(t.firstMs, r.at - t0);
      t.lastMs = Math.max(t.lastMs, r.at - t0);
    }
  }
  for (const t of Object.values(out)) t.msApart = t.count > 1 ? round((t.lastMs - t.firstMs) / (t.count - 1), 2) : null;
  return out;
}

function resources(logs: Logs): Record<UpstreamName, string[]> {
  const keys = (upstream: UpstreamName) =>
    logs[upstream]
      .filter((r) => !r.path.includes('/oauth/token'))
      .map((r) => resourceKey(upstream, r.method, r.path, Object.fromEntries(new URLSearchParams(r.query))));
  return { governance: keys('governance'), calendar: keys('calendar') };
}

/** What the gateway fetched beyond the walked resources, and what it did not fetch (first few of each). */
export function compareResources(fetched: Record<UpstreamName, string[]>, walked: Record<UpstreamName, string[]>) {
  const all = (r: Record<UpstreamName, string[]>) => [
    ...r.governance.map((k) => `governance ${k}`),
    ...r.calendar.map((k) => `calendar ${k}`),
  ];
  const f = all(fetched);
  const w = new Set(all(walked));
  const seen = new Set<string>();
  const duplicates = f.filter((k) => (seen.has(k) ? true : (seen.add(k), false)));
  const extra = [...seen].filter((k) => !w.has(k));
  const missing = [...w].filter((k) => !seen.has(k));
  return {
    same: extra.length === 0 && missing.length === 0 && duplicates.length === 0,
    extra: extra.slice(0, 5),
    missing: missing.slice(0, 5),
    duplicates: duplicates.slice(0, 5),
  };
}
