/**
 * Pure units of the calendar adapter: wire → domain normalisation (the plugin's quirks), date input
 * parsing, WordPress error bodies → UpstreamError, and which credentials a call carries.
 */
import { describe, expect, it } from 'vitest';
import { calendarAuth } from '../src/calendar/auth.js';
import { isEndOfList, toUpstreamError } from '../src/calendar/errors.js';
import { filterDate, parseCalendarDate, writeDate } from '../src/calendar/dates.js';
import {
  isoDateTime,
  normalizeEvent,
  normalizeOrganizer,
  normalizeTerm,
  normalizeVenue,
  venueList,
} from '../src/calendar/normalize.js';
import { zoneOffsetMinutes } from '../src/calendar/zones.js';
import type { WireEvent, WireVenue } from '../src/calendar/wire.js';

const details = (wall: string) => {
  const [d, t] = wall.split(' ') as [string, string];
  const [year, month, day] = d.split('-') as [string, string, string];
  const [hour, minutes, seconds] = t.split(':') as [string, string, string];
  return { year, month, day, hour, minutes, seconds };
};

const venue = (id: number, extra: Partial<WireVenue> = {}): WireVenue => ({
  id,
  venue: `Hall &amp; Garden ${id}`,
  slug: `hall-${id}`,
  city: 'K&ouml;ln',
  show_map: true,
  show_map_link: false,
  global_id: `example.org?id=${id}`,
  global_id_lineage: [`example.org?id=${id}`],
  ...extra,
});

function wireEvent(extra: Partial<WireEvent> = {}): WireEvent {
  const start = '2027-03-28 01:30:00';
  const end = '2027-03-28 04:00:00';
  return {
    id: 7,
    global_id: 'example.org?id=7',
    global_id_lineage: ['example.org?id=7'],
    author: '0',
    status: 'publish',
    date: '2026-01-01 10:00:00',
    date_utc: '2026-01-01 09:00:00',
    modified: '2026-01-02 10:00:00',
    modified_utc: '2026-01-02 09:00:00',
    url: 'https://example.org/event/x/',
    rest_url: 'https://example.org/wp-json/x',
    title: 'Rock &amp; Roll &#8211; Founders&#8217; Night',
    description: '<p>Bring &amp; share</p>',
    excerpt: '',
    slug: 'x',
    image: false,
    all_day: false,
    start_date: start,
    start_date_details: details(start),
    end_date: end,
    end_date_details: details(end),
    // Berlin switches to summer time at 02:00 that night: the start is +01:00, the end +02:00.
    utc_start_date: '2027-03-28 00:30:00',
    utc_start_date_details: details('2027-03-28 00:30:00'),
    utc_end_date: '2027-03-28 02:00:00',
    utc_end_date_details: details('2027-03-28 02:00:00'),
    timezone: 'Europe/Berlin',
    timezone_abbr: 'CET',
    cost: '&euro;5 &ndash; &euro;20',
    cost_details: { currency_symbol: '€', currency_code: 'EUR', currency_position: 'prefix', values: ['5', '20'] },
    website: '',
    show_map: true,
    show_map_link: null,
    hide_from_listings: false,
    sticky: false,
    featured: true,
    categories: [],
    tags: [],
    venue: [],
    organizer: [],
    custom_fields: [],
    ...extra,
  };
}

