/**
 * The chaos run's guarantees, checked after the run from the callers' records and the emulators' own
 * request logs (never from what the gateway says of itself). Each check returns its figures and the
 * violations it found; `npm run chaos` exits non-zero naming every invariant with one.
 */
import type { LoggedRequest } from '../../src/emulators/kit/control.js';
import { busiestSpan } from '../../bench/spans.js';
import type { MemorySample as Sample, Signalled } from './world.js';

/** One operation as a caller saw it. */
export interface Outcome {
  caller: string;
  replica: number;
  op: string;
  /** Epoch ms. */
  startedAt: number;
  ms: number;
  status?: number;
  /** `extensions.code` of each error. */
  codes: string[];
  /** The request got no HTTP answer (refused, reset, client timeout). */
  transport?: string;
  /** Calendar records answered from an expired cache entry (`extensions.cost.calendar.staleHits`). */
  calendarStale?: number;
  /** Writes: the unique name sent, and the id acknowledged. */
  write?: { upstream: 'governance' | 'calendar'; name: string; id?: string };
  /** Stale probes: the calendar path of the record read. */
  path?: string;
  /** The replica was not serving (draining, stopped) when the request went, or when it failed. */
  replicaDown?: boolean;
}

export interface Check {
  ok: boolean;
  violations: string[];
  [figure: string]: unknown;
}

const verdict = (violations: string[], figures: Record<string, unknown>): Check => ({
  ok: violations.length === 0,
  violations: violations.slice(0, 10),
  ...(violations.length > 10 ? { moreViolations: violations.length - 10 } : {}),
  ...figures,
});

/**
 * No span of any rule's length holds more governance requests than the account allows. A breach
 * names when its busiest span began (seconds from `startedAt`, epoch ms) and what was in it.
 */
export function budget(log: LoggedRequest[], rules: { limit: number; windowMs: number }[], startedAt: number): Check {
  const arrivals = log.map((r) => r.receivedAt);
  const perRule = rules.map(({ limit, windowMs }) => ({ limit, windowMs, ...busiestSpan(arrivals, windowMs) }));
  const violations = perRule
    .filter((r) => r.count > r.limit)
    .map((r) => {
      const mix: Record<string, number> = {};
      for (const x of log.filter((x) => x.receivedAt >= r.from && x.receivedAt < r.from + r.windowMs)) {
        const key = `${x.route} ${x.fault ?? x.status}`;
        mix[key] = (mix[key] ?? 0) + 1;
      }
      return `${r.count} governance requests within ${r.windowMs} ms from ${secondsFrom(startedAt, r.from)} s, the account allows ${r.limit} (${JSON.stringify(mix)})`;
    });
  const figures = perRule.map(({ limit, windowMs, count, from }) => ({
    limit,
    windowMs,
    maxInSpan: count,
    fromSecond: secondsFrom(startedAt, from),
  }));
  return verdict(violations, { requests: arrivals.length, rules: figures });
}

/** Seconds from `startedAt` to `at` (epoch ms), to a tenth. */
const secondsFrom = (startedAt: number, at: number) => Math.round((at - startedAt) / 100) / 10;

/** Answers that say a write may or may not have been applied (upstream answer lost; cut off by a drain). */
const UNKNOWN = new Set(['UPSTREAM_OUTCOME_UNKNOWN', 'OUTCOME_UNKNOWN']);

/** The unique name a create carried, from the emulator's logged JSON body. */
function nameOf(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    return (JSON.parse(body) as { name?: string }).name;
  } catch {
    return /"name"\s*:\s*"([^"]+)"/.exec(body)?.[1];
  }
}

/**
 * Every acknowledged write applied exactly once; none applied that its caller was told failed,
 * unless the answer said its outcome was unknown (or no answer came).
 */
export function writes(outcomes: Outcome[], applied: Record<'governance' | 'calendar', LoggedRequest[]>): Check {
  const count = new Map<string, number>();
  for (const log of Object.values(applied))
    for (const r of log) {
      const name = nameOf(r.body);
      if (name && r.status >= 200 && r.status < 300) count.set(name, (count.get(name) ?? 0) + 1);
    }
  const violations: string[] = [];
  const tally = { acknowledged: 0, failed: 0, unknown: 0, unknownApplied: 0 };
  const sent = new Set<string>();
  for (const o of outcomes) {
    if (!o.write) continue;
    const { name } = o.write;
    sent.add(name);
    const n = count.get(name) ?? 0;
    if (n > 1) violations.push(`${o.op} "${name}" applied ${n} times`);
    if (o.write.id !== undefined) {
      tally.acknowledged++;
      if (n === 0) violations.push(`${o.op} "${name}" acknowledged (id ${o.write.id}) but not applied`);
    } else if (o.transport !== undefined || o.codes.some((c) => UNKNOWN.has(c))) {
      tally.unknown++;
      tally.unknownApplied += n;
    } else {
      tally.failed++;
      if (n > 0) violations.push(`${o.op} "${name}" failed (${o.codes.join(', ')}) yet was applied`);
    }
  }
  for (const name of count.keys()) if (!sent.has(name)) violations.push(`"${name}" applied but never sent`);
  return verdict(violations, tally);
}

