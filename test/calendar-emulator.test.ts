/**
 * Contract tests for the calendar emulator over real HTTP: shapes, filters, errors, auth, writes and
 * the control surface. A shared read-only emulator for reads; fresh ones where state changes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  startCalendarEmulator,
  type CalendarEmulator,
  type CalendarEmulatorOptions,
} from '../src/emulators/calendar/index.js';
import type { WireError, WireEvent, WireEventsPage, WireTerm, WireVenue } from '../src/calendar/wire.js';

const NOW = new Date('2026-03-10T12:00:00Z');
const started: CalendarEmulator[] = [];
const start = async (o: CalendarEmulatorOptions = {}) => {
  const em = await startCalendarEmulator({ now: NOW, ...o });
  started.push(em);
  return em;
};
afterAll(async () => {
  await Promise.all(started.map((e) => e.close()));
});

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
const editor = (em: CalendarEmulator) => basic(em.users.editor.username, em.users.editor.appPassword);

async function call<T = any>(
  em: CalendarEmulator,
  path: string,
  init: { method?: string; body?: unknown; auth?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (init.auth) headers.authorization = init.auth;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(em.apiRoot + path, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as T };
}

const EVENT_KEYS = [
  'id',
  'global_id',
  'global_id_lineage',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'rest_url',
  'title',
  'description',
  'excerpt',
  'slug',
  'image',
  'all_day',
  'start_date',
  'start_date_details',
  'end_date',
  'end_date_details',
  'utc_start_date',
  'utc_start_date_details',
  'utc_end_date',
  'utc_end_date_details',
  'timezone',
  'timezone_abbr',
  'cost',
  'cost_details',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'categories',
  'tags',
  'venue',
  'organizer',
  'custom_fields',
];

async function allEvents(em: CalendarEmulator, query = '', auth?: string): Promise<WireEvent[]> {
  const out: WireEvent[] = [];
  for (let page = 1; ; page++) {
    const r = await call<WireEventsPage>(em, `/events?per_page=50&page=${page}${query}`, { auth });
    out.push(...r.body.events);
    if (page >= r.body.total_pages) return out;
  }
}

describe('calendar emulator: reads', () => {
  let em: CalendarEmulator;
  let listed: WireEvent[];
  beforeAll(async () => {
    em = await start();
    listed = await allEvents(em);
  });

  it('lists events in a wrapper with totals, headers and next/previous only when applicable', async () => {
    const first = await call<WireEventsPage>(em, '/events');
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['events', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
    expect(first.body.events).toHaveLength(10);
    expect(first.headers.get('x-tec-total')).toBe(String(first.body.total));
    expect(first.headers.get('x-tec-totalpages')).toBe(String(Math.ceil(first.body.total / 10)));
    expect(first.body.total).toBeGreaterThanOrEqual(70);
    const second = await call<WireEventsPage>(em, '/events?page=2');
    expect(second.body.previous_rest_url).toBeDefined();
    expect(second.body.previous_rest_url).not.toMatch(/[?&]page=/);
    const last = await call<WireEventsPage>(em, `/events?page=${first.body.total_pages}`);
    expect(last.body.next_rest_url).toBeUndefined();
    // The plugin's own next URL (trailing-slash base) is followable.
    const next = await fetch(first.body.next_rest_url!);
    expect(((await next.json()) as WireEventsPage).events[0]!.id).toBe(second.body.events[0]!.id);
  });

  it('writes JSON as wp_json_encode does: ASCII only, slashes and non-ASCII characters escaped', async () => {
    const res = await fetch(`${em.apiRoot}/events?per_page=50`);
    const raw = Buffer.from(await res.arrayBuffer());
    expect(raw.every((b) => b < 0x80)).toBe(true);
    const text = raw.toString('latin1');
    expect(text).toContain('"rest_url":"http:\\/\\/');
    expect(text).not.toMatch(/[^\\]\//);
    // The seed's names carry €, – and umlauts: escaped as UTF-16 units, and parsed back intact.
    expect(text).toMatch(/\\u20ac|\\u2013|\\u00f6/);
    const parsed = JSON.parse(text) as WireEventsPage;
    expect(JSON.stringify(parsed)).toMatch(/[€–ö]/);
    expect(parsed.events.map((e) => e.id)).toEqual(listed.slice(0, 50).map((e) => e.id));
  });

  it('serialises events with every key in order and the real wire quirks', async () => {
    for (const e of listed) expect(Object.keys(e)).toEqual(EVENT_KEYS);
    const e = listed.find((x) => x.timezone === 'Europe/Berlin' && !x.all_day)!;
    expect(typeof e.author).toBe('string');
    expect(e.start_date_details.month).toMatch(/^\d\d$/);
    expect(e.global_id).toBe(`127.0.0.1?id=${e.id}`);
    expect(e.rest_url).toBe(`${em.apiRoot}/events/${e.id}`);
    // March in Berlin is CET (+1) before the DST switch on the last Sunday.
    const local = new Date(e.start_date.replace(' ', 'T') + 'Z').getTime();
    const utc = new Date(e.utc_start_date.replace(' ', 'T') + 'Z').getTime();
    expect((local - utc) / 3_600_000).toBe(e.timezone_abbr === 'CEST' ? 2 : 1);
    expect(listed.some((x) => x.title.includes('&amp;'))).toBe(true);
    expect(listed.some((x) => x.title.includes('&#8217;'))).toBe(true);
    expect(listed.some((x) => x.title.includes('&#8211;'))).toBe(true);
    expect(listed.find((x) => x.description !== '')!.description).toMatch(/^<p>.*<\/p>$/s);
    expect(listed.map((x) => x.cost)).toEqual(expect.arrayContaining(['Free', '$10', '€5 – €20', '']));
    expect(listed.find((x) => x.cost === '€5 – €20')!.cost_details).toEqual({
      currency_symbol: '€',
      currency_code: 'EUR',
      currency_position: 'prefix',
      values: ['5', '20'],
    });
    expect(listed.some((x) => x.website === x.url)).toBe(true);
    expect(listed.some((x) => Array.isArray(x.custom_fields))).toBe(true);
    expect(listed.some((x) => !Array.isArray(x.custom_fields) && x.custom_fields._ecp_custom_2)).toBe(true);
    expect(listed.some((x) => x.image !== false && typeof x.image.url === 'string')).toBe(true);
    const allDay = listed.find((x) => x.all_day)!;
    expect(allDay.start_date.endsWith('00:00:00') && allDay.end_date.endsWith('23:59:59')).toBe(true);
    expect(listed.every((x) => x.json_ld === undefined)).toBe(true);
    // Ordered by start date.
    const starts = listed.map((x) => x.start_date);
    expect([...starts].sort()).toEqual(starts);
  });

  it('embeds venues polymorphically, organizers as lists, terms in the embedded shape', () => {
    expect(listed.some((x) => Array.isArray(x.venue) && x.venue.length === 0)).toBe(true);
    const single = listed.find((x) => !Array.isArray(x.venue))!.venue as WireVenue;
    expect(single.show_map).toBeTypeOf('boolean');
    expect(listed.some((x) => Array.isArray(x.venue) && x.venue.length === 2)).toBe(true);
    expect(listed.every((x) => Array.isArray(x.organizer))).toBe(true);
    expect(listed.some((x) => x.organizer.length === 2)).toBe(true);
    const term = listed.flatMap((x) => x.categories).find((t) => t.parent !== 0)!;
    expect(Object.keys(term)).toEqual([
      'name',
      'slug',
      'term_group',
      'term_taxonomy_id',
      'taxonomy',
      'description',
      'parent',
      'count',
      'filter',
      'id',
      'urls',
    ]);
    expect(term.urls.up).toBe(`${em.apiRoot}/categories/${term.parent}`);
  });

  it('drops empty venue fields and keeps the always-present ones', async () => {
    const r = await call<{ venues: WireVenue[] }>(em, '/venues?per_page=50');
    const online = r.body.venues.find((v) => v.venue === 'Online')!;
    expect(online.address).toBeUndefined();
    expect(online.city).toBeUndefined();
    expect(Object.keys(online).slice(-4)).toEqual(['show_map', 'show_map_link', 'global_id', 'global_id_lineage']);
    expect('rest_url' in online).toBe(false);
  });

  it('clamps per_page to 50 and 404s past the last page', async () => {
    const big = await call<WireEventsPage>(em, '/events?per_page=500');
    expect(big.body.events).toHaveLength(50);
    const past = await call<WireError>(em, '/events?page=99');
    expect(past.status).toBe(404);
    expect(past.body.code).toBe('event-archive-page-not-found');
  });

  it('rejects invalid params with rest_invalid_param', async () => {
    for (const q of [
      'page=0',
      'per_page=0',
      'start_date=not-a-date',
      'categories=no-such-category',
      'search=',
      'status=draft',
      'ticketed=true',
      'geoloc=true',
    ]) {
      const r = await call<WireError>(em, `/events?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.code).toBe('rest_invalid_param');
      expect(Object.keys(r.body.data.params as object)).toEqual([q.split('=')[0]]);
    }
  });

  it('applies the default window and the date filter semantics', async () => {
    expect(listed.every((x) => x.start_date >= '2026-03-09 00:00:00')).toBe(true);
    const withPast = await allEvents(em, '&start_date=2025-01-01');
    expect(withPast.length - listed.length).toBe(10);
    const target = listed[5]!;
    const day = target.start_date.slice(0, 10);
    // Inclusive whole days: start_date at 23:00 still includes that day's events.
    const inclusive = await allEvents(em, `&start_date=${day}%2023:00:00&end_date=${day}`);
    expect(inclusive.map((x) => x.id)).toContain(target.id);
    const strict = await allEvents(em, `&start_date=${day}%2023:00:00&end_date=${day}%2023:59:59&strict_dates=true`);
    expect(strict.map((x) => x.id)).not.toContain(target.id);
    // starts_after is strict and drops the default window: with a past date it reaches past events.
    const after = await allEvents(em, '&starts_after=2025-06-01');
    expect(after.some((x) => x.start_date < '2026-03-01')).toBe(true);
    const ends = await allEvents(em, `&ends_before=${day}`);
    expect(ends.every((x) => x.end_date <= `${day} 23:59:59`)).toBe(true);
  });

  it('filters by search, category slug/id (OR) and tags (AND across), venue, featured', async () => {
    const jazz = await allEvents(em, '&search=jazz');
    expect(jazz.length).toBeGreaterThan(0);
    expect(jazz.every((x) => /jazz/i.test(x.title + x.description))).toBe(true);
    const cat = listed.flatMap((x) => x.categories)[0]!;
    const bySlug = await allEvents(em, `&categories=${cat.slug}`);
    const byId = await allEvents(em, `&categories[]=${cat.id}`);
    expect(bySlug.map((x) => x.id)).toEqual(byId.map((x) => x.id));
    expect(bySlug.every((x) => x.categories.some((t) => t.id === cat.id))).toBe(true);
    const tag = listed.flatMap((x) => x.tags)[0]!;
    const both = await allEvents(em, `&categories=${cat.id}&tags=${tag.slug}`);
    expect(both.every((x) => x.categories.some((t) => t.id === cat.id) && x.tags.some((t) => t.id === tag.id))).toBe(
      true,
    );
    const venue = listed.find((x) => !Array.isArray(x.venue))!.venue as WireVenue;
    const atVenue = await allEvents(em, `&venue=${venue.id}`);
    expect(atVenue.length).toBeGreaterThan(1);
    const featured = await allEvents(em, '&featured=true');
    expect(featured.length).toBeGreaterThan(0);
    expect(featured.every((x) => x.featured)).toBe(true);
  });

  it('never lists hidden events; anonymous users see only published ones, editors drafts too', async () => {
    expect(listed.every((x) => x.hide_from_listings !== true && x.status === 'publish')).toBe(true);
    const asEditor = await allEvents(em, '', editor(em));
    expect(asEditor.filter((x) => x.status === 'draft')).toHaveLength(2);
    expect((await call(em, '/events?status=draft', { auth: editor(em) })).status).toBe(200);
  });

  it('reads single events with json_ld and the not-found variants', async () => {
    const e = listed[0]!;
    const one = await call<WireEvent>(em, `/events/${e.id}`);
    expect(one.body.json_ld?.['@type']).toBe('Event');
    expect((await call<WireEvent>(em, `/events/by-slug/${e.slug}`)).body.id).toBe(e.id);
    const missing = await call<WireError>(em, '/events/999999');
    expect([missing.status, missing.body.code, missing.body.message]).toEqual([
      404,
      'rest-event-not-found',
      'Event with ID 999999 does not exist.',
    ]);
    expect((await call<WireError>(em, '/events/abc')).body.code).toBe('rest_no_route');
    const slug = await call<WireError>(em, '/events/by-slug/nope');
    expect([slug.status, slug.body.code]).toEqual([400, 'rest_invalid_param']);
    const venueId = (listed.find((x) => !Array.isArray(x.venue))!.venue as WireVenue).id;
    expect((await call<WireVenue>(em, `/venues/${venueId}`)).body.json_ld).toBeDefined();
    expect((await call<WireError>(em, '/venues/999999')).status).toBe(400);
    expect((await call<WireError>(em, '/organizers/999999')).body.code).toBe('rest_invalid_param');
    expect((await call<WireError>(em, '/categories/999999')).status).toBe(400);
  });

  it('guards password-protected events: blanked in lists, 403 without the password', async () => {
    const locked = listed.find((x) => x.title.startsWith('Members'))!;
    expect([locked.description, locked.image, locked.featured, locked.venue]).toEqual(['', false, null, []]);
    const r = await call<WireError>(em, `/events/${locked.id}`);
    expect([r.status, r.body.code]).toEqual([403, 'event-password-protected']);
    expect((await call<WireEvent>(em, `/events/${locked.id}?password=letmein`)).status).toBe(200);
  });

  it('lists terms in the collection shape with hide_empty defaulting to true', async () => {
    const r = await call<{ categories: WireTerm[]; total: number; rest_url: string }>(em, '/categories');
    expect(Object.keys(r.body).slice(0, 4)).toEqual(['rest_url', 'total', 'total_pages', 'categories']);
    expect(r.body.rest_url).toBe(`${em.apiRoot}/categories/`);
    expect(Object.keys(r.body.categories[0]!)).toEqual([
      'id',
      'count',
      'description',
      'name',
      'slug',
      'taxonomy',
      'parent',
      'meta',
      'url',
      'urls',
    ]);
    expect(r.body.categories.every((t) => t.count > 0)).toBe(true);
    const all = await call<{ categories: WireTerm[] }>(em, '/categories?hide_empty=false&per_page=50');
    expect(all.body.categories.length).toBe(11);
    const music = all.body.categories.find((t) => t.slug === 'music')!;
    const kids = await call<{ categories: WireTerm[] }>(em, `/categories?parent=${music.id}`);
    expect(kids.body.categories.map((t) => t.name).sort()).toEqual(['Classical', 'Jazz']);
    const tags = await call<{ tags: WireTerm[] }>(em, '/tags?hide_empty=false&per_page=50&orderby=name&order=desc');
    expect(tags.body.tags.length).toBe(15);
    expect('parent' in tags.body.tags[0]!).toBe(false);
    const names = tags.body.tags.map((t) => t.name);
    expect([...names].sort().reverse()).toEqual(names);
  });

  it('filters venues and organizers and 404s past their last page', async () => {
    const withEvents = await call<{ venues: WireVenue[]; total: number }>(em, '/venues?has_events=false');
    expect(withEvents.body.total).toBeGreaterThan(0);
    const search = await call<{ venues: WireVenue[] }>(em, '/venues?search=blue');
    expect(search.body.venues.map((v) => v.venue)).toEqual(['Blue Note Hall']);
    const past = await call<WireError>(em, '/organizers?page=9');
    expect([past.status, past.body.code]).toEqual([404, 'organizer-archive-page-not-found']);
  });

  it('serves the namespace index and the OpenAPI document', async () => {
    const idx = await call(em, '/');
    expect(idx.body.namespace).toBe('calendar/events/v1');
    expect(idx.body.routes['/calendar/events/v1/events/(?P<id>\\d+)'].methods).toEqual(
      expect.arrayContaining(['GET', 'DELETE', 'PATCH']),
    );
    expect(idx.body.routes['/calendar/events/v1/events']._links.self[0].href).toBe(`${em.apiRoot}/events`);
    const doc = await call(em, '/doc');
    expect(doc.body.openapi).toBe('3.0.0');
    expect(Object.keys(doc.body.paths)).toContain('/events/{id}');
    expect(doc.body.components.schemas.Event).toBeDefined();
  });
});

describe('calendar emulator: plugin version and namespace switches', () => {
  it('answers unknown ids with 400 rest_invalid_param on 6.17.1', async () => {
    const em = await start({ pluginVersion: '6.17.1' });
    const r = await call<WireError>(em, '/events/999999');
    expect([r.status, r.body.code]).toEqual([400, 'rest_invalid_param']);
  });

  it('serves the real tribe/events/v1 namespace', async () => {
    const em = await start({ namespace: 'tribe/events/v1' });
    expect(em.apiRoot).toBe(`${em.origin}/wp-json/tribe/events/v1`);
    expect((await call(em, '/events')).status).toBe(200);
    expect((await fetch(`${em.origin}/wp-json/calendar/events/v1/events`)).status).toBe(404);
  });
});

describe('calendar emulator: auth and writes', () => {
  const body = {
    title: 'Rooftop Jazz & Friends',
    start_date: '2026-06-01 19:00:00',
    end_date: '2026-06-01 22:00:00',
    timezone: 'America/New_York',
    featured: true,
    cost: '$15',
    categories: ['Jazz', 'Brand New Category'],
    venue: { venue: 'Sky Terrace', city: 'New York' },
  };

  it('validates before checking permission, then 401 anonymous, 403 subscriber, 401 bad password', async () => {
    const em = await start();
    const missing = await call<WireError>(em, '/events', { method: 'POST', body: {} });
    expect([missing.status, missing.body.code, missing.body.data.params]).toEqual([
      400,
      'rest_missing_callback_param',
      ['title', 'start_date', 'end_date'],
    ]);
    const anon = await call<WireError>(em, '/events', { method: 'POST', body });
    expect([anon.status, anon.body.code]).toEqual([401, 'rest_forbidden']);
    const sub = await call<WireError>(em, '/events', {
      method: 'POST',
      body,
      auth: basic(em.users.subscriber.username, em.users.subscriber.appPassword),
    });
    expect([sub.status, sub.body.code]).toEqual([403, 'rest_forbidden']);
    const bad = await call<WireError>(em, '/events', { auth: basic('admin', 'wrong') });
    expect([bad.status, bad.body.code]).toEqual([401, 'incorrect_password']);
    expect((await call<WireError>(em, '/events', { auth: basic('nobody', 'x') })).body.code).toBe('invalid_username');
    // Spaces in application passwords are optional.
    const squashed = await call(em, '/events', {
      method: 'POST',
      body,
      auth: basic('admin', em.users.editor.appPassword.replace(/ /g, '')),
    });
    expect(squashed.status).toBe(201);
  });

  it('lists show every write at once, to the record and to what embeds it', async () => {
    const em = await start();
    const auth = editor(em);
    const before = (await call<{ events: WireEvent[] }>(em, '/events?per_page=50')).body.events;
    const atVenue = before.find((e) => !Array.isArray(e.venue))!;
    const venue = atVenue.venue as WireVenue;
    const other = before.find((e) => e.id !== atVenue.id)!;
    const write = (path: string, body: unknown) => call(em, path, { method: 'POST', body, auth });
    expect((await write(`/venues/${venue.id}`, { venue: 'Renamed Hall' })).status).toBe(200);
    expect((await write(`/events/${other.id}`, { title: 'Renamed Night' })).status).toBe(200);
    const after = (await call<{ events: WireEvent[] }>(em, '/events?per_page=50')).body.events;
    expect(after.find((e) => e.id === other.id)!.title).toBe('Renamed Night');
    // Not written itself: only the venue it embeds was.
    expect((after.find((e) => e.id === atVenue.id)!.venue as WireVenue).venue).toBe('Renamed Hall');
    // After a reset the lists show the seed again.
    em.control.reset();
    const reset = (await call<{ events: WireEvent[] }>(em, '/events?per_page=50')).body.events;
    expect(reset.find((e) => e.id === other.id)!.title).toBe(other.title);
  });

  it('creates, updates with the partial-update quirk, and trashes events', async () => {
    const em = await start();
    const auth = editor(em);
    const created = await call<WireEvent>(em, '/events', { method: 'POST', body, auth });
    expect(created.status).toBe(201);
    const e = created.body;
    expect(e.title).toBe('Rooftop Jazz &amp; Friends');
    expect([e.utc_start_date, e.timezone_abbr, e.cost, e.featured]).toEqual([
      '2026-06-01 23:00:00',
      'EDT',
      '$15',
      true,
    ]);
    expect(e.categories.map((t) => t.name).sort()).toEqual(['Brand New Category', 'Jazz']);
    expect((e.venue as WireVenue).venue).toBe('Sky Terrace');
    // Partial update: omitted booleans become false, omitted venue unlinks.
    const patched = await call<WireEvent>(em, `/events/${e.id}`, { method: 'PATCH', body: { title: 'Renamed' }, auth });
    expect([
      patched.status,
      patched.body.title,
      patched.body.featured,
      patched.body.venue,
      patched.body.start_date,
    ]).toEqual([200, 'Renamed', false, [], '2026-06-01 19:00:00']);
    const draft = await call<WireEvent>(em, `/events/${e.id}`, { method: 'PUT', body: { status: 'draft' }, auth });
    expect(draft.body.status).toBe('draft');
    expect(
      (await call<WireEvent>(em, `/events/by-slug/${e.slug}`, { method: 'POST', body: {}, auth })).body.status,
    ).toBe('publish');
    const trashed = await call<WireEvent>(em, `/events/${e.id}`, { method: 'DELETE', auth });
    expect([trashed.status, trashed.body.status]).toEqual([200, 'trash']);
    const again = await call<WireError>(em, `/events/${e.id}`, { method: 'DELETE', auth });
    expect([again.status, again.body.code]).toEqual([410, 'event-is-in-trash']);
    expect((await call<WireError>(em, `/events/${e.id}`)).body.code).toBe('event-no-longer-available');
    expect((await call<WireError>(em, '/events/999999', { method: 'DELETE', auth })).status).toBe(404);
    expect((await call<WireError>(em, '/events/999999', { method: 'DELETE' })).status).toBe(401);
  });

  it('rejects bad write params with rest_invalid_param', async () => {
    const em = await start();
    for (const bad of [
      { timezone: 'Mars/Olympus' },
      { start_date: 'soon' },
      { venue: 999999 },
      { website: 'not a url' },
    ]) {
      const r = await call<WireError>(em, '/events', { method: 'POST', body: { ...body, ...bad }, auth: editor(em) });
      expect([r.status, r.body.code], JSON.stringify(bad)).toEqual([400, 'rest_invalid_param']);
    }
  });

  it('creates, updates and trashes venues and organizers', async () => {
    const em = await start();
    const auth = editor(em);
    const v = await call<WireVenue>(em, '/venues', {
      method: 'POST',
      body: { venue: 'New Hall', city: 'Porto' },
      auth,
    });
    expect([v.status, v.body.venue, v.body.city, v.body.address]).toEqual([201, 'New Hall', 'Porto', undefined]);
    const u = await call<WireVenue>(em, `/venues/${v.body.id}`, { method: 'PATCH', body: { zip: '4000-001' }, auth });
    expect([u.status, u.body.zip, u.body.city]).toEqual([200, '4000-001', 'Porto']);
    expect((await call<WireVenue>(em, `/venues/${v.body.id}`, { method: 'DELETE', auth })).body.status).toBe('trash');
    expect((await call<WireError>(em, `/venues/${v.body.id}`, { method: 'DELETE', auth })).body.code).toBe(
      'venue-is-in-trash',
    );
    const o = await call(em, '/organizers', {
      method: 'POST',
      body: { organizer: 'Ana', email: 'ana@example.org' },
      auth,
    });
    expect(o.status).toBe(201);
    await call(em, `/organizers/${o.body.id}`, { method: 'DELETE', auth });
    const again = await call<WireError>(em, `/organizers/${o.body.id}`, { method: 'DELETE', auth });
    expect([again.status, again.body.code]).toEqual([410, 'organizer-is-in-trash']);
  });

  it('creates, updates and deletes terms', async () => {
    const em = await start();
    const auth = editor(em);
    const c = await call<WireTerm>(em, '/categories', {
      method: 'POST',
      body: { name: 'Film Nights', parent: 2 },
      auth,
    });
    expect([c.status, c.body.slug, c.body.parent, c.body.count]).toEqual([201, 'film-nights', 2, 0]);
    expect(
      (await call<WireError>(em, '/categories', { method: 'POST', body: { name: 'Film Nights', parent: 2 }, auth }))
        .body.code,
    ).toBe('term_exists');
    const t = await call<WireTerm>(em, '/tags', { method: 'POST', body: { name: 'outdoor', slug: 'outdoor' }, auth });
    expect(t.status).toBe(400);
    const t2 = await call<WireTerm>(em, '/tags', { method: 'POST', body: { name: 'Night Owls' }, auth });
    const u = await call<WireTerm>(em, `/tags/${t2.body.id}`, { method: 'PUT', body: { description: 'Late' }, auth });
    expect([u.status, u.body.description]).toEqual([200, 'Late']);
    const d = await call<WireTerm>(em, `/categories/${c.body.id}`, { method: 'DELETE', auth });
    expect([d.status, d.body.id, d.body.name]).toEqual([200, c.body.id, 'Film Nights']);
    expect((await call(em, `/categories/${c.body.id}`)).status).toBe(400);
  });
});

describe('calendar emulator: control surface', () => {
  it('counts requests, injects faults and resets to the seed', async () => {
    const em = await start();
    const before = (await call<WireEventsPage>(em, '/events')).body.total;
    await call(em, '/events/999999');
    const log = em.control.requests();
    expect(log.total).toBe(2);
    expect(log.byRoute['GET /events']).toBe(1);
    expect(log.byRoute['GET /events/:id{[0-9]+}']).toBe(1);
    em.control.setFaults([{ kind: 'status', status: 503, times: 1, pathPrefix: '/events' }]);
    const fault = await call<WireError>(em, '/events');
    expect([fault.status, fault.body.data.status]).toEqual([503, 503]);
    expect((await call(em, '/events')).status).toBe(200);
    await call(em, '/events', {
      method: 'POST',
      auth: editor(em),
      body: { title: 'Extra', start_date: '2026-04-01 10:00', end_date: '2026-04-01 11:00' },
    });
    expect((await call<WireEventsPage>(em, '/events')).body.total).toBe(before + 1);
    em.control.reset();
    expect(em.control.requests().total).toBe(0);
    expect((await call<WireEventsPage>(em, '/events')).body.total).toBe(before);
  });

  it('under latency, answers a read with the data as it arrived, held until its latency is over; a write applies at the end', async () => {
    const em = await start();
    const auth = editor(em);
    const event = (await call<WireEventsPage>(em, '/events?per_page=1')).body.events[0]!;
    em.control.clearRequests();
    em.control.setLatency({ fixedMs: 1_000 });
    const write = call<WireEvent>(em, `/events/${event.id}`, { method: 'POST', body: { title: 'Held Write' }, auth });
    await vi.waitFor(() => expect(em.control.requests().total).toBe(1), { interval: 5 });
    // Arrives while the write waits out its latency: handled now, so it shows the record before the write.
    const order: string[] = [];
    const read = call<WireEvent>(em, `/events/${event.id}`).then((r) => (order.push('held read'), r));
    await vi.waitFor(() => expect(em.control.requests().total).toBe(2), { interval: 5 });
    em.control.setLatency({});
    // Its latency was fixed when it arrived: a later read without latency overtakes it.
    expect(
      (await call<WireEvent>(em, `/events/${event.id}`).then((r) => (order.push('quick read'), r))).body.title,
    ).toBe(event.title);
    expect((await read).body.title).toBe(event.title);
    expect(order).toEqual(['quick read', 'held read']);
    expect((await write).body.title).toBe('Held Write');
    expect((await call<WireEvent>(em, `/events/${event.id}`)).body.title).toBe('Held Write');
  });

  it('is deterministic for a seed', async () => {
    const [a, b] = await Promise.all([start({ seed: 5 }), start({ seed: 5 })]);
    const [x, y] = await Promise.all([
      call<WireEventsPage>(a, '/events?per_page=50'),
      call<WireEventsPage>(b, '/events?per_page=50'),
    ]);
    expect(x.body.events.map((e) => [e.id, e.start_date, e.title])).toEqual(
      y.body.events.map((e) => [e.id, e.start_date, e.title]),
    );
  });
});
