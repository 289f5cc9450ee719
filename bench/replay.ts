/**
 * Workload 15, the replay: calendar traffic shaped like a frontend's (issue 32), sent to the gateway
 * twice in one bench run, with CACHE_REUSE=off and =on, on the same data and the same schedule.
 *
 * - Data: a calendar emulator of the workload's own, seeded with 600 listed events, 60 venues and 30
 *   organizers (`size`), 20 ms per upstream request; reset to the seed before each run.
 * - Traffic (replay-traffic.ts): open-loop arrivals at 40 operations/s for 60 s, the issue's mix,
 *   ids Zipf(1.0) over a seeded permutation; every operation is sent at its time, answered or not.
 * - Gateway: as shipped but for a fixed freshness of 30 s for every calendar kind, and the response
 *   cache on (the product's default, and the peer the issue compares with had its own): a repeated
 *   page is answered whole, and the upstream calls left are those the record cache must make.
 * - Figures per run: upstream calls per 1,000 operations (counted by the emulator, by route), the
 *   record cache's lookups by outcome (from the gateway's metrics: `record` and `record-redis` make
 *   the harvested share, `prefix` and `batched` the share of lists from lists), p50/p95, gateway
 *   CPU per operation, errors, stale answers, answers older than the bound (replay-freshness.ts).
 * - Floor (replay-floor.ts): the calls of an ideal cache on the operations sent.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeHTML } from 'entities';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { eventsQuery } from '../src/calendar/inputs.js';
import type { WireEvent } from '../src/calendar/wire.js';
import { venueList } from '../src/calendar/normalize.js';
import { encodeCursor, listKeyOf } from '../src/graph/paging.js';
import { createRng } from '../src/emulators/kit/random.js';
import type { LoggedRequest } from '../src/emulators/kit/control.js';
import { GraphQLClient, percentile, round, type GraphQLResult } from './client.js';
import { wall } from './measure.js';
import { startChild } from './processes.js';
import { REPLAY_EVENT, REPLAY_EVENT_GRAPH, REPLAY_EVENTS_PAGE, REPLAY_ORGANIZER, REPLAY_VENUE } from './queries.js';
import { floorCalls, type FloorShape, type ListedEvent } from './replay-floor.js';
import { editedTitle, freshness, type Edit } from './replay-freshness.js';
import { MIX, schedule, type Population, type ReplayKind, type ReplayOp } from './replay-traffic.js';
import { startEmulator, type EmulatorProcess, type Upstreams } from './upstreams.js';
import type { BenchOptions, WorkloadRecord } from './workloads.js';

const SIZE = { events: 600, venues: 60, organizers: 30 };
const SEED = 32;
const PER_SECOND = 40;
const FRESH_MS = 30_000;
/** See replay-freshness.ts: one upstream latency and the operation's own time, generously. */
const TOLERANCE_MS = 1_000;
const LIST_PAGE = 20;
const GRAPH_PAGE = 5;
/** The outside editor retitles one of the HOT most read events every EDIT_EVERY_MS. */
const HOT = 5;
/** Lookups answered by a record harvested from another answer, and lists answered from other lists. */
const HARVESTED = ['record', 'record-redis'];
const FROM_LISTS = ['prefix', 'batched'];
/** Outcomes counted beside a lookup's own (a miss then answered in Redis, a shadow count, a wasted request). */
const BESIDE = /^(redis|record-redis|batch-wasted|.*-shadow)$/;
const CALENDAR_KINDS = ['events', 'venues', 'organizers', 'terms'];

/** The events the outside editor changes, and their seed titles. */
interface Hot {
  ids: number[];
  titles: Map<number, string>;
}

interface Sent {
  op: ReplayOp;
  /** How late the operation left, ms after its scheduled time. */
  lateMs: number;
  result: GraphQLResult;
  arrivedAt: number;
}

