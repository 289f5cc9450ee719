/**
 * Per-request DataLoaders over the calendar client. Every record a payload embeds primes its own
 * loader: the venue and organizers inside an event, the categories and tags too, so traversals
 * such as `event { venue { name } organizers { name } }` cost nothing beyond the events page.
 * List pages are keyed by their full arguments, so the same `Venue.events(first: 3)` asked from
 * twenty events is one upstream call.
 */
import DataLoader from 'dataloader';
import { UpstreamError } from '../core/errors.js';
import { UPSTREAM_PAGE_SIZE } from '../core/pages.js';
import type { PageKind } from '../core/upstream-pipeline.js';
import type { CalendarClient, WirePage, WireQuery } from './client.js';
import type { CalendarEvent, CalendarTerm } from './model.js';
import { normalizeEvent, normalizeOrganizer, normalizeTerm, normalizeVenue } from './normalize.js';
import type { WireTerm } from './wire.js';

export interface PageKey {
  query: WireQuery;
  page: number;
  size: number;
  /** The page a query asked for or one filling out a larger `first` (not part of the key). */
  kind?: PageKind;
}

export type Page<T> = WirePage<T> | null;

const pageKey = (k: PageKey) =>
  JSON.stringify([
    Object.entries(k.query)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(),
    k.page,
    k.size,
  ]);

function pages<T>(fetch: (k: PageKey) => Promise<Page<T>>): DataLoader<PageKey, Page<T>, string> {
  // No batching across keys: each key is one upstream page; the loader's job is de-duplication.
  return new DataLoader<PageKey, Page<T>, string>((keys) => Promise.all(keys.map(fetch)), {
    cacheKeyFn: pageKey,
    batch: false,
  });
}

async function settle<K, V>(keys: readonly K[], load: (k: K) => Promise<V>): Promise<(V | Error)[]> {
  return Promise.all(keys.map((k) => load(k).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))))));
}

/** One record by id, `null` where the upstream has none; each id's error stays its own. */
function byId<W, T>(get: (id: number) => Promise<W | null>, map: (w: W) => T): DataLoader<number, T | null> {
  return new DataLoader<number, T | null>((ids) =>
    settle(ids, async (id) => {
      const w = await get(id);
      return w ? map(w) : null;
    }),
  );
}

/** One record by slug, which also primes its by-id loader. */
function bySlug<W extends { id: number }, T>(
  get: (slug: string) => Promise<W | null>,
  map: (w: W) => T,
  ids: DataLoader<number, T | null>,
): DataLoader<string, T | null> {
  return new DataLoader<string, T | null>((slugs) =>
    settle(slugs, async (slug) => {
      const w = await get(slug);
      if (!w) return null;
      const n = map(w);
      ids.prime(w.id, n);
      return n;
    }),
  );
}

type ListPage<W> = (q: WireQuery, page: number, size: number, kind?: PageKind) => Promise<WirePage<W> | null>;

/** A list page loader whose records go through `map` (which may prime other loaders). */
function mappedPages<W, T>(list: ListPage<W>, map: (w: W) => T): DataLoader<PageKey, Page<T>, string> {
  return pages(async (k) => {
    const page = await list(k.query, k.page, k.size, k.kind);
    return page && { total: page.total, items: page.items.map(map) };
  });
}

/** A list page loader whose records also prime their by-id loader. */
function primedPages<W, T extends { id: number }>(
  list: ListPage<W>,
  map: (w: W) => T,
  ids: DataLoader<number, T | null>,
): DataLoader<PageKey, Page<T>, string> {
  return mappedPages(list, (w) => {
    const n = map(w);
    ids.prime(n.id, n);
    return n;
  });
}

/**
 * Terms batch through the `include` filter, which answers exactly the ids asked (hide_empty off).
 * It refuses the whole batch when one id does not exist, so then each id is read on its own.
 */
function terms({ list, get }: CalendarClient['categories' | 'tags']) {
  return new DataLoader<number, CalendarTerm | null>(
    async (ids) => {
      let rows: WireTerm[] | undefined;
      try {
        rows = (await list({ include: [...ids], hide_empty: false }, 1, ids.length))?.items;
      } catch (error) {
        // Only the refusal of an unknown id is worth asking id by id; an outage would just repeat.
        if (!(error instanceof UpstreamError && error.kind === 'bad-request')) throw error;
        rows = undefined;
      }
      if (rows) {
        const byId = new Map(rows.map((t) => [t.id, normalizeTerm(t)]));
        return ids.map((id) => byId.get(id) ?? null);
      }
      return settle(ids, async (id) => {
        const t = await get({ id });
        return t ? normalizeTerm(t) : null;
      });
    },
    { maxBatchSize: UPSTREAM_PAGE_SIZE },
  );
}

export function createCalendarLoaders(client: CalendarClient) {
  const venue = byId((id) => client.venues.get({ id }), normalizeVenue);
  const organizer = byId((id) => client.organizers.get({ id }), normalizeOrganizer);
  const category = terms(client.categories);
  const tag = terms(client.tags);
  const primeEvent = (e: CalendarEvent) => {
    for (const v of e.venues) venue.prime(v.id, v);
    for (const o of e.organizers) organizer.prime(o.id, o);
    for (const c of e.categories) category.prime(c.id, c);
    for (const t of e.tags) tag.prime(t.id, t);
    return e;
  };
  const readEvent = (w: Parameters<typeof normalizeEvent>[0]) => primeEvent(normalizeEvent(w));
  const event = byId((id) => client.getEvent(id), readEvent);

  const loaders = {
    event,
    eventBySlug: bySlug((slug) => client.getEventBySlug(slug), readEvent, event),
    venue,
    venueBySlug: bySlug((slug) => client.venues.get({ slug }), normalizeVenue, venue),
    organizer,
    organizerBySlug: bySlug((slug) => client.organizers.get({ slug }), normalizeOrganizer, organizer),
    category,
    tag,
    /** Primes the loaders with what an event read outside them (a write, a password read) embeds. */
    primeEvent,
    events: mappedPages((q, p, n, kind) => client.listEvents(q, p, n, kind), readEvent),
    venues: primedPages(client.venues.list, normalizeVenue, venue),
    organizers: primedPages(client.organizers.list, normalizeOrganizer, organizer),
    categories: primedPages(client.categories.list, normalizeTerm, category),
    tags: primedPages(client.tags.list, normalizeTerm, tag),
  };
  /** The record lists this request resolved, by record and arguments (see `eventsOf`). */
  const connections = new Map<string, Promise<unknown>>();
  return {
    ...loaders,
    connections,
    /**
     * What this request read may be stale after a write (a list that held the record, a record
     * that embeds it) or a subscription's next push: what follows reads again.
     */
    forget() {
      for (const loader of Object.values(loaders)) if (loader instanceof DataLoader) loader.clearAll();
      connections.clear();
    },
  };
}

export type CalendarLoaders = ReturnType<typeof createCalendarLoaders>;
