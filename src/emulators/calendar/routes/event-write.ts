/**
 * Event write bodies → records, with the plugin's rules: dates read in the event time zone (an
 * explicit offset is not converted), terms by id/name/slug (unknown names created, unknown ids
 * skipped), venue/organizer by id, `{id}` or data (created on the fly), and the update quirk —
 * omitted booleans become false, omitted status becomes publish, omitted venue/organizer unlink.
 */
import type { WireTaxonomy } from '../../../calendar/wire.js';
import { isValidTimezone, parseDate, utcWall } from '../dates.js';
import type { RouteDeps } from '../respond.js';
import { REGISTERED_STATUSES, type CostRecord, type EventRecord, type PostStatus } from '../store.js';
import {
  isBoolish,
  isDate,
  isPositiveInt,
  isUrlOrEmpty,
  toList,
  truthy,
  type ArgSpecs,
  type Params,
} from '../validate.js';
import { arg, idsArg } from '../validate.js';
import { createLinked } from './linked-write.js';

export function eventWriteArgs(deps: RouteDeps, creating: boolean): ArgSpecs {
  const { store } = deps;
  const bool = (description: string) => ({ type: 'boolean' as const, description, validate: isBoolish });
  const linked = (kind: 'venue' | 'organizer') => (v: unknown) => {
    const items = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v];
    return items.every((item) => {
      if (item === '' || item === null) return true;
      if (typeof item === 'object') {
        const o = item as Record<string, unknown>;
        if (o.id !== undefined) return isPositiveInt(o.id) && store.post(Number(o.id))?.kind === kind;
        return typeof o[kind] === 'string' && o[kind].trim() !== '';
      }
      return isPositiveInt(item) && store.post(Number(item))?.kind === kind;
    });
  };
  return {
    title: arg('string', 'The event title', { required: creating, validate: (v) => typeof v === 'string' }),
    start_date: arg('string', 'The event start date and time', { required: creating, validate: isDate }),
    end_date: arg('string', 'The event end date and time', { required: creating, validate: isDate }),
    author: arg('integer', 'The author id', { validate: isPositiveInt }),
    date: arg('string', 'Publication date', { validate: isDate }),
    date_utc: arg('string', 'Publication date (UTC)', { validate: isDate }),
    description: arg('string', 'The event description'),
    slug: arg('string', 'The event slug'),
    excerpt: arg('string', 'The event excerpt'),
    status: arg('string', 'The event post status', {
      validate: (v) => typeof v === 'string' && REGISTERED_STATUSES.includes(v),
    }),
    timezone: arg('string', 'The event time zone', {
      validate: (v) => v === '' || (typeof v === 'string' && isValidTimezone(v)),
    }),
    all_day: { ...bool('Whether the event lasts the whole day'), default: false },
    image: arg('string', 'Featured image id or URL', {
      validate: (v) => isPositiveInt(v) || (typeof v === 'string' && isUrlOrEmpty(v)),
    }),
    cost: arg('string', 'The event cost, e.g. "$10" or "5 - 20"'),
    website: arg('string', 'The event website URL', { default: null, validate: isUrlOrEmpty }),
    show_map: bool('Whether to show a map'),
    show_map_link: bool('Whether to show a map link'),
    hide_from_listings: bool('Hide the event in listings'),
    sticky: bool('Stick the event in month views'),
    featured: bool('Feature the event'),
    categories: idsArg('Category ids, names or slugs', { default: null }),
    tags: idsArg('Tag ids, names or slugs', { default: null }),
    venue: idsArg('Venue id or data', { default: null, validate: linked('venue') }),
    organizer: idsArg('Organizer ids or data', { default: null, validate: linked('organizer') }),
    ...(creating ? {} : { password: { type: 'string' as const, description: 'The event password' } }),
  };
}

const CURRENCIES: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY' };

/** "$10", "5 - 20", "€5 – €20", "10 €", "Free" → cost record. */
function parseCost(raw: unknown): CostRecord {
  const s = String(raw ?? '').trim();
  if (s === '') return { values: [], symbol: '', code: '', position: '' };
  const numbers = (s.match(/\d+(?:[.,]\d+)?/g) ?? []).map((n) => n.replace(',', '.'));
  if (/^free$/i.test(s) || (numbers.length > 0 && numbers.every((n) => Number(n) === 0)))
    return { values: ['0'], symbol: '', code: '', position: '' };
  const symbol = /[^\d\s.,–-]/u.exec(s)?.[0] ?? '';
  const position = symbol === '' ? '' : s.indexOf(symbol) < s.search(/\d/) ? 'prefix' : 'postfix';
  const values = [...new Set(numbers)].sort((a, b) => Number(a) - Number(b));
  return { values, symbol, code: CURRENCIES[symbol] ?? '', position };
}