describe('normalizeEvent', () => {
  it('decodes titles, keeps descriptions as HTML and builds ISO dates with the offset of each instant', () => {
    const e = normalizeEvent(wireEvent());
    expect(e.title).toBe('Rock & Roll – Founders’ Night');
    expect(e.description).toBe('<p>Bring &amp; share</p>');
    expect(e.startDate).toBe('2027-03-28T01:30:00+01:00');
    expect(e.endDate).toBe('2027-03-28T04:00:00+02:00');
    expect(e.startDateUtc).toBe('2027-03-28T00:30:00Z');
    expect(e.publishedAt).toBe('2026-01-01T10:00:00+01:00');
    expect(e.cost).toBe('€5 – €20');
    expect(e.costDetails).toEqual({
      currencySymbol: '€',
      currencyCode: 'EUR',
      currencyPosition: 'prefix',
      values: [5, 20],
    });
    expect(e.authorId).toBeNull();
    expect(e.image).toBeNull();
    expect(e.website).toBeNull();
    expect(e.customFields).toEqual([]);
    expect(e.venues).toEqual([]);
  });

  it('takes venue as one object, a list or [] and custom fields as an object', () => {
    const one = normalizeEvent(wireEvent({ venue: venue(3), author: '12' }));
    expect(one.venues.map((v) => v.id)).toEqual([3]);
    expect(one.venues[0]).toMatchObject({ name: 'Hall & Garden 3', city: 'Köln', showMap: true, showMapLink: false });
    expect(one.authorId).toBe('12');
    expect(normalizeEvent(wireEvent({ venue: [venue(3), venue(4)] })).venues.map((v) => v.id)).toEqual([3, 4]);
    expect(venueList([])).toEqual([]);
    const fields = normalizeEvent(
      wireEvent({ custom_fields: { _ecp_custom_2: { label: 'Dress code', value: 'Smart' } } }),
    ).customFields;
    expect(fields).toEqual([{ key: '_ecp_custom_2', label: 'Dress code', value: 'Smart' }]);
  });

  it('keeps blanked (password-protected) flags as null and reads an image object', () => {
    const image = {
      url: 'https://img/x.jpg',
      id: 9,
      extension: 'jpg',
      width: 10,
      height: 20,
      sizes: { thumbnail: { width: 1, height: 2, 'mime-type': 'image/jpeg', url: 'https://img/t.jpg' } },
    };
    const e = normalizeEvent(wireEvent({ featured: null, all_day: null, image }));
    expect(e.featured).toBeNull();
    expect(e.allDay).toBeNull();
    expect(e.image).toMatchObject({
      id: 9,
      url: 'https://img/x.jpg',
      sizes: [{ name: 'thumbnail', url: 'https://img/t.jpg', mimeType: 'image/jpeg' }],
    });
  });

  it('normalises a password-protected venue whose name is [] and terms with parents', () => {
    expect(normalizeVenue(venue(5, { venue: [] })).name).toBe('');
    const organizer = {
      id: 6,
      organizer: 'Ben &amp; Jo',
      email: 'ben&#64;example.org',
      author: '3',
      date: '2026-01-01 10:00:00',
      date_utc: '2026-01-01 09:00:00',
      global_id: 'g',
      global_id_lineage: ['g'],
    };
    expect(normalizeOrganizer(organizer)).toMatchObject({
      id: 6,
      name: 'Ben & Jo',
      email: 'ben@example.org',
      authorId: '3',
      publishedAt: '2026-01-01T10:00:00+01:00',
      image: null,
      phone: null,
    });
    expect(normalizeOrganizer({ ...organizer, organizer: [] }).name).toBe('');
    const term = normalizeTerm({
      id: 4,
      count: 2,
      description: '',
      name: 'Arts &amp; Crafts',
      slug: 'arts',
      taxonomy: 'tribe_events_cat',
      parent: 2,
      meta: [],
      url: 'u',
      urls: { self: 's', collection: 'c' },
    });
    expect(term).toMatchObject({ name: 'Arts & Crafts', parentId: 2, url: 'u' });
  });
});

describe('dates', () => {
  it('falls back to the time zone when there is no UTC field, including WordPress manual offsets', () => {
    expect(isoDateTime('2027-07-01 12:00:00', undefined, 'America/New_York')).toBe('2027-07-01T12:00:00-04:00');
    expect(isoDateTime('2027-07-01 12:00:00', undefined, 'UTC+5:30')).toBe('2027-07-01T12:00:00+05:30');
    expect(isoDateTime('2027-07-01 12:00:00', '2027-07-01 12:00:00')).toBe('2027-07-01T12:00:00Z');
    expect(zoneOffsetMinutes('Not/AZone', 0)).toBeNull();
  });

  it('parses the upstream form, bare dates and ISO 8601, and refuses impossible values', () => {
    expect(parseCalendarDate('2027-03-01 18:00:00', 'x')).toEqual({ wall: '2027-03-01 18:00:00', offsetMinutes: null });
    expect(parseCalendarDate('2027-03-01', 'x')).toEqual({ wall: '2027-03-01 00:00:00', offsetMinutes: null });
    expect(parseCalendarDate('2027-03-01T18:00:00.250-05:30', 'x')).toEqual({
      wall: '2027-03-01 18:00:00',
      offsetMinutes: -330,
    });
    for (const bad of ['2027-02-29 10:00:00', '2027-01-01 24:00:00', 'tomorrow', '01/02/2027']) {
      expect(() => parseCalendarDate(bad, 'filter.startDate')).toThrow(/filter\.startDate/);
    }
    expect(filterDate('2027-03-01T18:00:00Z', 'x')).toBe('2027-03-01T18:00:00+00:00');
    expect(filterDate('2027-03-01T18:00', 'x')).toBe('2027-03-01 18:00:00');
  });

  it('turns an instant into the wall clock of the event time zone for writes', () => {
    expect(writeDate('2027-01-10T12:00:00Z', 'x', 'Europe/Berlin')).toEqual({ wall: '2027-01-10 13:00:00' });
    expect(writeDate('2027-01-10 12:00:00', 'x', 'Europe/Berlin')).toEqual({ wall: '2027-01-10 12:00:00' });
    expect(writeDate('2027-01-10T12:00:00+05:30', 'x', undefined)).toEqual({
      wall: '2027-01-10 12:00:00',
      timezone: 'UTC+5:30',
    });
  });
});

