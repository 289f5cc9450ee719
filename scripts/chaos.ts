/**
 * `npm run chaos`: two gateway replicas as production runs them, a Redis of the run's own and both
 * emulators (with latency), driven by several callers (reads and writes on both upstreams, a stale
 * probe) while faults rotate (scripts/chaos/schedule.ts): the calendar black-holed and back, Redis
 * killed and restarted empty, 503 bursts, resets, slow bodies, a 429 storm, a replica drained with
 * SIGTERM and one killed with SIGKILL, each started again. After the last fault, every replica must
 * answer a read of both upstreams without an error within `RECOVERY_MS`. Then every
 * guarantee is checked from the emulators' own logs and the callers' records (scripts/chaos/checks.ts)
 * and one JSON report goes to stdout. Exits 1 naming each invariant broken.
 *
 *   npm run chaos                    # 5 minutes (three cycles of faults)
 *   npm run chaos -- --profile ci    # 60 seconds (one cycle)
 *
 * `--break budget` (the failure path's test) has the governance emulator enforce a third of the account
 * the gateways are told: the budget invariant must then fail.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/config.js';
import { buildWorkload } from '../test/support/load-workload.js';
import { Callers } from './chaos/callers.js';
import * as check from './chaos/checks.js';
import { CYCLE_SECONDS, runSchedule } from './chaos/schedule.js';
import type { Episode } from './chaos/waves.js';
import { World, type Rule } from './chaos/world.js';

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'default' },
    break: { type: 'string' },
    callers: { type: 'string', default: '6' },
    // Every operation as its caller saw it and both emulators' request logs, as JSON (for a closer look at a failed run).
    records: { type: 'string' },
  },
});
/** Cycles of faults, `every` seconds apart; callers run for `seconds` at least. */
const PROFILES: Record<string, { cycles: number; every: number; seconds: number }> = {
  default: { cycles: 3, every: 100, seconds: 300 },
  ci: { cycles: 1, every: CYCLE_SECONDS, seconds: CYCLE_SECONDS },
  // No faults, 20 s: the failure path's test (`--break`) needs no more.
  quiet: { cycles: 0, every: 0, seconds: 20 },
};
const profile = PROFILES[values.profile];
if (!profile) throw new Error(`--profile: one of ${Object.keys(PROFILES).join(', ')}`);
const faulted = profile.cycles > 0;
if (values.break !== undefined && values.break !== 'budget') throw new Error('--break: only `budget`');

/** The governance account, scaled down so the callers press on it: a short rule and a longer one. */
const ACCOUNT: [Rule, Rule] = [
  { limit: 40, windowMs: 1_000 },
  { limit: 500, windowMs: 20_000 },
];
const ENV = {
  CACHE_TTL_MS: '2000',
  // Longer than the request deadline (a stalled read fails only then), shorter than a black-hole.
  CACHE_MAX_STALE_MS: '15000',
  // Entity types change rarely (docs/settings.md's own example): the waves' governance field stays cached.
  CACHE_TTL_BY_KIND: 'entityTypes:600000',
  // The callers are one anonymous caller to the gateways, which must press on the whole account: no
  // cap on its share (a quarter by default; the caps have tests of their own, test/fair-caps.test.ts).
  FAIR_SHARE: '*:share=100%',
};
/**
 * After the last fault is lifted, every replica answers healthily within this: a breaker's open
 * period (5 s), a probe that may meet the request deadline (10 s), and a replica's start after its
 * SIGKILL, with room for a busy machine.
 */
const RECOVERY_MS = 30_000;
const defaults = loadConfig({ NODE_ENV: 'test', ...ENV });
const { requestDeadlineMs, operationDeadlineMs } = defaults.traffic;
const log = (line: string) => process.stderr.write(`chaos: ${line}\n`);
const t0 = performance.now();
const timeline: string[] = [];
const note = (what: string) => {
  const line = `${((performance.now() - t0) / 1000).toFixed(1)} s: ${what}`;
  timeline.push(line);
  log(line);
};

// Broken: the upstream enforces a third of what the gateways are told, so even callers slowed by a
// busy machine press past it (the gateways' figures as usual, the emulator's cut).
const enforced =
  values.break === 'budget'
    ? (ACCOUNT.map((r) => ({ ...r, limit: Math.floor(r.limit / 3) })) as [Rule, Rule])
    : ACCOUNT;
