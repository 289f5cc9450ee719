/**
 * Client input → upstream parameters, checked before any call: ids must be WordPress ids, slugs
 * WordPress slugs, dates must parse, time zones must exist, exactly one of id/slug addresses a
 * record. Every failure is BAD_USER_INPUT naming the argument.
 */
import { invalidInput } from '../core/errors.js';
import { decodeGlobalId, upstreamIdOf } from '../core/global-id.js';
import type { RecordRef, WireQuery } from './client.js';
import { filterDate, isBareDay } from './dates.js';

/** The graph's type of each calendar record, whose global ids an argument about that record takes. */
export const RECORD_TYPE = {
  event: 'Event',
  venue: 'Venue',
  organizer: 'Organizer',
  category: 'Category',
  tag: 'Tag',
} as const;
export type RecordNoun = keyof typeof RECORD_TYPE;

/** A record's id in either form: the WordPress id, or the global id of a `noun`. */
export function recordId(value: string | number, argument: string, noun: RecordNoun): number {
  const what = 'a calendar record id (a positive whole number)';
  const text = upstreamIdOf(value, argument, [RECORD_TYPE[noun]], (t) => /^\d+$/.test(t), what);
  // Beyond 2^53 a JavaScript number would round to a neighbouring id.
  if (!/^\d{1,16}$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < 1)
    throw invalidInput(
      `"${argument}" must be a calendar record id (a positive whole number), got "${value}".`,
      argument,
    );
  return Number(text);
}

export const recordIds = (values: readonly (string | number)[], argument: string, noun: RecordNoun): number[] =>
  values.map((v) => recordId(v, argument, noun));

/** WordPress slugs: what `sanitize_title` leaves (lower-case ASCII, digits, `-`, `_`, `%xx` for non-ASCII bytes). */
const SLUG = /^(?:[a-z0-9_-]|%[89a-f][0-9a-f])+$/;
export const MAX_SLUG_LENGTH = 200;

/** Non-ASCII characters percent-encoded as WordPress stores them in a slug (lower-case hex). */
export const encodeSlug = (value: string) =>
  value.replace(/[^\x00-\x7f]+/g, (s) => encodeURIComponent(s).toLowerCase());

/**
 * A slug as WordPress writes it. Non-ASCII characters are accepted and percent-encoded the way
 * WordPress stores them (lower-case hex); anything else — `.`, `..`, `/`, `%2e`, spaces, control
 * characters, upper case — is refused, so a slug can never change the shape of an upstream URL.
 */
export function slugArg(value: string, argument: string): string {
  const encoded = encodeSlug(value);
  if (encoded.length === 0 || encoded.length > MAX_SLUG_LENGTH || !SLUG.test(encoded))
    throw invalidInput(
      `"${argument}" must be a slug of lower-case letters, digits, "-" and "_" (at most ${MAX_SLUG_LENGTH} characters), got "${printable(value)}".`,
      argument,
    );
  return encoded;
}

/** A value safe to quote back in an error message: short, without control characters. */
export function printable(value: string): string {
  const cut = value.length > 60 ? `${value.slice(0, 60)}…` : value;
  return cut.replace(/[\u0000-\u001f\u007f]/g, '?');
}

/** Time zones the plugin accepts: IANA names (`Europe/Berlin`), `UTC`, and manual offsets (`UTC+2`, `UTC-5:30`). */
export function timezoneArg(value: string, argument: string): string {
  const fixed = /^UTC([+-])(\d{1,2})(?::([0-5]\d))?$/.exec(value);
  if (value === 'UTC' || (fixed && Number(fixed[2]) * 60 + Number(fixed[3] ?? 0) <= 14 * 60)) return value;
  if (value.includes('/') && /^[A-Za-z0-9_+\-/]+$/.test(value)) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: value });
      return value;
    } catch {
      // fall through
    }
  }
  throw invalidInput(
    `"${argument}" must be a time zone such as "Europe/Berlin", "UTC" or "UTC+2" (got "${printable(value)}").`,
    argument,
  );
}

/** Post statuses a write may set (WordPress's registered ones a client can choose). */
const WRITE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];
/** Statuses a list may filter on (trash too, for editors). */
const FILTER_STATUSES = [...WRITE_STATUSES, 'trash'];

export function statusArg(value: string, argument: string, allowed: readonly string[] = WRITE_STATUSES): string {
  if (!allowed.includes(value))
    throw invalidInput(`"${argument}" must be one of ${allowed.join(', ')} (got "${printable(value)}").`, argument);
  return value;
}