export async function replay(up: Upstreams, options: BenchOptions): Promise<WorkloadRecord> {
  const seconds = options.quick ? 2 : 60;
  const editEveryMs = options.quick ? 400 : 2_000;
  const calendar = await startEmulator('calendar', { latency: { fixedMs: options.latencyMs }, size: SIZE });
  try {
    await calendar.setLatency({});
    const { listing, titles, locked } = await listedEvents(calendar);
    const population: Population = {
      // A password-protected event is seen in lists (its content withheld); its own page needs the password.
      events: listing.map((e) => e.id).filter((id) => !locked.has(id)),
      venues: await ids(calendar, 'venues'),
      organizers: await ids(calendar, 'organizers'),
      listPages: Math.ceil(listing.length / LIST_PAGE),
      graphPages: Math.ceil(listing.length / GRAPH_PAGE),
    };
    const ops = schedule(SEED, population, PER_SECOND, seconds);
    const shape: FloorShape = { listing, listPageSize: LIST_PAGE, graphPageSize: GRAPH_PAGE };
    const floor = floorCalls(ops, shape, FRESH_MS);
    // The hot events the editor changes: the first ranks of the schedule's own draw.
    const hot = mostRead(ops, 'event', HOT);
    const runs = [];
    for (const reuse of ['off', 'on'] as const)
      runs.push(await run(up, calendar, reuse, ops, { ids: hot, titles }, { editEveryMs, seconds }));
    const [off, on] = runs as [RunRecord, RunRecord];
    const perThousand = (calls: number) => round((calls / Math.max(1, ops.length)) * 1000, 1);
    return {
      id: '15',
      name: `replay: calendar, ${SIZE.events} events / ${SIZE.venues} venues / ${SIZE.organizers} organizers, ${PER_SECOND} operations/s open-loop for ${seconds} s, Zipf(1.0), freshness ${FRESH_MS / 1000} s, CACHE_REUSE off and on`,
      workload: {
        data: { ...SIZE, listedEvents: listing.length, passwordProtected: locked.size },
        latencyMs: options.latencyMs,
        perSecond: PER_SECOND,
        seconds,
        seed: SEED,
        operations: ops.length,
        mix: Object.fromEntries(MIX.map(([kind]) => [kind, ops.filter((o) => o.kind === kind).length])),
        ids: 'Zipf(1.0) over ranks; rank k is the k-th id of a seeded permutation (the hot records are spread over the list, not its first page); pages ranked in order (page 1 most read)',
        pages: { list: LIST_PAGE, eventGraph: GRAPH_PAGE },
        freshnessBoundMs: FRESH_MS,
        gatewayEnv: 'CACHE_TTL_MS=30000 for every calendar kind; RESPONSE_CACHE=true (the default)',
      },
      floor: {
        definition:
          'an ideal cache that keeps every list and record it has seen fresh for 30 s: per operation, the lists no fresh answer holds (an EventGraph page inside a fresh list page is cut from it; the venue and organizer lists of one operation packed first-fit into combined requests of at most 50 events), then the records (event, venue, organizer) no fresh list or event answer held (a password-protected event is never held)',
        calls: floor.calls,
        perThousand: perThousand(floor.calls),
        byResource: floor.byResource,
      },
      freshnessCheck: `an outside editor retitles one of the ${HOT} most read events every ${editEveryMs} ms in the emulator; an answer showing a version that had been replaced more than ${FRESH_MS / 1000} s + ${TOLERANCE_MS} ms before it arrived is older than the bound`,
      off,
      on,
      errors: off.errors + on.errors,
      olderThanBound: off.freshness.olderThanBound + on.freshness.olderThanBound,
      reuseOnToOff: round(on.upstreamCalls / Math.max(1, off.upstreamCalls), 2),
      onToFloor: round(on.upstreamCalls / Math.max(1, floor.calls), 2),
      offToFloor: round(off.upstreamCalls / Math.max(1, floor.calls), 2),
    };
  } finally {
    await calendar.child.stop();
  }
}

type RunRecord = ReturnType<typeof summary>;