const world = await World.start({
  replicas: 2,
  account: enforced,
  gatewayAccount: ACCOUNT,
  env: ENV,
  log,
});
note(
  `started: 2 replicas, Redis ${world.redis.url}, profile ${values.profile}${values.break ? `, broken: ${values.break}` : ''}`,
);
const callers = new Callers(world.replicas, operationDeadlineMs + 30_000);
let report: Record<string, unknown>;
try {
  const operations = await buildWorkload(world.replicas[0]!.url, `chaos${process.pid}`);
  const venueIds = await venuesToProbe(world.replicas[0]!.url);
  const running = callers.run(operations, Number(values.callers), venueIds);
  const episodes: Promise<Episode>[] = [];
  const failed: string[] = [];
  const lifted = { at: performance.now() };
  const [recoveredMs] = await Promise.all([
    runSchedule(
      { world, callers, requestDeadlineMs, episodes, failed, note, lifted },
      profile.cycles,
      profile.every,
    ).then(() => healthyEverywhere(lifted.at)),
    new Promise((r) => setTimeout(r, profile.seconds * 1000)),
  ]);
  callers.stop();
  await running;
  note('callers stopped');
  report = await verdicts(await Promise.all(episodes), failed, recoveredMs);
} finally {
  await callers.close();
  await world.close();
}
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
const broken = Object.entries(report.invariants as Record<string, check.Check>)
  .filter(([, c]) => !c.ok)
  .map(([name]) => name);
if (broken.length) {
  log(`FAILED: invariant${broken.length > 1 ? 's' : ''} broken: ${broken.join(', ')}`);
  process.exit(1);
}
log('every invariant held');

/**
 * Ms from `since` until every serving replica has answered a read of both upstreams without an
 * error (an alias of its own each time, so no whole answer is reused); undefined past `RECOVERY_MS`.
 */
async function healthyEverywhere(since: number): Promise<number | undefined> {
  for (let n = 0; performance.now() - since <= RECOVERY_MS; n++) {
    const answers = await Promise.all(
      world.replicas.map((r) =>
        callers.send('recovery', r, 'Recovery', {
          query: `{ r${n}: entities(first: 1) { totalCount } events(first: 1) { totalCount } }`,
        }),
      ),
    );
    if (answers.every((a) => a.answer?.data && !a.answer.errors)) {
      const ms = Math.round(performance.now() - since);
      note(`every replica healthy ${ms} ms after the last fault's end`);
      return ms;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return undefined;
}

/** A few calendar venues (the stale probe's records: the workload's tag writes drop cached events, not venues). */
async function venuesToProbe(url: string): Promise<string[]> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ venues(first: 3) { nodes { id } } }' }),
  });
  return ((await res.json()) as { data: { venues: { nodes: { id: string }[] } } }).data.venues.nodes.map((n) => n.id);
}

async function verdicts(
  episodes: Episode[],
  failed: string[],
  recoveredMs: number | undefined,
): Promise<Record<string, unknown>> {
  const [governance, calendar] = await Promise.all([world.governance.requests(), world.calendar.requests()]);
  const creates = {
    governance: governance.filter((r) => r.method === 'POST' && r.route === 'POST /entities'),
    calendar: calendar.filter((r) => r.method === 'POST' && r.route === 'POST /tags'),
  };
  const outcomes = callers.outcomes;
  if (values.records)
    writeFileSync(
      values.records,
      JSON.stringify({ startedAt: performance.timeOrigin + t0, outcomes, governance, calendar }),
    );
  const codes: Record<string, number> = {};
  const byOperation: Record<string, number> = {};
  for (const o of outcomes) {
    byOperation[o.op] = (byOperation[o.op] ?? 0) + 1;
    for (const c of o.codes) codes[c] = (codes[c] ?? 0) + 1;
  }
  const breakerViolations = episodes.flatMap((e) => e.violations);
  const invariants: Record<string, check.Check> = {
    budget: check.budget(governance, enforced, performance.timeOrigin + t0),
    writes: check.writes(outcomes, creates),
    deadline: check.deadlines(outcomes, operationDeadlineMs + 1_000),
    breaker: { ok: breakerViolations.length === 0, violations: breakerViolations },
    staleness: check.staleness(
      outcomes,
      calendar,
      defaults.cache.ttlMs + defaults.cache.maxStaleMs,
      episodes.length > 0,
    ),
    drain: check.drain(outcomes, world.sigterms, world.kills),
    'no-crash': check.noCrash(world.replicas, world.kills),
    memory: check.memory(world.memory, faulted),
    recovery: check.recovery(recoveredMs, RECOVERY_MS),
    schedule: { ok: failed.length === 0, violations: failed },
  };
  return {
    profile: values.profile,
    ...(values.break ? { broken: values.break } : {}),
    seconds: Math.round((performance.now() - t0) / 1000),
    replicas: world.replicas.length,
    account: enforced,
    settings: ENV,
    ok: Object.values(invariants).every((c) => c.ok),
    invariants,
    breakerEpisodes: episodes,
    operations: outcomes.length,
    byOperation,
    errorCodes: codes,
    errorSamples: callers.samples,
    replicaLog: world.replicas.map((r) => ({ replica: r.index, errorLines: r.errorLines.length, drains: r.drains })),
    timeline,
  };
}