describe('WordPress errors', () => {
  const res = (status: number, body: unknown) => ({ status, headers: {}, body, bytes: 0 });

  it('maps codes and statuses to kinds, with graph-style parameter names and no upstream text', () => {
    const invalid = toUpstreamError(
      res(400, {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): start_date at https://site/x',
        data: { status: 400, params: { start_date: 'Invalid parameter.' } },
      }),
    );
    expect(invalid).toMatchObject({ kind: 'bad-request', params: ['startDate'], upstreamCode: 'rest_invalid_param' });
    expect(invalid.message).not.toMatch(/https?:/);
    expect(
      toUpstreamError(
        res(400, {
          code: 'rest_missing_callback_param',
          message: '',
          data: { status: 400, params: ['title', 'end_date'] },
        }),
      ).params,
    ).toEqual(['title', 'endDate']);
    // The graph's own argument names, where they are not the camelCase of the upstream's.
    const terms = res(400, {
      code: 'rest_invalid_param',
      message: '',
      data: { status: 400, params: { event: '', orderby: '', parent: '', venue: '' } },
    });
    expect(toUpstreamError(terms).params).toEqual(['eventId', 'orderBy', 'parentId', 'venue']);
    expect(toUpstreamError(terms, { operation: 'events.list' }).params).toEqual([
      'eventId',
      'orderBy',
      'parentId',
      'venues',
    ]);
    expect(
      toUpstreamError(
        res(400, { code: 'rest_invalid_param', message: '', data: { status: 400, params: { id: 'x' } } }),
        { single: true },
      ).kind,
    ).toBe('not-found');
    expect(
      toUpstreamError(res(400, { code: 'rest_invalid_param', message: '', data: { status: 400, params: { id: 'x' } } }))
        .kind,
    ).toBe('bad-request');
    expect(toUpstreamError(res(404, { code: 'rest-event-not-found', message: '', data: { status: 404 } })).kind).toBe(
      'not-found',
    );
    expect(toUpstreamError(res(401, { code: 'rest_forbidden', message: '', data: { status: 401 } })).kind).toBe(
      'unauthenticated',
    );
    expect(toUpstreamError(res(403, { code: 'rest_forbidden', message: '', data: { status: 403 } })).kind).toBe(
      'forbidden',
    );
    expect(toUpstreamError(res(410, { code: 'event-is-in-trash', message: '', data: { status: 410 } })).kind).toBe(
      'gone',
    );
    expect(toUpstreamError(res(502, '<html>Bad gateway</html>')).kind).toBe('unavailable');
    expect(isEndOfList(res(404, { code: 'venue-archive-page-not-found', message: '', data: { status: 404 } }))).toBe(
      true,
    );
    expect(isEndOfList(res(404, { code: 'rest-event-not-found', message: '', data: { status: 404 } }))).toBe(false);
  });
});

describe('credentials', () => {
  const headers = (h: Record<string, string> = {}) => new Headers(h);

  it('reads anonymously and writes with the application password', () => {
    const auth = calendarAuth(
      { authMode: 'configured', user: 'ed', appPassword: 'pw pw' },
      headers({ authorization: 'Bearer caller' }),
    );
    expect(auth.read).toEqual({ headers: {}, identity: 'anonymous' });
    expect(auth.write).toEqual({
      headers: { authorization: `Basic ${Buffer.from('ed:pw pw').toString('base64')}` },
      identity: 'user:ed',
    });
  });

  it('forwards the caller’s Authorization under a hashed identity, or goes anonymous', () => {
    const auth = calendarAuth({ authMode: 'forward' }, headers({ authorization: 'Basic abc' }));
    expect(auth.write.headers).toEqual({ authorization: 'Basic abc' });
    expect(auth.read.identity).toMatch(/^token:[0-9a-f]{16}$/);
    expect(auth.read.identity).not.toContain('abc');
    expect(calendarAuth({ authMode: 'forward' }, headers()).write).toEqual({ headers: {}, identity: 'anonymous' });
    expect(calendarAuth({ authMode: 'configured' }, headers()).write.identity).toBe('anonymous');
  });
});