/** Every operation answered within the operation deadline plus one second: no hang. */
export function deadlines(outcomes: Outcome[], boundMs: number): Check {
  const late = outcomes.filter((o) => o.ms > boundMs);
  const max = Math.round(Math.max(0, ...outcomes.map((o) => o.ms)));
  return verdict(
    late.map((o) => `${o.op} at replica ${o.replica} took ${Math.round(o.ms)} ms (bound ${boundMs} ms)`),
    { boundMs, maxMs: max, operations: outcomes.length },
  );
}

/**
 * Reads whose answer may hold the record at `path`: its own, and, since records inside other
 * answers are kept as their own (docs/caching.md, records, not requests), every list and event read,
 * which embed venues and organizers. The latest of them is the newest the record can be.
 */
const HOLDERS = /^GET \/(events|venues|organizers)$|^GET \/events\/(:id|by-slug)/;
const mayHold = (r: LoggedRequest, path: string) => r.path === path || HOLDERS.test(r.route);

/**
 * A stale answer comes from a read the upstream served within the record's TTL plus the max
 * staleness before the answer arrived (1 s of slack for the upstream's latency and the clocks).
 */
export function staleness(outcomes: Outcome[], calendarLog: LoggedRequest[], maxAgeMs: number, outage: boolean): Check {
  const served = calendarLog.filter((r) => r.method === 'GET' && r.status === 200);
  const stale = outcomes.filter((o) => o.path && (o.calendarStale ?? 0) > 0);
  const violations: string[] = [];
  let oldestMs = 0;
  for (const o of stale) {
    const answeredAt = o.startedAt + o.ms;
    const before = served.filter((r) => r.receivedAt <= answeredAt && mayHold(r, o.path!)).map((r) => r.receivedAt);
    const age = before.length ? answeredAt - Math.max(...before) : Infinity;
    oldestMs = Math.max(oldestMs, age);
    if (age > maxAgeMs + 1_000) violations.push(`${o.path} answered stale ${Math.round(age)} ms after its last read`);
  }
  // The outage outlasts the max staleness: cached records must have been served stale meanwhile.
  if (outage && stale.length === 0) violations.push('no stale answer while the calendar was down');
  return verdict(violations, {
    staleAnswers: stale.length,
    oldestStaleMs: Number.isFinite(oldestMs) ? Math.round(oldestMs) : null,
    maxAgeMs,
  });
}

/**
 * No request dropped: every request got an HTTP answer, except a refused connection at a replica
 * that was stopped and any request at the replica killed with SIGKILL; one in flight when its
 * replica got SIGTERM was answered (drained), not cut. Each SIGTERM must have met at least one
 * request in flight that the drain then let finish (an answer other than 503): a drain with nothing
 * to drain proves nothing.
 */
export function drain(outcomes: Outcome[], sigterms: Signalled[], kills: Signalled[]): Check {
  const refusedWhileDown = outcomes.filter((o) => o.transport === 'ECONNREFUSED' && o.replicaDown).length;
  // In flight at the kill, or sent before the killed replica was serving again.
  const atKilled = (o: Outcome) =>
    kills.some((k) => k.replica === o.replica && o.startedAt + o.ms >= k.at && o.startedAt <= (k.backAt ?? Infinity));
  const cutByKill = outcomes.filter((o) => o.transport !== undefined && atKilled(o)).length;
  const dropped = outcomes.filter(
    (o) => o.transport !== undefined && !atKilled(o) && !(o.transport === 'ECONNREFUSED' && o.replicaDown),
  );
  const violations = dropped.map((o) => `${o.op} at replica ${o.replica}: no answer (${o.transport})`);
  const perSigterm = sigterms.map((t) => {
    const inFlight = outcomes.filter((o) => o.replica === t.replica && o.startedAt < t.at && o.startedAt + o.ms > t.at);
    const finished = inFlight.filter((o) => o.status !== undefined && o.status !== 503).length;
    if (finished === 0)
      violations.push(
        `replica ${t.replica} got SIGTERM with no request in flight that it then finished (${inFlight.length} in flight): the drain was not put to the test`,
      );
    return { replica: t.replica, inFlight: inFlight.length, finished };
  });
  return verdict(violations, {
    // Requests in flight at a replica when it got SIGTERM: each must have been answered.
    inFlightAtSigterm: perSigterm.reduce((n, s) => n + s.inFlight, 0),
    sigterms: perSigterm,
    refusedWhileDown,
    cutByKill,
    shuttingDown: outcomes.filter((o) => o.status === 503).length,
  });
}

