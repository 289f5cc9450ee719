/**
 * The calendar graph's list filters over real HTTP against the calendar emulator: every filter of
 * events, venues, organizers, categories and tags reaches the upstream under its wire name and
 * selects what it says; the upstream's refusals come back naming the graph's arguments.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { calls, forgetCalendarCache } from './support/calendar.js';
import { startStack, type GraphQLResponse, type Stack } from './support/stack.js';
import { databaseIdOf } from './support/global-ids.js';

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

describe('event filters', () => {
  it('sends every filter under its wire name, in the form the upstream reads', async () => {
    const sent = (res: GraphQLResponse<Json>) => {
      const lines = s.calendar.control.requests().requests.filter((r) => r.path === '/events');
      expect(lines, JSON.stringify(res.errors)).toHaveLength(1);
      s.clearRequests();
      return Object.fromEntries(new URLSearchParams(lines[0]!.query));
    };
    const all = await q(`{ events(first: 2, filter: {
      startDay: "2027-01-01", endDate: "2027-12-31 23:00:00", startsBefore: "2027-06-01T10:00:00+02:00", startsAfter: "2027-01-02T00:00:00Z",
      endsBefore: "2028-01-01 00:00:00", endsAfter: "2027-01-01 12:30:00", strictDates: true, search: "Jazz",
      categories: ["3", "music"], tags: ["outdoor", "41"], venues: ["10", "11"], organizers: ["25"], featured: false,
      statuses: [PUBLISH], include: ["60", "61"], postParent: "60" }) { totalCount } }`);
    expect(sent(all)).toEqual({
      start_date: '2027-01-01 00:00:00',
      end_date: '2027-12-31 23:00:00',
      starts_before: '2027-06-01T10:00:00+02:00',
      starts_after: '2027-01-02T00:00:00+00:00',
      ends_before: '2028-01-01 00:00:00',
      ends_after: '2027-01-01 12:30:00',
      strict_dates: 'true',
      search: 'Jazz',
      categories: '3,music',
      tags: 'outdoor,41',
      venue: '10,11',
      organizer: '25',
      featured: 'false',
      status: 'publish',
      include: '60,61',
      post_parent: '60',
      page: '1',
      per_page: '2',
    });

    // Geolocation and tickets need add-ons the emulated site lacks: the parameters still go out, and
    // the upstream's refusal names them in graph terms.
    const geo = await q(`{ events(filter: { geoloc: true, geolocLat: 52.5, geolocLng: 13.4 }) { totalCount } }`);
    expect(sent(geo)).toMatchObject({ geoloc: 'true', geoloc_lat: '52.5', geoloc_lng: '13.4' });
    expect(geo.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(geo.errors![0]!.extensions!.arguments).toEqual(expect.arrayContaining(['geoloc', 'geolocLat', 'geolocLng']));
    const ticketed = await q(`{ events(filter: { ticketed: false }) { totalCount } }`);
    expect(sent(ticketed)).toMatchObject({ ticketed: 'false' });
    expect(ticketed.errors).toBeUndefined();
  });

  it('strictDates decides whether whole days count', async () => {
    const all = await q(
      `{ events(filter: { startsAfter: "2020-01-01 00:00:00" }, first: 500) { nodes { startDate } } }`,
    );
    const late = all
      .data!.events.nodes.map((e: Json) => e.startDate as string)
      .find((d: string) => !d.includes('T00:00:00'))!;
    const day = late.slice(0, 10);
    const res = await q(
      `query($d: DateTime!) { loose: events(filter: { startDate: $d }, first: 500) { nodes { startDate } }
      strict: events(filter: { startDate: $d, strictDates: true }, first: 500) { nodes { startDate } } }`,
      { d: `${day} 23:59:00` },
    );
    expect(res.errors).toBeUndefined();
    // Loose: the whole day of the given date counts, so the event of that day is listed; strict: it starts too early.
    expect(res.data!.loose.nodes.map((e: Json) => e.startDate)).toContain(late);
    expect(res.data!.strict.nodes.map((e: Json) => e.startDate)).not.toContain(late);
  });

  it('passes every filter to the upstream and returns what it selects', async () => {
    const all = await q(
      `{ events(first: 50) { nodes { id featured venues { id } organizers { id } categories { id slug } tags { id slug } } } }`,
    );
    const nodes: Json[] = all.data!.events.nodes;
    const venueId = nodes.find((e) => e.venues.length)!.venues[0].id;
    const organizerId = nodes.find((e) => e.organizers.length)!.organizers[0].id;
    const category = nodes[0]!.categories[0];
    const tag = nodes.find((e) => e.tags.length)!.tags[0];
    const res = await q(
      `query($v: ID!, $o: ID!, $c: String!, $t: String!, $ids: [ID!]!) {
        featured: events(filter: { featured: true }, first: 50) { nodes { featured } }
        notFeatured: events(filter: { featured: false }, first: 50) { nodes { featured } }
        atVenue: events(filter: { venues: [$v] }, first: 50) { nodes { venues { id } } }
        byOrganizer: events(filter: { organizers: [$o] }, first: 50) { nodes { organizers { id } } }
        inCategory: events(filter: { categories: [$c] }, first: 50) { nodes { categories { slug } } }
        tagged: events(filter: { tags: [$t] }, first: 50) { nodes { tags { id } } }
        search: events(filter: { search: "Jazz" }, first: 50) { nodes { title description } }
        included: events(filter: { include: $ids }, first: 50) { nodes { id } }
        published: events(filter: { statuses: [PUBLISH] }, first: 5) { totalCount }
        window: events(filter: { startDay: "2020-01-01", endDate: "2099-12-31 23:59:59", strictDates: true }, first: 1) { totalCount }
        ongoing: events(filter: { endsAfter: "2020-01-01T00:00:00Z", startsBefore: "2099-01-01T00:00:00+01:00" }, first: 1) { totalCount }
      }`,
      { v: venueId, o: organizerId, c: category.slug, t: tag.id, ids: nodes.slice(0, 3).map((e) => e.id) },
    );
    expect(res.errors).toBeUndefined();
    const d = res.data!;
    expect(d.featured.nodes.length).toBeGreaterThan(0);
    expect(d.featured.nodes.every((e: Json) => e.featured === true)).toBe(true);
    // A password-protected event is listed with its flags blanked (null), as the real plugin does.
    expect(d.notFeatured.nodes.every((e: Json) => e.featured !== true)).toBe(true);
    expect(d.atVenue.nodes.every((e: Json) => e.venues.some((v: Json) => v.id === venueId))).toBe(true);
    expect(d.byOrganizer.nodes.every((e: Json) => e.organizers.some((o: Json) => o.id === organizerId))).toBe(true);
    expect(d.inCategory.nodes.every((e: Json) => e.categories.some((c: Json) => c.slug === category.slug))).toBe(true);
    expect(d.tagged.nodes.every((e: Json) => e.tags.some((x: Json) => x.id === tag.id))).toBe(true);
    expect(d.search.nodes.length).toBeGreaterThan(0);
    expect(d.search.nodes.every((e: Json) => /jazz/i.test(e.title + e.description))).toBe(true);
    expect(d.included.nodes.map((e: Json) => e.id).sort()).toEqual(
      nodes
        .slice(0, 3)
        .map((e) => e.id)
        .sort(),
    );
    expect(d.window.totalCount).toBeGreaterThan(d.published.totalCount); // past events too
    expect(d.ongoing.totalCount).toBeGreaterThan(0);
    const q1 = calls(s, /^GET \/events/).length;
    expect(q1).toBe(12);
  });

  it('turns upstream validation errors into BAD_USER_INPUT naming the parameters', async () => {
    const res = await q(
      `{ a: events(filter: { ticketed: true }) { totalCount } b: events(filter: { categories: ["no-such-category"] }) { totalCount } c: events(filter: { status: ["draft"] }) { totalCount } }`,
    );
    expect(res.data).toEqual({ a: null, b: null, c: null });
    const byPath = Object.fromEntries(res.errors!.map((e) => [e.path?.[0], e.extensions]));
    expect(byPath.a).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['ticketed'], upstreamStatus: 400 });
    expect(byPath.b).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['categories'] });
    // Reads are anonymous: drafts are not for the public, as on the real site.
    expect(byPath.c).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['status'] });

    // Unknown ids are refused upstream; the error names the graph's arguments, not the wire's.
    const ids = await q(
      `{ a: events(filter: { venues: ["987654"], organizers: ["987655"] }) { totalCount } b: venues(eventId: "987654") { totalCount } }`,
    );
    const named = Object.fromEntries(ids.errors!.map((e) => [e.path?.[0], e.extensions!.arguments]));
    expect(named).toEqual({ a: ['venues', 'organizers'], b: ['eventId'] });
  });
});

describe('exclude', () => {
  const eventsAt = (venue: string) =>
    s.calendar.control.requests().requests.filter((r) => r.path === '/events' && r.query.includes(`venue=${venue}`));

  it("leaves the shown event out of its venue's events; the page stays full and the next one follows on", async () => {
    const venues = await q('{ venues(first: 20) { nodes { id events(first: 50) { totalCount nodes { id } } } } }');
    const venue = venues.data!.venues.nodes.find((v: Json) => v.events.totalCount >= 7);
    expect(venue).toBeDefined();
    const all: string[] = venue.events.nodes.map((e: Json) => e.id);
    const shown = all[0]!;
    s.clearRequests();
    forgetCalendarCache(s);
    const page = `query($v: ID!, $x: [ID!], $after: String) { venue(id: $v) { events(first: 3, after: $after, filter: { exclude: $x }) {
      totalCount pageInfo { hasNextPage hasPreviousPage endCursor } nodes { id } } } }`;
    const first = (await q(page, { v: venue.id, x: [shown] })).data!.venue.events;
    expect(first.nodes.map((e: Json) => e.id)).toEqual(all.slice(1, 4));
    expect(first.totalCount).toBe(venue.events.totalCount - 1);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    // One upstream page, one row wider than asked: the upstream has no exclude parameter.
    expect(eventsAt(databaseIdOf(venue.id)).map((r) => new URLSearchParams(r.query).get('per_page'))).toEqual(['4']);
    expect(eventsAt(databaseIdOf(venue.id))[0]!.query).not.toMatch(/exclude/);

    const next = (await q(page, { v: venue.id, x: [shown], after: first.pageInfo.endCursor })).data!.venue.events;
    expect(next.nodes.map((e: Json) => e.id)).toEqual(all.slice(4, 7));
    expect(next.pageInfo.hasPreviousPage).toBe(true);
  });

  it('works on events and from the end, and the estimate counts the extra rows', async () => {
    const list = await q('{ events(first: 200) { totalCount nodes { id } } }');
    const ids: string[] = list.data!.events.nodes.map((e: Json) => e.id);
    const total: number = list.data!.events.totalCount;
    expect(ids).toHaveLength(total);
    const some = await q('query($x: [ID!]) { events(first: 4, filter: { exclude: $x }) { nodes { id } } }', {
      x: [ids[1], ids[2]],
    });
    expect(some.data!.events.nodes.map((e: Json) => e.id)).toEqual([ids[0], ...ids.slice(3, 6)]);

    const tail = await q('query($x: [ID!]) { events(last: 2, filter: { exclude: $x }) { totalCount nodes { id } } }', {
      x: [ids[total - 1]],
    });
    expect(tail.data!.events.totalCount).toBe(total - 1);
    expect(tail.data!.events.nodes.map((e: Json) => e.id)).toEqual(ids.slice(total - 3, total - 1));

    // 50 rows plus one left out: two upstream pages, and the estimate said so before they were read.
    s.clearRequests();
    forgetCalendarCache(s);
    const wide = await q('query($x: [ID!]) { events(first: 50, filter: { exclude: $x }) { nodes { id } } }', {
      x: [ids[0]],
    });
    expect(wide.data!.events.nodes.map((e: Json) => e.id)).toEqual(ids.slice(1, 51));
    expect(calls(s, /^GET \/events/)).toHaveLength(2);
    expect(wide.extensions!.cost!.calendar!.estimated).toBe(2);
  });

  it('with "first" and "before", shows only rows before the cursor', async () => {
    const list = await q('{ events(first: 10) { nodes { id } } }');
    const ids: string[] = list.data!.events.nodes.map((e: Json) => e.id);
    const x = [ids[2]];
    const page =
      'query($x: [ID!], $b: String) { events(first: 5, before: $b, filter: { exclude: $x }) { edges { cursor node { id } } } }';
    const cursors = (await q(page, { x })).data!.events.edges.map((e: Json) => e.cursor);
    // The cursor of the fifth row (ids[5], ids[2] being left out): four rows precede it, one left out.
    const res = await q(page, { x, b: cursors[4] });
    expect(res.errors).toBeUndefined();
    expect(res.data!.events.edges.map((e: Json) => e.node.id)).toEqual([ids[0], ids[1], ids[3], ids[4]]);
  });
});

describe('venue, organizer and term filters', () => {
  it('sends the venue, organizer and term filters under their wire names, and they select', async () => {
    const queries = (path: string) =>
      s.calendar.control
        .requests()
        .requests.filter((r) => r.path === path)
        .map((r) => Object.fromEntries(new URLSearchParams(r.query)));
    const ev = (await q(`{ events(first: 1) { nodes { id } } }`)).data!.events.nodes[0];
    const cats: string[] = (
      await q(`{ categories(hideEmpty: false, first: 3) { nodes { id } } }`)
    ).data!.categories.nodes.map((c: Json) => c.id);
    s.clearRequests();
    const res = await q(
      `query($e: ID!, $in: [ID!], $out: [ID!]) { venues(search: "a", eventId: $e, hasEvents: true, onlyWithUpcoming: true, status: "publish", first: 5) { totalCount }
        organizers(search: "a", eventId: $e, hasEvents: false, onlyWithUpcoming: false, status: "publish", first: 5) { totalCount }
        categories(search: "a", include: $in, exclude: $out, order: DESC, orderBy: SLUG, hideEmpty: false, eventId: $e, slug: "music", parentId: "0", first: 5) { totalCount }
        tags(search: "o", order: ASC, orderBy: COUNT, slug: "outdoor", first: 5) { totalCount } }`,
      { e: ev.id, in: cats.slice(0, 2), out: cats.slice(2) },
    );
    expect(res.errors).toBeUndefined();
    const post = (has: string, upcoming: string) => ({
      search: 'a',
      event: databaseIdOf(ev.id),
      has_events: has,
      only_with_upcoming: upcoming,
      status: 'publish',
      page: '1',
      per_page: '5',
    });
    expect(queries('/venues')).toEqual([post('true', 'true')]);
    expect(queries('/organizers')).toEqual([post('false', 'false')]);
    expect(queries('/categories')).toEqual([
      {
        hide_empty: 'false',
        search: 'a',
        include: cats
          .slice(0, 2)
          .map((c) => databaseIdOf(c))
          .join(','),
        exclude: databaseIdOf(cats[2]!),
        order: 'desc',
        orderby: 'slug',
        event: databaseIdOf(ev.id),
        slug: 'music',
        parent: '0',
        page: '1',
        per_page: '5',
      },
    ]);
    // hide_empty goes out even when not asked: it is the upstream's default too, made explicit.
    expect(queries('/tags')).toEqual([
      { hide_empty: 'true', search: 'o', order: 'asc', orderby: 'count', slug: 'outdoor', page: '1', per_page: '5' },
    ]);

    const picked = await q(`{ all: categories(hideEmpty: false, first: 50) { nodes { id } }
      desc: categories(hideEmpty: false, order: DESC, orderBy: ID, first: 50) { nodes { id databaseId } } }`);
    const ids: string[] = picked.data!.all.nodes.map((c: Json) => c.id);
    expect(picked.data!.desc.nodes.map((c: Json) => c.id)).toEqual(
      [...ids].sort((a, b) => Number(databaseIdOf(b)) - Number(databaseIdOf(a))),
    );
    const some = await q(
      `query($in: [ID!], $out: [ID!]) { categories(hideEmpty: false, include: $in, exclude: $out, first: 50) { nodes { id } } }`,
      {
        in: ids.slice(0, 3),
        out: ids.slice(0, 1),
      },
    );
    expect(some.data!.categories.nodes.map((c: Json) => c.id).sort()).toEqual(ids.slice(1, 3).sort());
  });
});
