/**
 * Lists from lists, over the calendar emulator, counting the calls it sees: a list page cut from a
 * longer cached one (0 calls), events of several venues or organizers in one combined request split
 * exactly as their own requests answer (checked against those requests), the fallbacks (a
 * password-protected event, a union above 50), two concurrent operations sharing one request, and
 * CACHE_REUSE off (today's calls) and shadow (today's calls, counted savings).
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../src/config/config.js';
import { calls, forgetCalendarCache } from './support/calendar.js';
import { parseMetrics, sum } from './support/prometheus.js';
import { startStack, type Stack } from './support/stack.js';
import { databaseIdOf } from './support/global-ids.js';

type Json = Record<string, any>;
type Wire = { events: { id: number; venue: unknown; organizer: { id: number }[] }[]; total: number };

let s: Stack;
/** Venues and organizers by what their default-window events hold (found through the REST API). */
const pick = { plainVenues: [] as number[], emptyVenue: 0, protectedVenue: 0, organizers: [] as number[] };

const eventsCalls = (stack: Stack) => calls(stack, /^GET \/events/);

/** What the upstream answers for one list on its own: ids in order and the total. */
async function own(stack: Stack, dim: 'venue' | 'organizer', id: number, perPage: number) {
  const res = await fetch(`${stack.calendar.apiRoot}/events?${dim}=${id}&per_page=${perPage}`);
  const body = (await res.json()) as Wire;
  return { ids: body.events.map((e) => String(e.id)), total: body.total };
}

/** One operation asking the first `n` events of each record. */
function eventsOfEach(kind: 'venue' | 'organizer', ids: number[], n: number): string {
  const fields = ids.map((id) => `r${id}: ${kind}(id: "${id}") { events(first: ${n}) { totalCount nodes { id } } }`);
  return `{ ${fields.join(' ')} }`;
}

async function expectSameAsOwn(stack: Stack, dim: 'venue' | 'organizer', ids: number[], n: number, data: Json) {
  for (const id of ids) {
    const expected = await own(stack, dim, id, n);
    const got = data[`r${id}`].events;
    expect({ ids: got.nodes.map((e: Json) => databaseIdOf(e.id)), total: got.totalCount }).toEqual(expected);
  }
}

/** The record-cache outcomes of calendar reads counted so far. */
async function outcome(stack: Stack, result: string): Promise<number> {
  const res = await stack.gateway.yoga.fetch('http://gateway.test/metrics');
  return sum(parseMetrics(await res.text()), 'gateway_upstream_cache_total', { upstream: 'calendar', result });
}

function startReuseStack(reuse: 'on' | 'off' | 'shadow', configure?: (c: Config) => Config) {
  return startStack({ env: { UPSTREAM_RETRIES: '0', CACHE_REUSE: reuse, RESPONSE_CACHE: 'false' }, configure });
}

beforeAll(async () => {
  s = await startReuseStack('on');
  // Venues 1.., the protected event's venue, one with no events; organizers by their events.
  const venues: number[] = (
    await s.query<Json>('{ venues(first: 50) { nodes { databaseId } } }')
  ).data!.venues.nodes.map((v: Json) => Number(v.databaseId));
  const all = (await (await fetch(`${s.calendar.apiRoot}/events?per_page=50&page=1`)).json()) as Wire;
  const more = (await (await fetch(`${s.calendar.apiRoot}/events?per_page=50&page=2`)).json()) as Wire;
  const listed = [...all.events, ...more.events];
  const venueIdsOf = (e: Wire['events'][number]) =>
    (Array.isArray(e.venue) ? e.venue : [e.venue]).map((v: any) => v?.id as number | undefined).filter(Boolean);
  const blanked = listed.filter((e) => venueIdsOf(e).length === 0 && e.organizer.length === 0);
  const counts = new Map(venues.map((v) => [v, (async () => (await own(s, 'venue', v, 50)).total)()]));
  for (const v of venues) {
    const total = await counts.get(v)!;
    if (total === 0) pick.emptyVenue ||= v;
  }
  // The protected event's venue: its own list holds a row with no venue.
  for (const v of venues) {
    const res = (await (await fetch(`${s.calendar.apiRoot}/events?venue=${v}&per_page=50`)).json()) as Wire;
    if (res.events.some((e) => blanked.some((b) => b.id === e.id))) pick.protectedVenue = v;
    else if (res.total > 0 && pick.plainVenues.length < 4) pick.plainVenues.push(v);
  }
  pick.organizers = (
    await s.query<Json>('{ organizers(first: 50) { nodes { databaseId } } }')
  ).data!.organizers.nodes.map((o: Json) => Number(o.databaseId));
  expect(blanked.length).toBeGreaterThan(0);
  expect(pick.protectedVenue && pick.emptyVenue && pick.plainVenues.length === 4).toBeTruthy();
});
beforeEach(() => {
  // A cold process: no cached page, and nothing known of any list (the index empties with the cache).
  s.gateway.upstreams.cache.clear();
  s.clearRequests();
});

