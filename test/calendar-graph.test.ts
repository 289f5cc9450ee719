/**
 * The calendar graph's reads over real HTTP against the calendar emulator: every read route,
 * relations both ways, paging across upstream pages, null for unknown records, bad input
 * refused before any upstream call, upstream failures as typed errors, and the upstream-call count
 * of the headline traversal. The list filters are in `calendar-filters.test.ts`.
 */
import { parse, validate } from 'graphql';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { schema } from '../src/app/schema.js';
import { operation, operationNames } from './support/operations.js';
import { calls, forgetCalendarCache } from './support/calendar.js';
import { startStack, type GraphQLResponse, type Stack } from './support/stack.js';

type Json = Record<string, any>;
let s: Stack;

async function q(query: string, variables?: Record<string, unknown>, stack = s): Promise<GraphQLResponse<Json>> {
  return stack.query<Json>(query, variables);
}

beforeAll(async () => {
  s = await startStack({ env: { UPSTREAM_RETRIES: '0' } });
});
beforeEach(() => {
  s.clearRequests();
  forgetCalendarCache(s);
});

it.each(operationNames('calendar'))('operation %s validates against the schema', (name) => {
  expect(validate(schema, parse(operation(name))).map((e) => e.message)).toEqual([]);
});

describe('events', () => {
  it('lists 60 events in start order from two upstream pages, with totalCount and a working cursor', async () => {
    const res = await q(`{ events(filter: { startsAfter: "2020-01-01 00:00:00" }, first: 60) {
      totalCount pageInfo { hasNextPage endCursor } nodes { id startDate } } }`);
    expect(res.errors).toBeUndefined();
    const c = res.data!.events;
    expect(c.nodes).toHaveLength(60);
    expect(c.totalCount).toBeGreaterThan(60);
    const starts = c.nodes.map((e: Json) => Date.parse(e.startDate));
    starts.forEach((t: number, i: number) => i > 0 && expect(t).toBeGreaterThanOrEqual(starts[i - 1]));
    expect(calls(s, /^GET \/events$/)).toHaveLength(2);
    expect(res.extensions?.cost?.calendar?.actual).toBe(2);

    const next = await q(
      `query($after: String) { events(filter: { startsAfter: "2020-01-01 00:00:00" }, first: 10, after: $after) { nodes { id } } }`,
      {
        after: c.pageInfo.endCursor,
      },
    );
    const ids = new Set(c.nodes.map((e: Json) => e.id));
    expect(next.data!.events.nodes.length).toBeGreaterThan(0);
    expect(next.data!.events.nodes.every((e: Json) => !ids.has(e.id))).toBe(true);
  });

  it('fetches the upstream pages of a first beyond 50 together, after the first one', async () => {
    s.calendar.control.setLatency({ fixedMs: 400 });
    try {
      const res = await q(
        `{ events(filter: { startsAfter: "2020-01-01 00:00:00" }, first: 120) { totalCount nodes { id } } }`,
      );
      expect(res.errors).toBeUndefined();
      expect(res.data!.events.totalCount).toBeGreaterThan(80);
      expect(res.data!.events.nodes).toHaveLength(Math.min(120, res.data!.events.totalCount));
      const pages = s.calendar.control.requests().requests.filter((r) => r.path === '/events');
      expect(pages.map((r) => new URLSearchParams(r.query).get('page'))).toEqual(['1', '2', '3']);
      // The first page tells the total; the others then go out together. The injected latency is a
      // floor: pages sent one after the other would arrive at least 400 ms apart, so arriving closer
      // than that proves they were in flight at once (a busy machine only brings them closer).
      const [first, ...rest] = pages.map((r) => r.at);
      expect(Math.min(...rest) - first!).toBeGreaterThanOrEqual(390);
      expect(Math.max(...rest) - Math.min(...rest)).toBeLessThan(400);
    } finally {
      s.calendar.control.setLatency({});
    }
  });

  it('treats a page past the end as the end of the list, with the right total', async () => {
    const all = await q(`{ events(first: 500) { totalCount pageInfo { endCursor } } }`);
    const total = all.data!.events.totalCount;
    // Not cut from the cached pages (the next page is past their end): asked of the upstream.
    forgetCalendarCache(s);
    s.clearRequests();
    const past = await q(
      `query($a: String) { events(first: 10, after: $a) { totalCount nodes { id } pageInfo { hasNextPage } } }`,
      {
        a: all.data!.events.pageInfo.endCursor,
      },
    );
    expect(past.errors).toBeUndefined();
    expect(past.data!.events).toMatchObject({ totalCount: total, nodes: [], pageInfo: { hasNextPage: false } });
    expect(calls(s).length).toBeGreaterThan(0); // it did ask, and the 404 page became an empty one
  });

  it('normalises an event: decoded title, ISO dates with offset, ids, cost, venue, organizers, terms', async () => {
    const res =
      await q(`{ events(first: 20) { nodes { id title startDate endDate timezone allDay cost costDetails { currencySymbol currencyCode values }
      image { url sizes { name url } } authorId description venue { id name } venues { id } organizers { id name } categories { id name parent { id name } } tags { id name } customFields { key label value } } } }`);
    expect(res.errors).toBeUndefined();
    const nodes: Json[] = res.data!.events.nodes;
    const jazz = nodes.find((e) => e.title.startsWith('Jazz'));
    expect(jazz?.title).toBe('Jazz & Blues Night');
    expect(nodes.some((e) => e.title === 'Founders’ Breakfast' || e.title === "Founders' Breakfast")).toBe(true);
    expect(nodes.every((e) => !/&#\d+;|&amp;/.test(e.title))).toBe(true);
    for (const e of nodes) {
      expect(e.startDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2}|Z)$/);
      expect(Date.parse(e.endDate)).toBeGreaterThanOrEqual(Date.parse(e.startDate));
    }
    const berlin = nodes.find((e) => e.timezone === 'Europe/Berlin' && !e.allDay)!;
    expect(berlin.startDate).toMatch(/\+0[12]:00$/);
    const ny = nodes.find((e) => e.timezone === 'America/New_York')!;
    expect(ny.startDate).toMatch(/-0[45]:00$/);
    const ranged = nodes.find((e) => e.costDetails.values.length === 2)!;
    expect(ranged.costDetails).toMatchObject({ currencySymbol: '€', currencyCode: 'EUR', values: [5, 20] });
    expect(ranged.cost).toContain('5');
    expect(nodes.some((e) => e.image === null)).toBe(true);
    expect(nodes.find((e) => e.image)?.image.sizes.length).toBeGreaterThan(0);
    expect(nodes.some((e) => e.venue === null && e.venues.length === 0)).toBe(true);
    const multi = nodes.find((e) => e.venues.length > 1);
    expect(multi?.venue.id).toBe(multi?.venues[0].id);
    expect(nodes[0]!.authorId).toBe('1');
    expect(nodes.some((e) => e.customFields.length === 1 && e.customFields[0].key === '_ecp_custom_2')).toBe(true);
    expect(nodes.some((e) => e.customFields.length === 0)).toBe(true);
    expect(nodes.flatMap((e) => e.categories).some((c: Json) => c.parent)).toBe(true);
    // Everything above came from the events page alone (terms' parents batch into one terms call).
    expect(calls(s, /^GET \/events/)).toHaveLength(1);
    expect(calls(s, /^GET \/(venues|organizers)/)).toHaveLength(0);
    // Parents not embedded anywhere come in one batched terms call.
    expect(calls(s, /^GET \/categories/).length).toBeLessThanOrEqual(1);
    expect(calls(s)).toHaveLength(1 + calls(s, /^GET \/categories/).length);
  });

  it('ends venue, organizer, category and tag lists cleanly past their last page', async () => {
    for (const field of ['venues', 'organizers', 'categories', 'tags']) {
      const all = await q(`{ ${field}(first: 200) { totalCount pageInfo { endCursor } } }`);
      const { totalCount, pageInfo } = all.data![field];
      expect(totalCount, field).toBeGreaterThan(0);
      const past = await q(
        `query($a: String) { ${field}(first: 5, after: $a) { totalCount nodes { id } pageInfo { hasNextPage } } }`,
        { a: pageInfo.endCursor },
      );
      expect(past.errors, field).toBeUndefined();
      expect(past.data![field], field).toEqual({ totalCount, nodes: [], pageInfo: { hasNextPage: false } });
    }
  });

  it('reads one event by id and by slug; unknown ones are null; the upstream 400 variant too', async () => {
    const list = await q(`{ events(first: 1) { nodes { id slug title } } }`);
    const ev = list.data!.events.nodes[0];
    const byId = await q(
      `query($id: ID!) { event(id: $id) { id title slug description excerpt url status website showMap sticky hideFromListings } }`,
      { id: ev.id },
    );
    expect(byId.data!.event).toMatchObject({ id: ev.id, title: ev.title, slug: ev.slug, status: 'publish' });
    const bySlug = await q(`query($slug: String!) { event(slug: $slug) { id } }`, { slug: ev.slug });
    expect(bySlug.data!.event.id).toBe(ev.id);
    s.clearRequests();
    // Venue 10 is a post of another type: the upstream answers 400 rest-invalid-event-id.
    const missing = await q(
      `{ a: event(id: "987654321") { id } b: event(slug: "no-such-event") { id } c: event(id: "10") { id } }`,
    );
    expect(missing.errors).toBeUndefined();
    expect(missing.data).toEqual({ a: null, b: null, c: null });
    expect(calls(s).sort()).toEqual(['GET /events/10', 'GET /events/987654321', 'GET /events/by-slug/no-such-event']);

    const old = await startStack({ calendar: { pluginVersion: '6.17.1' } });
    const res = await old.query<Json>(`{ event(id: "987654321") { id } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data!.event).toBeNull();
    await old.close();
  });

  it('needs exactly one of id and slug, and valid ids and dates, before any upstream call', async () => {
    const cases: [string, string][] = [
      ['{ event { id } }', 'id'],
      ['{ event(id: "1", slug: "x") { id } }', 'slug'],
      ['{ event(id: "abc") { id } }', 'id'],
      ['{ event(id: "9007199254740993") { id } }', 'id'],
      ['{ venue { id } }', 'id'],
      ['{ organizer(id: "12", slug: "x") { id } }', 'slug'],
      ['{ category(id: "-3") { id } }', 'id'],
      [
        '{ events(filter: { startDay: "2027-01-02", startDate: "2027-01-02 00:00:00" }) { totalCount } }',
        'filter.startDay',
      ],
      ['{ events(filter: { venues: ["x"] }) { totalCount } }', 'filter.venues'],
      ['{ events(filter: { geolocLat: 1.5 }) { totalCount } }', 'filter.geolocLng'],
      ['{ events(first: 501) { totalCount } }', 'first'],
      ['{ events(after: "bm90LWEtY3Vyc29y") { totalCount } }', 'after'],
      ['{ events(filter: { search: " " }) { totalCount } }', 'filter.search'],
      ['{ venues(search: "") { totalCount } }', 'search'],
      ['{ tags(search: "  ") { totalCount } }', 'search'],
    ];
    for (const [doc, argument] of cases) {
      const res = await q(doc);
      expect(res.errors?.[0]?.extensions, doc).toMatchObject({ code: 'BAD_USER_INPUT', argument });
    }
    expect(calls(s)).toEqual([]);
    // Dates are DateTime scalars: a literal that is no date fails validation, naming the value.
    for (const doc of [
      '{ events(filter: { startsAfter: "next tuesday" }) { totalCount } }',
      '{ events(filter: { endDate: "2027-02-30 10:00:00" }) { totalCount } }',
    ]) {
      const res = await q(doc);
      expect(res.errors?.[0]?.extensions?.code, doc).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(res.errors?.[0]?.message).toContain('DateTime');
    }
    expect(calls(s)).toEqual([]);

    // A record's events cannot be filtered by other records of its kind (they would silently be replaced).
    const nested = await q('{ venue(id: "10") { events(filter: { venues: ["11"] }) { totalCount } } }');
    expect(nested.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'filter.venues' });
    expect(calls(s)).toEqual(['GET /venues/10']);
  });
});

describe('venues, organizers, categories, tags', () => {
  it('lists and finds venues, with their events', async () => {
    const res = await q(
      `{ venues(search: "a", first: 5) { totalCount nodes { id name slug city country address events(first: 2) { totalCount nodes { id venues { id } } } } } }`,
    );
    expect(res.errors).toBeUndefined();
    const v = res.data!.venues.nodes[0];
    expect(v.name).toMatch(/a/i);
    for (const node of res.data!.venues.nodes) {
      expect(node.events.nodes.every((e: Json) => e.venues.some((x: Json) => x.id === node.id))).toBe(true);
    }
    const found = await q(
      `query($slug: String!, $id: ID!) { bySlug: venue(slug: $slug) { id name } byId: venue(id: $id) { id slug } none: venue(id: "987654") { id } noSlug: venue(slug: "nowhere") { id } }`,
      {
        slug: v.slug,
        id: v.id,
      },
    );
    expect(found.errors).toBeUndefined();
    expect(found.data).toEqual({
      bySlug: { id: v.id, name: v.name },
      byId: { id: v.id, slug: v.slug },
      none: null,
      noSlug: null,
    });
    const filtered = await q(
      `{ withEvents: venues(hasEvents: true, first: 50) { totalCount } all: venues(first: 50) { totalCount } }`,
    );
    expect(filtered.data!.all.totalCount).toBeGreaterThanOrEqual(filtered.data!.withEvents.totalCount);
  });

  it('lists and finds organizers, with their events', async () => {
    const res = await q(`{ organizers(first: 5) { totalCount nodes { id name email website phone } } }`);
    expect(res.errors).toBeUndefined();
    const o = res.data!.organizers.nodes[0];
    const one = await q(
      `query($id: ID!) { organizer(id: $id) { id name events(first: 5) { totalCount nodes { id organizers { id } } } } none: organizer(id: "987654") { id } }`,
      { id: o.id },
    );
    expect(one.data!.organizer.name).toBe(o.name);
    expect(one.data!.none).toBeNull();
    expect(one.data!.organizer.events.nodes.every((e: Json) => e.organizers.some((x: Json) => x.id === o.id))).toBe(
      true,
    );
    const ofEvent = await q(`{ events(first: 1) { nodes { id organizers { id } } } }`);
    const ev = ofEvent.data!.events.nodes[0];
    const related = await q(`query($id: ID!) { organizers(eventId: $id, first: 10) { nodes { id } } }`, { id: ev.id });
    expect(related.data!.organizers.nodes.map((x: Json) => x.id).sort()).toEqual(
      ev.organizers.map((x: Json) => x.id).sort(),
    );
  });

  it('lists categories with parents and children, hideEmpty, and category events', async () => {
    const res =
      await q(`{ all: categories(first: 20, hideEmpty: false) { totalCount nodes { id name slug count parent { id name } children(first: 10) { nodes { id } } events(first: 2) { nodes { id categories { id } } } } }
      used: categories(first: 20) { totalCount } }`);
    expect(res.errors).toBeUndefined();
    const nodes: Json[] = res.data!.all.nodes;
    expect(res.data!.all.totalCount).toBeGreaterThan(res.data!.used.totalCount);
    const child = nodes.find((c) => c.parent)!;
    const parent = nodes.find((c) => c.id === child.parent.id)!;
    expect(parent.children.nodes.map((c: Json) => c.id)).toContain(child.id);
    const top = await q(`{ categories(parentId: "0", hideEmpty: false, first: 20) { nodes { parent { id } } } }`);
    expect(top.data!.categories.nodes.every((c: Json) => c.parent === null)).toBe(true);
    const one = await q(`query($id: ID!) { category(id: $id) { id name } none: category(id: "99999") { id } }`, {
      id: child.id,
    });
    expect(one.data).toEqual({ category: { id: child.id, name: child.name }, none: null });
  });

  it('lists tags and tag events; finds a tag by id', async () => {
    const res = await q(
      `{ tags(first: 20, hideEmpty: false) { totalCount nodes { id name slug count events(first: 2) { nodes { tags { id } } } } } }`,
    );
    expect(res.errors).toBeUndefined();
    const used = res.data!.tags.nodes.find((t: Json) => t.count > 0);
    expect(used.events.nodes.every((e: Json) => e.tags.some((x: Json) => x.id === used.id))).toBe(true);
    const one = await q(`query($id: ID!) { tag(id: $id) { name } none: tag(id: "99999") { id } }`, { id: used.id });
    expect(one.errors).toBeUndefined();
    expect(one.data).toEqual({ tag: { name: used.name }, none: null });
  });
});

describe('fewest upstream calls', () => {
  it('EventGraph(first: 20) costs one events page plus one per distinct venue and organizer', async () => {
    const fresh = await startStack({ env: { CACHE_TTL_MS: '0' } });
    const res = await fresh.query<Json>(operation('EventGraph'), { first: 20 });
    expect(res.errors).toBeUndefined();
    const nodes: Json[] = res.data!.events.nodes;
    const venues = new Set(nodes.filter((e) => e.venue).map((e) => e.venue.id));
    const organizers = new Set(nodes.flatMap((e) => e.organizers.map((o: Json) => o.id)));
    const expected = 1 + venues.size + organizers.size;
    expect(venues.size).toBeGreaterThan(1);
    expect(organizers.size).toBeGreaterThan(1);
    const seen = calls(fresh);
    expect(seen).toHaveLength(expected);
    expect(seen.every((c) => c === 'GET /events')).toBe(true);
    expect(res.extensions?.cost?.calendar?.actual).toBe(expected);
    console.info(
      `EventGraph(first: 20): ${venues.size} venues, ${organizers.size} organizers, ${seen.length} upstream calls (expected ${expected})`,
    );
    await fresh.close();
  });

  it('resolves a record list asked again in one request once, and keeps lists with other arguments apart', async () => {
    const res = await q(`{ events(first: 30) { nodes { venue { id
      a: events(first: 3) { totalCount nodes { id } pageInfo { endCursor hasNextPage } }
      b: events(first: 1) { nodes { id } pageInfo { endCursor } } } } } }`);
    expect(res.errors).toBeUndefined();
    const byVenue = new Map<string, Json[]>();
    for (const e of res.data!.events.nodes as Json[])
      if (e.venue) byVenue.set(e.venue.id, [...(byVenue.get(e.venue.id) ?? []), e.venue]);
    const [venueId, seen] = [...byVenue].find(([, v]) => v.length > 1 && v[0]!.a.totalCount > 3)!;
    // The same list wherever it is asked for; first: 1 is its own list, not the shared first: 3.
    for (const v of seen) expect(v).toEqual(seen[0]);
    const { a, b } = seen[0]!;
    expect(a.nodes).toHaveLength(3);
    expect(b.nodes).toEqual(a.nodes.slice(0, 1));
    expect(b.pageInfo.endCursor).not.toBe(a.pageInfo.endCursor);
    // Equal to the list read on its own, and its cursor pages on.
    const alone = await q(
      `query($id: ID!, $after: String) { venue(id: $id) { events(first: 3) { nodes { id } } more: events(first: 3, after: $after) { nodes { id } } } }`,
      { id: venueId, after: a.pageInfo.endCursor },
    );
    expect(alone.data!.venue.events.nodes).toEqual(a.nodes);
    const more: Json[] = alone.data!.venue.more.nodes;
    expect(more.length).toBeGreaterThan(0);
    expect(more.some((n) => a.nodes.some((m: Json) => m.id === n.id))).toBe(false);
  });

  it('does not repeat identical pages, and a second request is served from the cache', async () => {
    const doc = `{ events(first: 10) { nodes { venue { id events(first: 3) { totalCount } } } } }`;
    const first = await q(doc);
    const distinct = new Set(first.data!.events.nodes.filter((e: Json) => e.venue).map((e: Json) => e.venue.id));
    // At most the page and one list per venue (fewer when venues' lists share a request), none twice.
    const sent = s.calendar.control.requests().requests.map((r) => `${r.path}?${r.query}`);
    expect(new Set(sent).size).toBe(sent.length);
    expect(sent.length).toBeLessThanOrEqual(1 + distinct.size);
    s.clearRequests();
    const again = await q(doc);
    expect(calls(s)).toHaveLength(0);
    expect(again.extensions?.cost?.calendar).toMatchObject({ actual: 0 });
    expect(again.extensions!.cost!.calendar!.cacheHits).toBeGreaterThan(0);
  });
});

describe('upstream failures', () => {
  it('a 5xx on one field keeps the rest of the data and leaks nothing', async () => {
    s.calendar.control.setFaults([{ kind: 'status', status: 503, pathPrefix: '/venues' }]);
    try {
      const res = await q(`{ events(first: 2) { nodes { id } } venues(first: 2) { nodes { id } } }`);
      expect(res.data!.events.nodes).toHaveLength(2);
      expect(res.errors).toHaveLength(1);
      expect(res.errors![0]).toMatchObject({
        path: ['venues'],
        extensions: { code: 'UPSTREAM_UNAVAILABLE', upstream: 'calendar' },
      });
      const text = JSON.stringify(res.errors);
      expect(text).not.toContain(s.calendar.origin);
      expect(text).not.toMatch(/127\.0\.0\.1|wp-json|Basic /);
    } finally {
      s.calendar.control.setFaults([]);
    }
  });

  it('an outage of the terms list fails a category lookup at once, without asking id by id', async () => {
    s.calendar.control.setFaults([{ kind: 'status', status: 503, pathPrefix: '/categories' }]);
    try {
      const res = await q(`{ a: category(id: "3") { id } b: category(id: "4") { id } }`);
      expect(res.errors!.map((e) => e.extensions!.code)).toEqual(['UPSTREAM_UNAVAILABLE', 'UPSTREAM_UNAVAILABLE']);
      expect(calls(s)).toEqual(['GET /categories']);
    } finally {
      s.calendar.control.setFaults([]);
    }
    // An unknown id among known ones is still answered id by id: the known one found, the other null.
    const known = (await q(`{ categories(hideEmpty: false, first: 1) { nodes { id } } }`)).data!.categories.nodes[0].id;
    s.clearRequests();
    const mixed = await q(`query($id: ID!) { a: category(id: $id) { id } b: category(id: "987654") { id } }`, {
      id: known,
    });
    expect(mixed.errors).toBeUndefined();
    expect(mixed.data).toEqual({ a: { id: known }, b: null });
  });

  it('a password-protected event needs its password', async () => {
    const locked = await q(`{ event(slug: "members-preview-evening") { id } }`);
    expect(locked.errors?.[0]?.extensions).toMatchObject({
      code: 'FORBIDDEN',
      upstreamCode: 'event-password-protected',
    });
    const open = await q(`{ event(slug: "members-preview-evening", password: "letmein") { title } }`);
    expect(open.data!.event.title).toBe(
      'Members’ Preview Evening'.replace('’', open.data!.event.title.includes('’') ? '’' : "'"),
    );
  });

  it('venues and organizers answer the fields they share through the LinkedPost interface', async () => {
    const res = await q(`fragment Post on CalendarLinkedPost { __typename id name slug url globalId }
      { venues(first: 1) { nodes { ...Post city } } organizers(first: 1) { nodes { ...Post email } } }`);
    expect(res.errors).toBeUndefined();
    const venue = res.data!.venues.nodes[0];
    const organizer = res.data!.organizers.nodes[0];
    expect(venue).toMatchObject({
      __typename: 'Venue',
      id: expect.any(String),
      name: expect.any(String),
      globalId: expect.any(String),
    });
    expect(organizer).toMatchObject({
      __typename: 'Organizer',
      id: expect.any(String),
      name: expect.any(String),
      globalId: expect.any(String),
    });
    expect(calls(s).sort()).toEqual(['GET /organizers', 'GET /venues']);
  });

  it('a read with an event password is never cached, so no password sits in a cache key', async () => {
    const read = () => q(`{ event(slug: "members-preview-evening", password: "letmein") { title } }`);
    expect((await read()).errors).toBeUndefined();
    expect((await read()).errors).toBeUndefined();
    expect(calls(s, /by-slug\/members-preview-evening/)).toHaveLength(2);
    // An ordinary read is cached as usual.
    expect((await q(`{ events(first: 1) { nodes { id } } }`)).errors).toBeUndefined();
    const keys = s.gateway.upstreams.cache.keys();
    expect(keys.some((k) => k.includes('/events'))).toBe(true);
    expect(keys.filter((k) => k.includes('letmein'))).toEqual([]);
  });
});