/**
 * No replica exited unasked (an unhandled rejection or exception ends a Node process) or logged a
 * line at `error` (what the gateway logs for an unexpected error); the SIGKILLs are the run's own.
 */
export function noCrash(
  replicas: { index: number; crashes: string[]; errorLines: string[] }[],
  kills: { replica: number }[],
): Check {
  const violations = replicas.flatMap((r) => [
    ...r.crashes.map((c) => `replica ${r.index} ${c}`),
    ...r.errorLines.map((line) => `replica ${r.index} logged at error: ${line}`),
  ]);
  return verdict(violations, { killsOnPurpose: kills.length });
}

/** A replica process's first `WARM_MS` are its warm-up: code compiled, pools and caches filled. */
const WARM_MS = 20_000;
/** After warm-up, a process's live heap may not settle above its warm level by more than this share… */
const GROWTH_SHARE = 0.25;
/** …plus this much (the caches' bounded fill). */
const GROWTH_BYTES = 32 * 2 ** 20;
/** Only processes that ran this long past their warm-up are judged. */
const JUDGED_AFTER_MS = 30_000;

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** The lowest live heap of the samples in [from, to) ms: the level under the caches' churn. */
const floorOf = (samples: Sample[], from: number, to = Infinity) =>
  Math.min(...samples.filter((s) => s.ms >= from && s.ms < to && s.liveBytes).map((s) => s.liveBytes!));

/**
 * Memory flat after warm-up: for each replica process that ran long enough, its live heap (after a
 * full collection, live-heap.ts) over its last 10 s (the lowest reading there) stays within its
 * level at the end of warm-up (the lowest reading of the warm-up's last 10 s) plus `GROWTH_SHARE`
 * and `GROWTH_BYTES`. The live heap, not the resident set: V8 grows its heap long before it
 * collects, so the set rises under load with nothing retained. The resident set is reported.
 * `required`: a run with faults must judge at least one process.
 */
export function memory(processes: { replica: number; pid: number; samples: Sample[] }[], required: boolean): Check {
  const violations: string[] = [];
  const judged = processes
    .filter((p) => (p.samples.at(-1)?.ms ?? 0) >= WARM_MS + JUDGED_AFTER_MS)
    .map((p) => {
      const ranMs = p.samples.at(-1)!.ms;
      const warm = floorOf(p.samples, WARM_MS - 10_000, WARM_MS);
      const end = floorOf(p.samples, ranMs - 10_000);
      const bound = warm * (1 + GROWTH_SHARE) + GROWTH_BYTES;
      if (!Number.isFinite(warm) || !Number.isFinite(end))
        violations.push(`replica ${p.replica} (pid ${p.pid}): no live heap read in its warm-up's or its last 10 s`);
      else if (end > bound)
        violations.push(
          `replica ${p.replica} (pid ${p.pid}) ended with ${mb(end)} MB live (after warm-up ${mb(warm)} MB, bound ${mb(bound)} MB)`,
        );
      return {
        replica: p.replica,
        pid: p.pid,
        ranMs,
        // Every fifth sample (10 s apart), MB: the shape of the curves.
        rssEveryTenSecondsMb: p.samples.filter((_, i) => i % 5 === 0).map((x) => mb(x.rssBytes)),
        liveMb: p.samples.filter((x) => x.liveBytes).map((x) => mb(x.liveBytes!)),
        warmMb: mb(warm),
        endMb: mb(end),
        boundMb: mb(bound),
      };
    });
  if (required && judged.length === 0)
    violations.push('no replica process ran long enough past its warm-up to be judged');
  return verdict(violations, { processes: judged });
}

/**
 * Healthy again after the last fault: every serving replica answered a read of both upstreams
 * without an error within `boundMs` of the moment the last fault was lifted.
 */
export function recovery(recoveredMs: number | undefined, boundMs: number): Check {
  const violations =
    recoveredMs === undefined || recoveredMs > boundMs
      ? [`no healthy answer from every replica within ${boundMs} ms of the last fault's end`]
      : [];
  return verdict(violations, { recoveredMs: recoveredMs ?? null, boundMs });
}

export const p50 = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0);
};
