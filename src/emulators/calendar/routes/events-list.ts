/**
 * `GET /events`: the archive with the plugin's default window (yesterday 00:00 site time to +24
 * months), inclusive-day date rounding unless `strict_dates`, start ≥ start_date / end ≤ end_date,
 * strict starts_… / ends_…, hidden events never listed, status by role, 50 per page at most, 404 past
 * the last page. Event dates are compared as event-local wall clocks, as the plugin does outside
 * "one site time zone" mode (the site time zone itself is UTC).
 */
import type { Context } from 'hono';
import type { Env } from '../../kit/control.js';
import { authenticate, type CalendarUser } from '../auth.js';
import { addMonths, endOfDay, parseDate, startOfDay, toSiteWall, utcWall } from '../dates.js';
import { sendArchive, type RouteDeps } from '../respond.js';
import { serializeEvent } from '../serialize.js';
import { REGISTERED_STATUSES, type EventRecord } from '../store.js';
import { checkArgs, isBoolish, isDate, isNonEmptyString, isPositiveInt, pageArgs, paging } from '../validate.js';
import { arg, idsArg } from '../validate.js';
import { readParams, toList, truthy } from '../validate.js';
import type { ArgSpecs, Params } from '../validate.js';

const DATE_FILTERS = ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;

export function eventListArgs(deps: RouteDeps, user: CalendarUser | null): ArgSpecs {
  const { store } = deps;
  const allExist = (find: (s: string) => unknown) => (v: unknown) =>
    toList(v).length > 0 && toList(v).every((s) => find(s) !== undefined);
  const dateArg = (description: string) => ({ type: 'string' as const, description, validate: isDate });
  return {
    ...pageArgs(),
    start_date: dateArg('Events starting on or after this date'),
    end_date: dateArg('Events ending on or before this date'),
    starts_before: dateArg('Events starting before this date'),
    starts_after: dateArg('Events starting after this date'),
    ends_before: dateArg('Events ending before this date'),
    ends_after: dateArg('Events ending after this date'),
    strict_dates: arg('boolean', 'Use the given times exactly instead of whole days', {
      default: false,
      validate: isBoolish,
    }),
    search: arg('string', 'Events whose title or description contains this text', { validate: isNonEmptyString }),
    categories: idsArg('Category ids or slugs', { validate: allExist((s) => store.findTerm('tribe_events_cat', s)) }),
    tags: idsArg('Tag ids or slugs', { validate: allExist((s) => store.findTerm('post_tag', s)) }),
    venue: idsArg('Venue ids', {
      validate: allExist((s) => (isPositiveInt(s) ? store.postOf('venue', Number(s)) : undefined)),
    }),
    organizer: idsArg('Organizer ids', {
      validate: allExist((s) => (isPositiveInt(s) ? store.postOf('organizer', Number(s)) : undefined)),
    }),
    featured: arg('boolean', 'Only featured (true) or non-featured (false) events', { validate: isBoolish }),
    status: {
      type: 'string',
      description: 'Post status(es), CSV',
      // Anonymous users may only ask for `publish`; editors for any registered status.
      validate: (v) =>
        toList(v).length > 0 &&
        toList(v).every((s) => (user?.canEdit ? REGISTERED_STATUSES.includes(s) : s === 'publish')),
    },
    geoloc: arg('boolean', 'Requires Events Calendar Pro (not active)', { validate: () => false }),
    geoloc_lat: arg('number', 'Requires Events Calendar Pro (not active)', { validate: () => false }),
    geoloc_lng: arg('number', 'Requires Events Calendar Pro (not active)', { validate: () => false }),
    include: idsArg('Only these event ids; date filters are ignored', {
      validate: (v) => toList(v).length > 0 && toList(v).every(isPositiveInt),
    }),
    post_parent: arg('integer', 'Events whose parent is this event', {
      validate: (v) => isPositiveInt(v) && store.postOf('event', Number(v)) !== undefined,
    }),
    // Event Tickets is not active: asking for ticketed events is invalid.
    ticketed: arg('boolean', 'Requires Event Tickets (not active)', { validate: (v) => isBoolish(v) && !truthy(v) }),
  };
}

/** A filter date as a site wall clock; inclusive mode rounds to whole days. */
function bound(raw: unknown, now: Date, strict: boolean, edge: 'start' | 'end'): string {
  const parsed = parseDate(String(raw), now)!;
  const wall = toSiteWall(parsed);
  if (strict) return wall;
  return edge === 'start' ? startOfDay(wall) : endOfDay(wall);
}

