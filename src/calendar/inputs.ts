/**
 * Client input → upstream parameters, checked before any call: ids must be WordPress ids, dates must
 * parse, exactly one of id/slug addresses a record. Every failure is BAD_USER_INPUT naming the
 * argument.
 */
import { badInput } from '../graph/errors.js';
import type { RecordRef, WireQuery } from './client.js';
import { filterDate } from './dates.js';

export function recordId(value: string | number, argument: string): number {
  const text = String(value).trim();
  // Beyond 2^53 a JavaScript number would round to a neighbouring id.
  if (!/^\d{1,16}$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < 1) throw badInput(`"${argument}" must be a calendar record id (a positive whole number), got "${value}".`, argument);
  return Number(text);
}

export const recordIds = (values: readonly (string | number)[], argument: string): number[] => values.map((v) => recordId(v, argument));

/** `id` or `slug`, exactly one. */
export function recordRef(args: { id?: string | number | null; slug?: string | null }, what = 'record'): RecordRef {
  const hasId = args.id !== undefined && args.id !== null;
  const hasSlug = args.slug !== undefined && args.slug !== null;
  if (hasId === hasSlug) throw badInput(`Give exactly one of "id" or "slug" to find the ${what}.`, hasId ? 'slug' : 'id');
  if (hasId) return { id: recordId(args.id!, 'id') };
  const slug = args.slug!.trim();
  if (!slug || slug.includes('/')) throw badInput('"slug" must be a non-empty slug without "/".', 'slug');
  return { slug };
}

/** Term references: numeric ids stay numbers, anything else is a slug (or, on writes, a name). */
export function termRefs(values: readonly string[]): (number | string)[] {
  return values.map((v) => (/^\d+$/.test(v.trim()) ? Number(v.trim()) : v.trim()));
}

/** A search text: an empty one would match everything, which is surely not what was meant. */
function searchText(value: string, argument: string): string {
  if (!value.trim()) throw badInput(`"${argument}" must not be empty.`, argument);
  return value;
}

export interface EventFilterInput {
  startDate?: string | null;
  endDate?: string | null;
  startDay?: string | null;
  endDay?: string | null;
  startsBefore?: string | null;
  startsAfter?: string | null;
  endsBefore?: string | null;
  endsAfter?: string | null;
  strictDates?: boolean | null;
  search?: string | null;
  categories?: readonly string[] | null;
  tags?: readonly string[] | null;
  venues?: readonly string[] | null;
  organizers?: readonly string[] | null;
  featured?: boolean | null;
  statuses?: readonly string[] | null;
  status?: readonly string[] | null;
  include?: readonly string[] | null;
  postParent?: string | null;
  ticketed?: boolean | null;
  geoloc?: boolean | null;
  geolocLat?: number | null;
  geolocLng?: number | null;
}

const DATE_FILTERS = [
  ['startDate', 'start_date'],
  ['endDate', 'end_date'],
  ['startsBefore', 'starts_before'],
  ['startsAfter', 'starts_after'],
  ['endsBefore', 'ends_before'],
  ['endsAfter', 'ends_after'],
] as const;

