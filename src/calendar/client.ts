/**
 * The calendar REST client: the only file that knows the calendar API's paths, query parameters and
 * request bodies. One method per route; each answers wire payloads (see `wire.ts`) or throws an
 * `UpstreamError` made from the WordPress error body. Reads are cached under kind tags; writes drop
 * the tags of every answer that may embed what they changed.
 */
import type { Caller, PageKind, QueryValue, Upstream, UpstreamCall } from '../core/upstream-pipeline.js';
import type { HttpResponse } from '../core/http.js';
import { urlPath } from '../core/url-path.js';
import type { CalendarAuth, CalendarCredentials } from './auth.js';
import type { z } from 'zod';
import { checkPayload } from '../core/contract.js';
import { isEndOfList, toUpstreamError, type ArgumentNames } from './client-errors.js';
import type {
  WireCategoryWrite,
  WireEvent,
  WireEventCreate,
  WireEventWrite,
  WireEventsPage,
  WireOrganizer,
  WireOrganizerWrite,
  WireTagWrite,
  WireTerm,
  WireVenue,
  WireVenueWrite,
} from './wire.js';
import { archivePageShape, eventShape, linkedPostShape, termShape } from './wire.js';
import type { CacheKind } from '../config/config.js';

/** The kind of record an operation reads (`venues.get` → venues), for its cache freshness. */
const KIND_OF: Record<string, 'events' | 'venues' | 'organizers' | 'terms'> = {
  events: 'events',
  venues: 'venues',
  organizers: 'organizers',
  categories: 'terms',
  tags: 'terms',
};

// Built once: zod compiles a schema's checker when it is first used, so a schema per call recompiled it every time.
const EVENTS_PAGE = archivePageShape('events', eventShape);
const VENUES_PAGE = archivePageShape('venues', linkedPostShape);
const ORGANIZERS_PAGE = archivePageShape('organizers', linkedPostShape);
const CATEGORIES_PAGE = archivePageShape('categories', termShape);
const TAGS_PAGE = archivePageShape('tags', termShape);

/** A single record is addressed by its numeric id or, where the API allows, its slug. */
export type RecordRef = { id: number } | { slug: string };
export type WireQuery = Record<string, QueryValue>;

export interface WirePage<T> {
  items: T[];
  total: number;
}

/** Cache tags: an answer is tagged with every kind of record it embeds or depends on. */
const TAG = {
  events: 'calendar:events',
  venues: 'calendar:venues',
  organizers: 'calendar:organizers',
  terms: 'calendar:terms',
} as const;
const EVENT_TAGS = [TAG.events, TAG.venues, TAG.organizers, TAG.terms];
// Venue/organizer/term lists filter and count by their events (has_events, event, hide_empty).
const VENUE_TAGS = [TAG.venues, TAG.events];
const ORGANIZER_TAGS = [TAG.organizers, TAG.events];
const TERM_TAGS = [TAG.terms, TAG.events];

/** Per operation, the graph arguments behind the upstream parameters an error may name. */
const NAMES: Record<string, ArgumentNames> = {
  'events.list': { venue: 'venues', organizer: 'organizers' },
  'events.create': { venue: 'venueId', organizer: 'organizerIds' },
  'events.update': { venue: 'venueId', organizer: 'organizerIds' },
};

type PostKind = 'venues' | 'organizers';
type TermKind = 'categories' | 'tags';

export interface CalendarClientOptions {
  upstream: Upstream;
  auth: CalendarAuth;
  caller: Omit<Caller, 'identity'>;
  /** Freshness of cached reads by kind of resource. */
  cacheTtlMs: Pick<Record<CacheKind, number>, 'events' | 'venues' | 'organizers' | 'terms'>;
  /** Told after every write, applied or not: the request's own memos forget what they read. */
  afterWrite?: () => void;
}

/**
 * A read past the cache, for live updates: a poll (`background`: the scheduler's lowest priority) or
 * a subscriber's re-read after a change (which the cache may not know of yet).
 */
export type FreshRead = { background: boolean };

export class CalendarClient {
  constructor(private readonly options: CalendarClientOptions) {}

  /** Who writes: the non-secret identity of the write credential (scopes idempotency keys). */
  get writerIdentity(): string {
    return this.options.auth.write.identity;
  }