/** Reads the lists once (a cold process: one request per list), so the process knows their totals. */
async function learn(stack: Stack, dim: 'venue' | 'organizer', ids: number[]) {
  await stack.query<Json>(eventsOfEach(dim, ids, 3));
  expect(eventsCalls(stack)).toHaveLength(ids.length);
  forgetCalendarCache(stack);
  stack.clearRequests();
}

describe('prefix lists', () => {
  it('serves a venue’s first 3 events, and a second page inside them, from its cached first 10: 0 calls', async () => {
    const venue = pick.plainVenues[0]!;
    const ten = await s.query<Json>(`{ venue(id: "${venue}") { events(first: 10) { totalCount nodes { id } } } }`);
    const tenEvents = ten.data!.venue.events;
    expect(eventsCalls(s)).toHaveLength(1);
    s.clearRequests();
    const three = await s.query<Json>(`{ venue(id: "${venue}") { events(first: 3) {
      totalCount pageInfo { endCursor } nodes { id } } } }`);
    const threeEvents = three.data!.venue.events;
    expect(threeEvents.nodes).toEqual(tenEvents.nodes.slice(0, 3));
    expect(threeEvents.totalCount).toBe(tenEvents.totalCount);
    const next = await s.query<Json>(
      `query ($after: String) { venue(id: "${venue}") { events(first: 3, after: $after) { totalCount nodes { id } } } }`,
      { after: threeEvents.pageInfo.endCursor },
    );
    expect(next.data!.venue.events.nodes).toEqual(tenEvents.nodes.slice(3, 6));
    expect(calls(s)).toEqual([]);
    expect(await outcome(s, 'prefix')).toBeGreaterThan(0);
  });

  it('serves the first 5 events and the first 4 venues from the first 20 of each: 0 calls', async () => {
    const events = await s.query<Json>('{ events(first: 20) { totalCount nodes { id } } }');
    const venues = await s.query<Json>('{ venues(first: 20) { totalCount nodes { id } } }');
    s.clearRequests();
    const fewer = await s.query<Json>(
      '{ events(first: 5) { totalCount nodes { id } } venues(first: 4) { totalCount nodes { id } } }',
    );
    expect(fewer.data!.events.nodes).toEqual(events.data!.events.nodes.slice(0, 5));
    expect(fewer.data!.venues.nodes).toEqual(venues.data!.venues.nodes.slice(0, 4));
    expect(fewer.data!.events.totalCount).toBe(events.data!.events.totalCount);
    expect(calls(s)).toEqual([]);
  });
  it('cuts from any cached page of a list read page by page, the first as well as the last', async () => {
    const pages: Json[] = [];
    let after: string | null = null;
    do {
      const res: Json = await s.query<Json>(
        'query ($after: String) { events(first: 10, after: $after) { pageInfo { hasNextPage endCursor } nodes { id } } }',
        { after },
      );
      pages.push(res.data!.events);
      after = res.data!.events.pageInfo.hasNextPage ? res.data!.events.pageInfo.endCursor : null;
    } while (after);
    // More pages than the index once kept spans for a list.
    expect(pages.length).toBeGreaterThan(6);
    s.clearRequests();
    const first = await s.query<Json>('{ events(first: 5) { nodes { id } } }');
    expect(first.data!.events.nodes).toEqual(pages[0]!.nodes.slice(0, 5));
    expect(calls(s)).toEqual([]);
  });
});