/** An http(s) URL, or empty to clear the field. */
export function urlArg(value: string, argument: string): string {
  if (value === '') return value;
  try {
    const url = new URL(value);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && !/\s/.test(value)) return value;
  } catch {
    // fall through
  }
  throw invalidInput(`"${argument}" must be an http or https URL, or empty (got "${printable(value)}").`, argument);
}

/** `id` or `slug`, exactly one. */
export function recordRef(args: { id?: string | number | null; slug?: string | null }, what: RecordNoun): RecordRef {
  const hasId = args.id !== undefined && args.id !== null;
  const hasSlug = args.slug !== undefined && args.slug !== null;
  if (hasId === hasSlug)
    throw invalidInput(`Give exactly one of "id" or "slug" to find the ${what}.`, hasId ? 'slug' : 'id');
  if (hasId) return { id: recordId(args.id!, 'id', what) };
  return { slug: slugArg(args.slug!, 'slug') };
}

/**
 * Term references: numeric ids stay numbers; otherwise a slug in filters, and a slug or a name (an
 * unknown name creates the term) on writes, where it travels in the body.
 */
export function termRefs(
  values: readonly string[],
  argument: string,
  noun: 'category' | 'tag',
  names = false,
): (number | string)[] {
  return values.map((raw, i) => {
    const v = raw.trim();
    if (/^\d+$/.test(v) || decodeGlobalId(v)) return recordId(v, `${argument}[${i}]`, noun);
    return names ? nonEmpty(v, `${argument}[${i}]`) : slugArg(v, `${argument}[${i}]`);
  });
}

/** A text that must not be blank (a blank search would match everything, surely not what was meant). */
export function nonEmpty(value: string, argument: string): string {
  if (!value.trim()) throw invalidInput(`"${argument}" must not be empty.`, argument);
  return value;
}

export type Maybe<T> = T | null | undefined;
/** Optional texts, yes/no values and lists of texts, by name. */
export type Texts<K extends string> = { [P in K]?: Maybe<string> };
export type Flags<K extends string> = { [P in K]?: Maybe<boolean> };
type Lists<K extends string> = { [P in K]?: Maybe<readonly string[]> };

type DateFilters = 'startDate' | 'endDate' | 'startDay' | 'endDay' | 'startsBefore' | 'startsAfter' | 'endsBefore';
export type EventFilterInput = Texts<DateFilters | 'endsAfter' | 'search' | 'postParent'> &
  Flags<'strictDates' | 'featured' | 'ticketed' | 'geoloc'> &
  Lists<'categories' | 'tags' | 'venues' | 'organizers' | 'statuses' | 'status' | 'include' | 'exclude'> &
  Partial<Record<'geolocLat' | 'geolocLng', Maybe<number>>>;

const DATE_FILTERS = [
  ['startDate', 'start_date'],
  ['endDate', 'end_date'],
  ['startsBefore', 'starts_before'],
  ['startsAfter', 'starts_after'],
  ['endsBefore', 'ends_before'],
  ['endsAfter', 'ends_after'],
] as const;

/** Where a bare day means a whole day: from its first second (`startDate`) or to its last (`endDate`). */
const WHOLE_DAYS: Partial<Record<string, string>> = { startDate: '00:00:00', endDate: '23:59:59' };

/** A date filter's value for the upstream; a bare day only where the filter takes whole days. */
function dateFilter(name: string, value: string, argument: string): string {
  if (!isBareDay(value)) return filterDate(value, argument);
  const time = WHOLE_DAYS[name];
  if (time) return filterDate(`${value.trim()} ${time}`, argument);
  throw invalidInput(
    `"${argument}" is a point in time: give a time too (e.g. "${value.trim()} 00:00:00"); whole days are "startDay"/"endDay".`,
    argument,
  );
}