export function listEvents(
  deps: RouteDeps,
  params: Params,
  user: CalendarUser | null,
): { events: EventRecord[]; query: [string, unknown][] } {
  const { store } = deps;
  const now = deps.now();
  const strict = truthy(params.strict_dates);
  const hasRange = DATE_FILTERS.some((k) => params[k] !== undefined);
  const include = params.include !== undefined ? toList(params.include).map(Number) : undefined;
  const explicitStart = params.start_date !== undefined;
  const explicitEnd = params.end_date !== undefined;
  // Defaults: yesterday (inclusive → 00:00) to +24 months; dropped when a starts_*/ends_* filter is used.
  const startDate = explicitStart
    ? bound(params.start_date, now, strict, 'start')
    : hasRange
      ? undefined
      : startOfDay(utcWall(new Date(now.getTime() - 86_400_000)));
  const endDate = explicitEnd
    ? bound(params.end_date, now, strict, 'end')
    : hasRange
      ? undefined
      : endOfDay(addMonths(utcWall(now), 24));
  const range = Object.fromEntries(
    DATE_FILTERS.map((k) => [k, params[k] === undefined ? undefined : bound(params[k], now, strict, 'end')]),
  );

  const statuses = params.status !== undefined ? toList(params.status) : user?.canEdit ? undefined : ['publish'];
  const cats = toList(params.categories).map((s) => store.findTerm('tribe_events_cat', s)!.id);
  const tags = toList(params.tags).map((s) => store.findTerm('post_tag', s)!.id);
  const venues = toList(params.venue).map(Number);
  const organizers = toList(params.organizer).map(Number);
  const search = typeof params.search === 'string' ? params.search.toLowerCase() : undefined;

  const events = store
    .posts('event')
    .filter((e) => !e.hidden)
    // Editors' default is WordPress's `any`: every status but trash.
    .filter((e) => (statuses ? statuses.includes(e.status) : e.status !== 'trash'))
    .filter((e) => !include || include.includes(e.id))
    .filter((e) => include !== undefined || ((!startDate || e.start >= startDate) && (!endDate || e.end <= endDate)))
    .filter(
      (e) =>
        include !== undefined ||
        ((!range.starts_before || e.start < range.starts_before) &&
          (!range.starts_after || e.start > range.starts_after)),
    )
    .filter(
      (e) =>
        include !== undefined ||
        ((!range.ends_before || e.end < range.ends_before) && (!range.ends_after || e.end > range.ends_after)),
    )
    .filter((e) => !search || e.title.toLowerCase().includes(search) || e.description.toLowerCase().includes(search))
    .filter((e) => cats.length === 0 || e.categoryIds.some((id) => cats.includes(id)))
    .filter((e) => tags.length === 0 || e.tagIds.some((id) => tags.includes(id)))
    .filter((e) => venues.length === 0 || e.venueIds.some((id) => venues.includes(id)))
    .filter((e) => organizers.length === 0 || e.organizerIds.some((id) => organizers.includes(id)))
    .filter((e) => params.featured === undefined || e.featured === truthy(params.featured))
    .filter((e) => params.post_parent === undefined || e.postParent === Number(params.post_parent))
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id - b.id));

  const { page, perPage } = paging(params);
  // rest_url echoes the parsed args; categories/tags become a tax query and are not echoed.
  const query: [string, unknown][] = [
    ['page', page > 1 ? page : undefined],
    ['per_page', perPage],
    ['start_date', explicitStart ? startDate : undefined],
    ['end_date', explicitEnd ? endDate : undefined],
    ['search', params.search],
    ['status', statuses?.join(',')],
    ['include', include?.join(',')],
    ...DATE_FILTERS.map((k): [string, unknown] => [k, range[k]]),
    ['post_parent', params.post_parent],
    ['venue', venues.length ? venues.join(',') : undefined],
    ['organizer', organizers.length ? organizers.join(',') : undefined],
    ['featured', params.featured],
  ];
  return { events, query };
}

export async function getEvents(c: Context<Env>, deps: RouteDeps): Promise<Response> {
  const user = authenticate(c.req.header('authorization'));
  const params = await readParams(c);
  checkArgs(params, eventListArgs(deps, user));
  const { events, query } = listEvents(deps, params, user);
  const archive = { kind: 'event', base: `${deps.site.apiRoot}/events/`, query, ...paging(params) };
  return sendArchive(c, archive, events, (e) =>
    serializeEvent(deps.site, deps.store, e, { blank: e.password !== undefined }),
  );
}