describe('batched lists', () => {
  it('answers 5 venues’ events (one with no events) in one request, each as its own request would', async () => {
    const venues = [...pick.plainVenues, pick.emptyVenue];
    await learn(s, 'venue', venues);
    const res = await s.query<Json>(eventsOfEach('venue', venues, 3));
    expect(res.errors).toBeUndefined();
    expect(eventsCalls(s)).toHaveLength(1);
    expect(s.calendar.control.requests().requests.find((r) => r.path === '/events')?.query).toMatch(
      /venue=\d+(%2C|,)\d+/,
    );
    await expectSameAsOwn(s, 'venue', venues, 3, res.data!);
    // Stored as each list's own answer: later reads and prefixes of it make no call.
    s.clearRequests();
    const again = await s.query<Json>(eventsOfEach('venue', venues, 2));
    expect(calls(s)).toEqual([]);
    for (const v of venues)
      expect(again.data![`r${v}`].events.nodes).toEqual(res.data![`r${v}`].events.nodes.slice(0, 2));
  });

  it('puts an event at two venues in both lists', async () => {
    const [a, b] = pick.plainVenues as [number, number];
    const id = await createEvent(s, [a, b]);
    s.clearRequests();
    await learn(s, 'venue', [a, b]);
    const res = await s.query<Json>(eventsOfEach('venue', [a, b], 10));
    expect(eventsCalls(s)).toHaveLength(1);
    for (const v of [a, b]) expect(res.data![`r${v}`].events.nodes.map((e: Json) => databaseIdOf(e.id))).toContain(id);
    await expectSameAsOwn(s, 'venue', [a, b], 10, res.data!);
    const removed = await fetch(`${s.calendar.apiRoot}/events/${id}`, {
      method: 'DELETE',
      headers: { authorization: editorAuth(s) },
    });
    expect(removed.status).toBe(200);
  });

  it('never packs a list holding a password-protected event, which no split could place', async () => {
    const venues = [pick.plainVenues[0]!, pick.protectedVenue, pick.plainVenues[1]!];
    await learn(s, 'venue', venues);
    const res = await s.query<Json>(eventsOfEach('venue', venues, 3));
    // The protected event's venue goes alone; the two others share one request.
    expect(eventsCalls(s)).toHaveLength(2);
    await expectSameAsOwn(s, 'venue', venues, 3, res.data!);
  });

  it('sends the lists one by one when a combined answer cannot be split after all', async () => {
    const venues = pick.plainVenues.slice(0, 2) as [number, number];
    await learn(s, 'venue', venues);
    // Since the totals were learnt, the first venue got events enough for the union to pass 50.
    const known = (await own(s, 'venue', venues[0], 50)).total + (await own(s, 'venue', venues[1], 50)).total;
    const added = await Promise.all(Array.from({ length: 51 - known }, () => createEvent(s, [venues[0]])));
    try {
      const before = await outcome(s, 'batch-wasted');
      s.clearRequests();
      const res = await s.query<Json>(eventsOfEach('venue', venues, 3));
      // The combined request, wasted, then one per list: each exact.
      expect(eventsCalls(s)).toHaveLength(1 + venues.length);
      await expectSameAsOwn(s, 'venue', venues, 3, res.data!);
      expect(await outcome(s, 'batch-wasted')).toBe(before + 1);
    } finally {
      for (const id of added)
        await fetch(`${s.calendar.apiRoot}/events/${id}`, {
          method: 'DELETE',
          headers: { authorization: editorAuth(s) },
        });
    }
  });

  it('sends each organizer’s list alone while their totals are unknown, then packs them by those totals', async () => {
    const organizers = pick.organizers;
    const totals = await Promise.all(organizers.map(async (o) => (await own(s, 'organizer', o, 50)).total));
    expect(totals.reduce((a, b) => a + b, 0)).toBeGreaterThan(50);
    s.clearRequests();
    await learn(s, 'organizer', organizers);
    const wasted = await outcome(s, 'batch-wasted');
    const again = await s.query<Json>(eventsOfEach('organizer', organizers, 3));
    expect(eventsCalls(s).length).toBeLessThan(organizers.length);
    await expectSameAsOwn(s, 'organizer', organizers, 3, again.data!);
    expect(await outcome(s, 'batch-wasted')).toBe(wasted);
  });
});

/** Creates an event at these venues directly upstream (an editor, not through the gateway); its id. */
async function createEvent(stack: Stack, venue: number[]): Promise<string> {
  const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const created = await fetch(`${stack.calendar.apiRoot}/events`, {
    method: 'POST',
    headers: { authorization: editorAuth(stack), 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Added evening', start_date: `${day} 18:00:00`, end_date: `${day} 20:00:00`, venue }),
  });
  expect(created.status).toBe(201);
  return String(((await created.json()) as { id: number }).id);
}

function editorAuth(stack: Stack): string {
  const { editor } = stack.calendar.users;
  return `Basic ${Buffer.from(`${editor.username}:${editor.appPassword}`).toString('base64')}`;
}

describe('across operations and modes', () => {
  it('joins two concurrent operations within the window into one request', async () => {
    // A wide window, so that two operations started together land in it on a busy machine.
    const wide = await startReuseStack('on', (c) => ({ ...c, cache: { ...c.cache, listBatchWindowMs: 300 } }));
    const [a, b] = pick.plainVenues as [number, number];
    await learn(wide, 'venue', [a, b]);
    const [ra, rb] = await Promise.all([
      wide.query<Json>(eventsOfEach('venue', [a], 3)),
      wide.query<Json>(eventsOfEach('venue', [b], 3)),
    ]);
    expect(eventsCalls(wide)).toHaveLength(1);
    await expectSameAsOwn(wide, 'venue', [a], 3, ra.data!);
    await expectSameAsOwn(wide, 'venue', [b], 3, rb.data!);
    await wide.close();
  });

  it.each([
    ['off', 0],
    ['shadow', 1],
  ] as const)('CACHE_REUSE=%s makes today’s calls', async (mode, counted) => {
    const stack = await startReuseStack(mode);
    const venues = pick.plainVenues.slice(0, 3);
    await stack.query<Json>(`{ venue(id: "${venues[0]}") { events(first: 10) { totalCount } } }`);
    stack.clearRequests();
    const res = await stack.query<Json>(eventsOfEach('venue', venues, 3));
    // One request per list: the first venue's first 3 are not cut from its first 10, nothing is combined.
    expect(eventsCalls(stack)).toHaveLength(venues.length);
    await expectSameAsOwn(stack, 'venue', venues, 3, res.data!);
    const metric = (result: string) => outcome(stack, result);
    expect((await metric('prefix-shadow')) > 0).toBe(counted > 0);
    expect((await metric('batched-shadow')) > 0).toBe(counted > 0);
    expect(await metric('prefix')).toBe(0);
    expect(await metric('batched')).toBe(0);
    await stack.close();
  });
});