  // ------------------------------------------------------------------ events
  /** GET /events: one archive page; `null` past the last page. */
  listEvents(
    query: WireQuery,
    page: number,
    perPage: number,
    kind: PageKind = 'page',
    poll?: FreshRead,
  ): Promise<WirePage<WireEvent> | null> {
    return this.list<WireEventsPage, WireEvent>(
      'events.list',
      '/events',
      query,
      page,
      perPage,
      kind,
      EVENT_TAGS,
      (b) => b.events,
      poll,
      EVENTS_PAGE,
    );
  }

  /** GET /events/{id}; `null` when there is no such event. */
  getEvent(id: number, password?: string, as: 'read' | 'write' = 'read', poll?: FreshRead): Promise<WireEvent | null> {
    return this.single<WireEvent>('events.get', urlPath`/events/${id}`, { password }, EVENT_TAGS, as, poll, eventShape);
  }

  /** GET /events/by-slug/{slug}; `null` when there is no such event. */
  getEventBySlug(slug: string, password?: string, as: 'read' | 'write' = 'read'): Promise<WireEvent | null> {
    return this.single<WireEvent>(
      'events.getBySlug',
      urlPath`/events/by-slug/${slug}`,
      { password },
      EVENT_TAGS,
      as,
      undefined,
      eventShape,
    );
  }

  /** POST /events. Inline venues/organizers/terms may be created too, hence the wide invalidation. */
  createEvent(body: WireEventCreate): Promise<WireEvent> {
    return this.write('events.create', 'POST', '/events', body, undefined, EVENT_TAGS);
  }

  /** POST /events/{id} or /events/by-slug/{slug} with the whole record (see the service's read-modify-write). */
  updateEvent(ref: RecordRef, body: WireEventWrite): Promise<WireEvent> {
    return this.write('events.update', 'POST', this.path('events', ref), body, undefined, EVENT_TAGS);
  }

  /** DELETE /events/{id}: moves the event to the trash and answers it; a second delete is a 410. */
  deleteEvent(ref: RecordRef, password?: string): Promise<WireEvent> {
    return this.write('events.delete', 'DELETE', this.path('events', ref), undefined, { password }, EVENT_TAGS);
  }

  // ------------------------------------------------------------------ venues and organizers
  // ------------------------------------------------------- venues, organizers, categories and tags
  readonly venues = this.collection<WireVenue, WireVenueWrite>('venues', VENUE_TAGS, linkedPostShape, VENUES_PAGE);
  readonly organizers = this.collection<WireOrganizer, WireOrganizerWrite>(
    'organizers',
    ORGANIZER_TAGS,
    linkedPostShape,
    ORGANIZERS_PAGE,
  );
  readonly categories = this.collection<WireTerm, WireCategoryWrite>(
    'categories',
    TERM_TAGS,
    termShape,
    CATEGORIES_PAGE,
  );
  readonly tags = this.collection<WireTerm, WireTagWrite>('tags', TERM_TAGS, termShape, TAGS_PAGE);

  /** Drops cached event answers (for every credential): a poll found the site changed behind the gateway. */
  forgetEvents(): void {
    this.options.upstream.cache.invalidate([TAG.events]);
  }

  // ------------------------------------------------------------------ plumbing
  private path(kind: 'events' | PostKind | TermKind, ref: RecordRef): string {
    return 'id' in ref ? urlPath`/${kind}/${ref.id}` : urlPath`/${kind}/by-slug/${ref.slug}`;
  }

  /** The five routes of a collection; a write drops the collection's own tag (terms share one). */
  private collection<T, Body>(kind: PostKind | TermKind, tags: readonly string[], shape: z.ZodType, page: z.ZodType) {
    const dropped = [tags[0]!];
    return {
      list: (query: WireQuery, n: number, perPage: number, pageKind: PageKind = 'page') =>
        this.list<Record<string, T[]>, T>(
          `${kind}.list`,
          `/${kind}`,
          query,
          n,
          perPage,
          pageKind,
          tags,
          (b) => b[kind],
          undefined,
          page,
        ),
      get: (ref: RecordRef, as: 'read' | 'write' = 'read') =>
        this.single<T>(`${kind}.get`, this.path(kind, ref), {}, tags, as, undefined, shape),
      create: (body: Body) => this.write<T>(`${kind}.create`, 'POST', `/${kind}`, body, undefined, dropped),
      update: (ref: RecordRef, body: Body) =>
        this.write<T>(`${kind}.update`, 'POST', this.path(kind, ref), body, undefined, dropped),
      delete: (ref: RecordRef) =>
        this.write<T>(`${kind}.delete`, 'DELETE', this.path(kind, ref), undefined, undefined, dropped),
    };
  }