/** Term list (ids, names, slugs) → term ids; unknown names are created, unknown ids skipped. */
function termIds(deps: RouteDeps, taxonomy: WireTaxonomy, v: unknown): number[] {
  const ids: number[] = [];
  for (const item of toList(v)) {
    const found =
      deps.store.findTerm(taxonomy, item) ??
      deps.store.terms(taxonomy).find((t) => t.name.toLowerCase() === item.toLowerCase());
    if (found) ids.push(found.id);
    else if (!/^\d+$/.test(item)) {
      const slug = deps.store.uniqueSlug(item, (s) => deps.store.terms(taxonomy).some((t) => t.slug === s));
      ids.push(deps.store.addTerm({ taxonomy, name: item, slug, description: '', parent: 0 }).id);
    }
  }
  return [...new Set(ids)];
}

function linkedIds(deps: RouteDeps, kind: 'venue' | 'organizer', v: unknown): number[] {
  if (v === undefined || v === null || v === '') return [];
  const items = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v];
  const ids: number[] = [];
  for (const item of items) {
    if (item === '' || item === null) continue;
    if (typeof item === 'object') {
      const o = item as Params;
      if (o.id !== undefined) ids.push(Number(o.id));
      else ids.push(createLinked(deps, kind, o).id);
    } else ids.push(Number(item));
  }
  return [...new Set(ids)];
}

/** A date value as a wall clock in the event time zone (the offset's own wall clock is kept). */
const wall = (v: unknown, now: Date) => parseDate(String(v), now)!.wall;

/** Applies a create/update body to `event` (fresh defaults on create). */
export function applyEventBody(deps: RouteDeps, event: EventRecord, p: Params, canPublish: boolean): void {
  const now = deps.now();
  if (typeof p.title === 'string') event.title = p.title;
  if (typeof p.description === 'string') event.description = p.description;
  if (typeof p.excerpt === 'string') event.excerpt = p.excerpt;
  if (p.author !== undefined) event.author = Number(p.author);
  if (p.date !== undefined) event.date = wall(p.date, now);
  if (typeof p.timezone === 'string') event.timezone = p.timezone || 'UTC';
  if (p.start_date !== undefined) event.start = wall(p.start_date, now);
  if (p.end_date !== undefined) event.end = wall(p.end_date, now);
  // Update quirk: every one of these is written, omitted ones as false.
  event.allDay = truthy(p.all_day);
  if (event.allDay) {
    event.start = `${event.start.slice(0, 10)} 00:00:00`;
    event.end = `${event.end.slice(0, 10)} 23:59:59`;
  }
  event.showMap = truthy(p.show_map);
  event.showMapLink = truthy(p.show_map_link);
  event.hidden = truthy(p.hide_from_listings);
  event.sticky = truthy(p.sticky);
  event.featured = truthy(p.featured);
  // Omitted status: publish for users who can publish.
  event.status = (typeof p.status === 'string' ? p.status : 'publish') as PostStatus;
  if (!canPublish && (event.status === 'publish' || event.status === 'future')) event.status = 'pending';
  if (p.cost !== undefined) event.cost = parseCost(p.cost);
  if (p.website !== undefined && p.website !== null) event.website = String(p.website);
  if (p.image !== undefined) event.image = imageFrom(p.image);
  if (p.categories !== undefined && p.categories !== null)
    event.categoryIds = termIds(deps, 'tribe_events_cat', p.categories);
  if (p.tags !== undefined && p.tags !== null) event.tagIds = termIds(deps, 'post_tag', p.tags);
  // Omitted venue/organizer resolve to "none".
  event.venueIds = linkedIds(deps, 'venue', p.venue);
  event.organizerIds = linkedIds(deps, 'organizer', p.organizer);
  if (typeof p.slug === 'string' && p.slug.trim() !== '') {
    event.slug = deps.store.uniqueSlug(p.slug, (s) =>
      deps.store.posts('event').some((e) => e.slug === s && e.id !== event.id),
    );
  }
  event.modified = utcWall(now);
}

function imageFrom(v: unknown): EventRecord['image'] {
  if (typeof v !== 'string' || !/^https?:/.test(v)) return undefined;
  const ext = /\.(\w+)(?:\?|$)/.exec(v)?.[1] ?? 'jpg';
  return { url: v, id: 0, extension: ext, width: 0, height: 0, sizes: {} };
}

export function newEvent(deps: RouteDeps, p: Params): EventRecord {
  const now = utcWall(deps.now());
  const id = deps.store.nextPostId();
  const title = String(p.title ?? '');
  return {
    kind: 'event',
    id,
    author: 1,
    status: 'publish',
    date: now,
    modified: now,
    slug: deps.store.uniqueSlug(title, (s) => deps.store.posts('event').some((e) => e.slug === s)),
    title,
    description: '',
    excerpt: '',
    allDay: false,
    start: now,
    end: now,
    timezone: 'UTC',
    cost: parseCost(''),
    showMap: true,
    showMapLink: true,
    hidden: false,
    sticky: false,
    featured: false,
    categoryIds: [],
    tagIds: [],
    venueIds: [],
    organizerIds: [],
    customFields: {},
    postParent: 0,
  };
}