/** The events filter as `GET /events` query parameters; `argument` prefixes names in errors. */
export function eventsQuery(filter: EventFilterInput | null | undefined, argument = 'filter'): WireQuery {
  const f = filter ?? {};
  const q: WireQuery = {};
  for (const [name, wire] of DATE_FILTERS) {
    const v = f[name];
    if (v !== undefined && v !== null) q[wire] = dateFilter(name, v, `${argument}.${name}`);
  }
  // Whole days: from the first second of the start day to the last second of the end day.
  for (const [day, full, wire, time] of [
    ['startDay', 'startDate', 'start_date', '00:00:00'],
    ['endDay', 'endDate', 'end_date', '23:59:59'],
  ] as const) {
    const v = f[day];
    if (v == null) continue;
    if (f[full] != null)
      throw invalidInput(`Give "${argument}.${full}" or "${argument}.${day}", not both.`, `${argument}.${day}`);
    q[wire] = filterDate(`${v} ${time}`, `${argument}.${day}`);
  }
  if (f.strictDates != null) q.strict_dates = f.strictDates;
  if (f.search != null) q.search = nonEmpty(f.search, `${argument}.search`);
  if (f.categories?.length) q.categories = termRefs(f.categories, `${argument}.categories`, 'category');
  if (f.tags?.length) q.tags = termRefs(f.tags, `${argument}.tags`, 'tag');
  if (f.venues?.length) q.venue = recordIds(f.venues, `${argument}.venues`, 'venue');
  if (f.organizers?.length) q.organizer = recordIds(f.organizers, `${argument}.organizers`, 'organizer');
  if (f.featured != null) q.featured = f.featured;
  if (f.statuses?.length && f.status?.length)
    throw invalidInput(
      `Give "${argument}.statuses" or the deprecated "${argument}.status", not both.`,
      `${argument}.statuses`,
    );
  if (f.statuses?.some((s) => s === 'other'))
    throw invalidInput(
      `"${argument}.statuses" cannot hold OTHER: give statuses the site knows.`,
      `${argument}.statuses`,
    );
  const statuses = f.statuses?.length ? f.statuses : f.status;
  if (statuses?.length)
    q.status = statuses.map((v, i) =>
      statusArg(v, `${argument}.${f.statuses?.length ? 'statuses' : 'status'}[${i}]`, FILTER_STATUSES),
    );
  if (f.include?.length) q.include = recordIds(f.include, `${argument}.include`, 'event');
  if (f.postParent != null) q.post_parent = recordId(f.postParent, `${argument}.postParent`, 'event');
  if (f.ticketed != null) q.ticketed = f.ticketed;
  if (f.geoloc != null) q.geoloc = f.geoloc;
  if ((f.geolocLat == null) !== (f.geolocLng == null))
    throw invalidInput(
      `"${argument}.geolocLat" and "${argument}.geolocLng" go together.`,
      `${argument}.${f.geolocLat == null ? 'geolocLat' : 'geolocLng'}`,
    );
  if (f.geolocLat != null) Object.assign(q, { geoloc_lat: f.geolocLat, geoloc_lng: f.geolocLng! });
  return q;
}

/** Most ids `exclude` takes: each widens the rows read by one. */
export const MAX_EXCLUDED = 50;

/** The events `exclude` leaves out: the upstream has no such filter, the gateway drops them (see graph/paging.ts). */
export function excludedIds(filter: EventFilterInput | null | undefined, argument = 'filter'): number[] {
  const ids = filter?.exclude ?? [];
  if (ids.length > MAX_EXCLUDED)
    throw invalidInput(`"${argument}.exclude" takes at most ${MAX_EXCLUDED} ids.`, `${argument}.exclude`);
  return [...new Set(recordIds(ids, `${argument}.exclude`, 'event'))];
}

export type PostListInput = Texts<'search' | 'eventId' | 'status'> & Flags<'hasEvents' | 'onlyWithUpcoming'>;

/** `GET /venues` and `GET /organizers` filters. */
export function postListQuery(args: PostListInput): WireQuery {
  const q: WireQuery = {};
  if (args.search != null) q.search = nonEmpty(args.search, 'search');
  if (args.eventId != null) q.event = recordId(args.eventId, 'eventId', 'event');
  if (args.hasEvents != null) q.has_events = args.hasEvents;
  if (args.onlyWithUpcoming != null) q.only_with_upcoming = args.onlyWithUpcoming;
  if (args.status != null) q.status = statusArg(args.status, 'status', FILTER_STATUSES);
  return q;
}

export type TermListInput = Texts<'search' | 'orderBy' | 'eventId' | 'slug' | 'parentId'> &
  Flags<'hideEmpty'> &
  Lists<'include' | 'exclude'> & { order?: Maybe<'asc' | 'desc'> };

/** `GET /categories` and `GET /tags` filters. `hide_empty` is sent always: its upstream default hides terms. */
export function termListQuery(args: TermListInput, noun: 'category' | 'tag'): WireQuery {
  const q: WireQuery = { hide_empty: args.hideEmpty ?? true };
  if (args.search != null) q.search = nonEmpty(args.search, 'search');
  if (args.include?.length) q.include = recordIds(args.include, 'include', noun);
  if (args.exclude?.length) q.exclude = recordIds(args.exclude, 'exclude', noun);
  if (args.order != null) q.order = args.order;
  if (args.orderBy != null) q.orderby = args.orderBy;
  if (args.eventId != null) q.event = recordId(args.eventId, 'eventId', 'event');
  if (args.slug != null) q.slug = slugArg(args.slug, 'slug');
  if (args.parentId != null) q.parent = args.parentId === '0' ? 0 : recordId(args.parentId, 'parentId', 'category');
  return q;
}
