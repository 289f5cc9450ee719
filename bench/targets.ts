/** The targets, evaluated on the workload records; `--check` fails on any `fail`. */
import { PROMOTION_LIMITS_MB } from './garbage.js';
import type { WorkloadRecord } from './workloads.js';

export interface TargetResult {
  workload: string;
  target: string;
  value: number | string | null;
  limit: string;
  status: 'pass' | 'fail' | 'skipped';
  note?: string;
}

type Rec = WorkloadRecord & Record<string, any>;

export function evaluateTargets(records: WorkloadRecord[]): TargetResult[] {
  const byId = new Map(records.map((r) => [r.id, r as Rec]));
  const out: TargetResult[] = [];
  const check = (
    workload: string,
    target: string,
    limit: string,
    value: (r: Rec) => number | string | null,
    ok: (v: number | string | null, r: Rec) => boolean,
  ) => {
    const r = byId.get(workload);
    if (!r) return;
    if (r.skipped) {
      out.push({ workload, target, value: null, limit, status: 'skipped', note: String(r.skipped) });
      return;
    }
    const v = value(r);
    out.push({ workload, target, value: v, limit, status: ok(v, r) ? 'pass' : 'fail' });
  };
  const num = (v: number | string | null) => (typeof v === 'number' ? v : NaN);

  for (const id of ['1', '2', '3a', '3b', '4', '5'])
    check(
      id,
      'errors returned',
      '= 0',
      (r) => r.errors as number,
      (v) => v === 0,
    );
  for (const id of ['1', '2', '3a', '3b'])
    check(
      id,
      'upstream requests ÷ lower bound',
      '= 1.00',
      (r) => r.ratio as number,
      (v) => num(v) === 1,
    );
  // A time measured on runs that failed says nothing: those targets need error-free runs too.
  for (const id of ['1', '2'])
    check(
      id,
      'cold gateway CPU ÷ bare undici + JSON.parse floor',
      '≤ 2.0',
      (r) => r.floor?.gatewayCpuRatio ?? null,
      (v, r) => r.errors === 0 && num(v) <= 2,
    );
  // Wall times are held to a bare client's wall time for the same requests, level by level, against
  // the same emulator processes (the floor): latency, the emulators' own work and the wire are in both.
  check(
    '2',
    'p50 ÷ bare client’s wall p50 (same requests, level by level)',
    '≤ 1.5',
    (r) => r.floor?.p50RatioToWall ?? null,
    (v, r) => r.errors === 0 && num(v) <= 1.5,
  );
  check(
    '1',
    'p50 − bare client’s wall p50 (same requests, level by level), ms',
    '≤ 2 × cold CPU floor',
    (r) => r.floor?.p50MinusWallMs ?? null,
    (v, r) => r.errors === 0 && num(v) <= 2 * (r.floor?.cpuMsPerRun ?? 0),
  );
  check(
    '4',
    'gateway CPU per run, ms (warm)',
    '≤ 10',
    (r) => r.gateway?.cpuMsPerRun ?? null,
    (v, r) => r.errors === 0 && num(v) <= 10,
  );
  check(
    '3a',
    'p50 ms (all pages concurrently)',
    '≤ bare client’s wall p50 for the pages + gateway CPU ms per run',
    (r) => r.wallMs.p50,
    (_v, r) => r.errors === 0 && r.pageBudget.p50WithinLimit === true,
  );
  check(
    '4',
    'upstream requests (warm)',
    '= 0',
    (r) => r.upstreamRequests.total,
    (v, r) => r.errors === 0 && v === 0,
  );
  check(
    '5',
    'upstream requests ÷ storm-free requests',
    '≤ 1.30',
    (r) => r.ratioToStormFree,
    (v) => num(v) <= 1.3,
  );
  const upstreamDuring = (r: Rec) =>
    (r.upstreamRequestsDuringGatewayRun?.governance ?? 0) + (r.upstreamRequestsDuringGatewayRun?.calendar ?? 0);
  check(
    '6',
    'gateway req/s ÷ bare Yoga req/s (recorded)',
    'recorded; no errors, all warm',
    (r) => r.ratio,
    (_v, r) => r.errors === 0 && upstreamDuring(r) === 0,
  );
  const refusedCheaply = (r: Rec) =>
    Object.keys(r.refusals?.statuses ?? {}).every((s) => s === '413') && (r.refusals?.count ?? 0) > 0;
  check(
    '9',
    '{ __typename } p50 during 5 MB refusals ÷ alone (recorded)',
    'recorded; every 5 MB body refused, no errors',
    (r) => r.p50Ratio,
    (_v, r) => r.errors === 0 && refusedCheaply(r),
  );
  check(
    '7a',
    'one gateway: most requests in any sliding span ÷ budget',
    '≤ 1.00',
    (r) => r.ratio,
    (v, r) => r.upstreamRequests > 0 && num(v) <= 1,
  );
  check(
    '7',
    'two gateways: most requests in any sliding span ÷ budget',
    '≤ 1.00',
    (r) => r.ratio,
    (v, r) => r.upstreamRequests > 0 && num(v) <= 1,
  );
  check(
    '8',
    'upstream requests of three replicas ÷ lower bound of one',
    '≤ 1.20',
    (r) => r.ratio,
    (v, r) => r.errors === 0 && r.sameAnswers === true && num(v) <= 1.2,
  );
  check(
    '10',
    'timeout spread: p95 of (fired − 300 ms), ms',
    '≤ 50',
    (r) => r.lateMs.p95,
    (v) => num(v) <= 50,
  );
  check(
    '11',
    'gateway CPU per upstream request, largest size ÷ smallest (≥ 10× the requests)',
    '≤ 1.2',
    (r) => r.cpuPerRequestRatio,
    (v, r) => r.errors === 0 && num(r.requestSpan) >= num(r.minimumSpan) && num(v) <= 1.2,
  );
  check(
    '12',
    'response-cached throughput ÷ bare server returning the same bytes (lower of the two queries)',
    '≥ 0.15',
    (r) => r.cachedToBare,
    (v, r) => r.errors === 0 && num(v) >= 0.15,
  );
  check(
    '12a',
    'with authentication on (a bearer JWT per request): response-cached throughput ÷ bare server (lower of the two queries)',
    '≥ 0.3',
    (r) => r.cachedToBare,
    (v, r) => r.errors === 0 && num(v) >= 0.3,
  );
  check(
    '12b',
    'gateway CPU per hit, @graphql-yoga/plugin-response-cache ÷ the response cache before Yoga (lowest of four)',
    '≥ 3',
    (r) => r.pluginCpuToEdge,
    (v, r) => r.errors === 0 && num(v) >= 3,
  );
  check(
    '12',
    'response-cached throughput ÷ warm throughput without it (lower of the two queries)',
    '≥ 10',
    (r) => r.cachedToWarm,
    (v, r) => r.errors === 0 && num(v) >= 10,
  );
  for (const [key, limit] of Object.entries(PROMOTION_LIMITS_MB))
    check(
      '13',
      `MB promoted by young collections: ${key.replace(/Mb$/, '')}`,
      `< ${limit}`,
      (r) => r.promotedMb?.[key] ?? null,
      (v) => num(v) < limit,
    );
  // Workload 15, the replay: both runs (CACHE_REUSE off and on) error-free and within the freshness bound,
  // and reuse saving at least 35 % of the upstream calls.
  check(
    '15',
    'replay: errors (reuse off and on)',
    '= 0',
    (r) => r.errors,
    (v) => v === 0,
  );
  check(
    '15',
    'replay: answers older than the freshness bound (30 s + 1 s), reuse off and on',
    '= 0',
    (r) => r.olderThanBound,
    (v) => v === 0,
  );
  check(
    '15',
    'replay: upstream calls per 1,000 operations, reuse on ÷ off',
    '≤ 0.65',
    (r) => r.reuseOnToOff,
    (v, r) => r.errors === 0 && num(v) <= 0.65,
  );
  // Workload 16: a polite caller beside a greedy one waits about one pace more than alone, and is
  // served in full; the greedy one gets the rest of the account.
  check(
    '16',
    'fair share: polite p95 beside a greedy caller ÷ (its p95 alone + one pace)',
    '≤ 1.5',
    (r) => r.ratio,
    (v, r) => r.errors === 0 && r.polite.served === r.polite.sent && num(v) <= 1.5,
  );
  check(
    '16',
    'fair share: requests served ÷ what the account gives meanwhile',
    '≥ 0.8',
    (r) => r.servedShareOfCapacity,
    (v, r) => r.errors === 0 && num(v) >= 0.8 && r.greedy.rateLimited > 0,
  );
  // Workload 14: the calendar black-holed, one gateway (`14`) and two sharing Redis (`14a`). Waves 2 and 3
  // are held to the 50 ms (the chaos run, on cores it shares with all it starts, allows 1 s).
  // A failed workload has no waves: its targets then fail rather than throw.
  const later = (r: Rec) => ((r.waves ?? []) as Rec[]).slice(1, 3);
  for (const id of ['14', '14a']) {
    check(
      id,
      'calendar black-holed: wave 1 max ms',
      '≤ request deadline + 1 s',
      (r) => r.waves?.[0]?.maxMs ?? null,
      (v, r) => num(v) <= r.settings?.requestDeadlineMs + 1_000,
    );
    check(
      id,
      'calendar black-holed: waves 2 and 3, higher p50 ms',
      '≤ 50',
      (r) => (later(r).length === 2 ? Math.max(...later(r).map((w) => w.p50Ms)) : null),
      (v) => num(v) <= 50,
    );
    check(
      id,
      'calendar black-holed: waves 2 and 3, answers with UPSTREAM_UNAVAILABLE on calendar and governance data kept',
      '= every answer',
      (r) => later(r).reduce((a, w) => a + w.unavailableWithGovernance, 0),
      (v, r) => later(r).length === 2 && v === 2 * r.operationsPerWave,
    );
  }
  return out;
}