/** One gateway with CACHE_REUSE=`reuse`, from cold, sent the schedule while the editor edits. */
async function run(
  up: Upstreams,
  calendar: EmulatorProcess,
  reuse: 'off' | 'on',
  ops: ReplayOp[],
  hot: Hot,
  timing: { editEveryMs: number; seconds: number },
): Promise<RunRecord> {
  // The seed's data again, and its latency.
  await calendar.reset();
  const gateway = await startChild(
    'gateway-process.ts',
    up.gatewayEnv({
      ...emulatorEnv(up.governance, calendar),
      CACHE_REUSE: reuse,
      CACHE_TTL_MS: String(FRESH_MS),
      CACHE_TTL_BY_KIND: CALENDAR_KINDS.map((k) => `${k}:${FRESH_MS}`).join(','),
      RESPONSE_CACHE: 'true',
    }),
  );
  // Open loop: enough connections that no operation waits for a free one.
  const client = new GraphQLClient(gateway.url, 128);
  try {
    await calendar.clear();
    const outcomesBefore = cacheOutcomes(await gateway.request<string>('metrics'));
    const before = await gateway.stats();
    const t0 = performance.now() + 20;
    const edits: Edit[] = [];
    const editing = edit(calendar, hot, t0, timing, edits);
    editing.catch(() => undefined); // awaited below, after the operations
    const sent = await Promise.all(ops.map((op) => send(client, op, t0)));
    await editing;
    const cpuMs = (await gateway.stats()).cpuMs - before.cpuMs;
    const outcomes = diff(cacheOutcomes(await gateway.request<string>('metrics')), outcomesBefore);
    return summary(reuse, sent, await calendar.requests(), outcomes, cpuMs, edits);
  } finally {
    await client.close();
    await gateway.stop();
  }
}

function summary(
  reuse: 'off' | 'on',
  sent: Sent[],
  log: LoggedRequest[],
  outcomes: Record<string, number>,
  cpuMs: number,
  edits: Edit[],
) {
  const failed = sent.filter((s) => s.result.status !== 200 || s.result.errors.length > 0);
  const lookups = Object.entries(outcomes).reduce((a, [k, n]) => (BESIDE.test(k) ? a : a + n), 0);
  const share = (kinds: string[]) =>
    lookups ? round(kinds.reduce((a, k) => a + (outcomes[k] ?? 0), 0) / lookups, 3) : null;
  const late = sent.map((s) => s.lateMs);
  return {
    cacheReuse: reuse,
    operations: sent.length,
    errors: failed.length,
    ...(failed.length ? { errorSample: failed.slice(0, 3).map((s) => errorLine(s.result)) } : {}),
    upstreamCalls: log.length,
    callsPerThousand: round((log.length / Math.max(1, sent.length)) * 1000, 1),
    byRoute: byRoute(log),
    cacheLookups: { calendar: outcomes },
    harvestedShare: share(HARVESTED),
    listsFromListsShare: share(FROM_LISTS),
    answersFromResponseCache: sent.filter((s) => s.result.cached).length,
    staleAnswers: sent.filter((s) => s.result.stale).length,
    wallMs: wall(sent.map((s) => s.result.ms)),
    gatewayCpuMsPerOperation: round(cpuMs / Math.max(1, sent.length), 2),
    // How late the load side sent (a busy machine): the schedule's offsets are kept only this well.
    sendLateMs: { p95: round(percentile(late, 95), 1), max: round(Math.max(...late), 1) },
    edits: edits.length,
    freshness: freshness(
      sent.map((s) => ({ arrivedAt: s.arrivedAt, data: s.result.data })),
      edits,
      FRESH_MS,
      TOLERANCE_MS,
    ),
  };
}

/** One operation, sent at its time whatever the others are doing. */
async function send(client: GraphQLClient, op: ReplayOp, t0: number): Promise<Sent> {
  const wait = t0 + op.at - performance.now();
  if (wait > 0) await sleep(wait);
  const lateMs = performance.now() - (t0 + op.at);
  const [query, variables] = operation(op);
  const result = await client.run(query, variables);
  return { op, lateMs, result, arrivedAt: Date.now() };
}

const EVENTS_LIST = listKeyOf('events', { filter: eventsQuery(undefined) });
/** The cursor a frontend holds for a page: the end cursor of the page before it. */
const after = (page: number, size: number) => (page === 0 ? null : encodeCursor(EVENTS_LIST, page * size - 1));

function operation(op: ReplayOp): [string, Record<string, unknown>] {
  switch (op.kind) {
    case 'event':
      return [REPLAY_EVENT, { id: String(op.key) }];
    case 'eventsPage':
      return [REPLAY_EVENTS_PAGE, { first: LIST_PAGE, after: after(op.key, LIST_PAGE) }];
    case 'venue':
      return [REPLAY_VENUE, { id: String(op.key) }];
    case 'organizer':
      return [REPLAY_ORGANIZER, { id: String(op.key) }];
    case 'eventGraph':
      return [REPLAY_EVENT_GRAPH, { first: GRAPH_PAGE, after: after(op.key, GRAPH_PAGE) }];
  }
}