/** The events filter as `GET /events` query parameters; `argument` prefixes names in errors. */
export function eventsQuery(filter: EventFilterInput | null | undefined, argument = 'filter'): WireQuery {
  const f = filter ?? {};
  const q: WireQuery = {};
  for (const [name, wire] of DATE_FILTERS) {
    const v = f[name];
    if (v !== undefined && v !== null) q[wire] = filterDate(v, `${argument}.${name}`);
  }
  // Whole days: from the first second of the start day to the last second of the end day.
  for (const [day, full, wire, time] of [['startDay', 'startDate', 'start_date', '00:00:00'], ['endDay', 'endDate', 'end_date', '23:59:59']] as const) {
    const v = f[day];
    if (v == null) continue;
    if (f[full] != null) throw badInput(`Give "${argument}.${full}" or "${argument}.${day}", not both.`, `${argument}.${day}`);
    q[wire] = filterDate(`${v} ${time}`, `${argument}.${day}`);
  }
  if (f.strictDates != null) q.strict_dates = f.strictDates;
  if (f.search != null) q.search = searchText(f.search, `${argument}.search`);
  if (f.categories?.length) q.categories = termRefs(f.categories);
  if (f.tags?.length) q.tags = termRefs(f.tags);
  if (f.venues?.length) q.venue = recordIds(f.venues, `${argument}.venues`);
  if (f.organizers?.length) q.organizer = recordIds(f.organizers, `${argument}.organizers`);
  if (f.featured != null) q.featured = f.featured;
  if (f.statuses?.length && f.status?.length) throw badInput(`Give "${argument}.statuses" or the deprecated "${argument}.status", not both.`, `${argument}.statuses`);
  if (f.statuses?.some((s) => s === 'other')) throw badInput(`"${argument}.statuses" cannot hold OTHER: give statuses the site knows.`, `${argument}.statuses`);
  const statuses = f.statuses?.length ? f.statuses : f.status;
  if (statuses?.length) q.status = [...statuses];
  if (f.include?.length) q.include = recordIds(f.include, `${argument}.include`);
  if (f.postParent != null) q.post_parent = recordId(f.postParent, `${argument}.postParent`);
  if (f.ticketed != null) q.ticketed = f.ticketed;
  if (f.geoloc != null) q.geoloc = f.geoloc;
  if ((f.geolocLat == null) !== (f.geolocLng == null)) {
    throw badInput(`"${argument}.geolocLat" and "${argument}.geolocLng" go together.`, `${argument}.${f.geolocLat == null ? 'geolocLat' : 'geolocLng'}`);
  }
  if (f.geolocLat != null) {
    q.geoloc_lat = f.geolocLat;
    q.geoloc_lng = f.geolocLng!;
  }
  return q;
}

export interface PostListInput {
  search?: string | null;
  eventId?: string | null;
  hasEvents?: boolean | null;
  onlyWithUpcoming?: boolean | null;
  status?: string | null;
}

/** `GET /venues` and `GET /organizers` filters. */
export function postListQuery(args: PostListInput): WireQuery {
  const q: WireQuery = {};
  if (args.search != null) q.search = searchText(args.search, 'search');
  if (args.eventId != null) q.event = recordId(args.eventId, 'eventId');
  if (args.hasEvents != null) q.has_events = args.hasEvents;
  if (args.onlyWithUpcoming != null) q.only_with_upcoming = args.onlyWithUpcoming;
  if (args.status != null) q.status = args.status;
  return q;
}

export interface TermListInput {
  search?: string | null;
  include?: readonly string[] | null;
  exclude?: readonly string[] | null;
  order?: 'asc' | 'desc' | null;
  orderBy?: string | null;
  hideEmpty?: boolean | null;
  eventId?: string | null;
  slug?: string | null;
  parentId?: string | null;
}

/** `GET /categories` and `GET /tags` filters. `hide_empty` is sent always: its upstream default hides terms. */
export function termListQuery(args: TermListInput): WireQuery {
  const q: WireQuery = { hide_empty: args.hideEmpty ?? true };
  if (args.search != null) q.search = searchText(args.search, 'search');
  if (args.include?.length) q.include = recordIds(args.include, 'include');
  if (args.exclude?.length) q.exclude = recordIds(args.exclude, 'exclude');
  if (args.order != null) q.order = args.order;
  if (args.orderBy != null) q.orderby = args.orderBy;
  if (args.eventId != null) q.event = recordId(args.eventId, 'eventId');
  if (args.slug != null) q.slug = args.slug;
  if (args.parentId != null) q.parent = args.parentId === '0' ? 0 : recordId(args.parentId, 'parentId');
  return q;
}