  private async list<B, T>(
    operation: string,
    path: string,
    query: WireQuery,
    page: number,
    perPage: number,
    kind: PageKind,
    tags: readonly string[],
    items: (body: B) => T[] | undefined,
    poll?: FreshRead,
    shape?: z.ZodType,
  ): Promise<WirePage<T> | null> {
    const call: UpstreamCall = {
      method: 'GET',
      path,
      query: { ...query, page, per_page: perPage },
      idempotent: true,
      kind: poll?.background ? 'poll' : kind,
      operation,
      cache: poll ? undefined : this.cache(operation, tags),
    };
    const res = await this.send(call, this.options.auth.read);
    if (res.status >= 400) {
      // A page past the end is the end of the list, not an error.
      if (isEndOfList(res)) return null;
      throw toUpstreamError(res, { names: NAMES[operation] });
    }
    const body = (shape ? checkPayload('calendar', shape, res.body, operation) : res.body) as B & { total?: number };
    const total = Number(body.total ?? res.headers['x-tec-total'] ?? 0);
    return { items: items(body) ?? [], total: Number.isFinite(total) ? total : 0 };
  }

  private async single<T>(
    operation: string,
    path: string,
    query: WireQuery,
    tags: readonly string[],
    as: 'read' | 'write' = 'read',
    poll?: FreshRead,
    shape?: z.ZodType,
  ): Promise<T | null> {
    const call: UpstreamCall = {
      method: 'GET',
      path,
      query,
      idempotent: true,
      kind: poll?.background ? 'poll' : 'read',
      operation,
      // Reads made for a write (with the writer's credentials) must see the current record; a read
      // with an event's password is not kept, so no password sits in a cache key; a poll must see
      // the upstream, not the cache.
      cache: as === 'read' && query.password === undefined && !poll ? this.cache(operation, tags) : undefined,
    };
    const res = await this.send(call, this.options.auth[as]);
    if (res.status >= 400) {
      const error = toUpstreamError(res, { single: true });
      // A lookup that finds nothing is null; a trashed record (the site answers it 403
      // event-no-longer-available) is told apart: GONE, for a reader as for a mutation.
      if (error.kind === 'not-found') return null;
      throw error;
    }
    return (shape ? checkPayload('calendar', shape, res.body, operation) : res.body) as T;
  }

  private async write<T>(
    operation: string,
    method: 'POST' | 'DELETE',
    path: string,
    json: unknown,
    query: WireQuery | undefined,
    invalidate: readonly string[],
  ): Promise<T> {
    const call: UpstreamCall = { method, path, query, json, idempotent: false, kind: 'write', operation };
    let res: HttpResponse;
    try {
      res = await this.send(call, this.options.auth.write);
    } finally {
      // Even a failed write may have changed something (e.g. created an inline venue), and one whose
      // outcome is unknown may have been applied: drop first, so that a re-read sees the truth.
      this.options.upstream.cache.invalidate(invalidate);
      this.options.afterWrite?.();
    }
    if (res.status >= 400) throw toUpstreamError(res, { single: true, names: NAMES[operation] });
    return res.body as T;
  }

  /** The cache entry of a read; its freshness follows the kind of record the operation reads. */
  private cache(operation: string, tags: readonly string[]): UpstreamCall['cache'] {
    const ttlMs = this.options.cacheTtlMs[KIND_OF[operation.split('.')[0]!] ?? 'events'];
    return ttlMs > 0 ? { ttlMs, tags } : undefined;
  }

  private send(call: UpstreamCall, credentials: CalendarCredentials): Promise<HttpResponse> {
    return this.options.upstream.call(
      { ...call, headers: { ...call.headers, ...credentials.headers } },
      { ...this.options.caller, identity: credentials.identity },
    );
  }
}