/** The outside editor: every `editEveryMs`, a seeded pick of the hot events gets its next title. */
async function edit(
  calendar: EmulatorProcess,
  hot: Hot,
  t0: number,
  timing: { editEveryMs: number; seconds: number },
  edits: Edit[],
) {
  const rng = createRng(SEED + 1);
  for (let at = timing.editEveryMs; at < timing.seconds * 1000; at += timing.editEveryMs) {
    const id = rng.pick(hot.ids);
    const wait = t0 + at - performance.now();
    if (wait > 0) await sleep(wait);
    const n = edits.filter((e) => e.id === id).length + 1;
    if (!(await calendar.editTitle(id, editedTitle(hot.titles.get(id) ?? '', n, Date.now()))))
      throw new Error(`replay: no event ${id} to edit`);
    edits.push({ id, n, at: Date.now() });
  }
}

/** The `count` keys the schedule draws most often for one kind. */
function mostRead(ops: ReplayOp[], kind: ReplayKind, count: number): number[] {
  const reads = new Map<number, number>();
  for (const op of ops) if (op.kind === kind) reads.set(op.key, (reads.get(op.key) ?? 0) + 1);
  return [...reads.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, count)
    .map(([key]) => key);
}

/** Calls per route; the events list apart by what it lists (a venue's, an organizer's, or a page of all). */
function byRoute(log: LoggedRequest[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of log) {
    const q = new URLSearchParams(r.query);
    const route =
      r.route === 'GET /events'
        ? `GET /events (${q.has('venue') ? 'a venue’s next events' : q.has('organizer') ? 'an organizer’s next events' : 'list page'})`
        : r.route;
    out[route] = (out[route] ?? 0) + 1;
  }
  return out;
}

/** The calendar's record-cache lookups by outcome, from the metrics text (`gateway_upstream_cache_total`). */
function cacheOutcomes(metrics: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of metrics.split('\n')) {
    if (!line.startsWith('gateway_upstream_cache_total{') || !line.includes('upstream="calendar"')) continue;
    const result = /result="([^"]+)"/.exec(line)?.[1];
    if (result) out[result] = (out[result] ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return out;
}

const diff = (after: Record<string, number>, before: Record<string, number>) =>
  Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]));

const errorLine = (r: GraphQLResult) =>
  `HTTP ${r.status}: ${r.errors
    .map((e) => `${e.extensions?.code ?? ''} ${e.message} @${(e.path ?? []).join('.')}`)
    .join(' | ')
    .slice(0, 300)}`;

/** Every page of one of the emulator's lists (setup, without latency). */
async function pages<T>(calendar: EmulatorProcess, plural: string): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1, total = 1; page <= total; page++) {
    const res = await fetch(`${calendar.apiRoot}/${plural}?per_page=50&page=${page}`);
    if (!res.ok) throw new Error(`replay setup: GET /${plural} answered ${res.status}`);
    const body = (await res.json()) as Record<string, unknown> & { total_pages: number };
    out.push(...(body[plural] as T[]));
    total = body.total_pages;
  }
  return out;
}

/** The listed events in list order, their titles as written (the wire's are HTML-encoded), the protected ones. */
async function listedEvents(calendar: EmulatorProcess) {
  const events = await pages<WireEvent>(calendar, 'events');
  // The list withholds a password-protected event's content: `all_day` is null only then.
  const locked = new Set(events.filter((e) => e.all_day === null).map((e) => e.id));
  const listing: ListedEvent[] = events.map((e) => ({
    id: e.id,
    venueIds: venueList(e.venue).map((v) => v.id),
    organizerIds: (e.organizer ?? []).map((o) => o.id),
    locked: locked.has(e.id),
  }));
  return { listing, titles: new Map(events.map((e) => [e.id, decodeHTML(e.title)])), locked };
}

const ids = async (calendar: EmulatorProcess, plural: string) =>
  (await pages<{ id: number }>(calendar, plural)).map((r) => r.id);
