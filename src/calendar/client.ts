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
import { isEndOfList, toUpstreamError } from './errors.js';
import type {
  WireCategoryWrite,
  WireEvent,
  WireEventCreate,
  WireEventWrite,
  WireOrganizer,
  WireOrganizerWrite,
  WireTagWrite,
  WireTerm,
  WireVenue,
  WireVenueWrite,
} from './wire.js';
import { archivePageShape, eventShape, linkedPostShape, termShape } from './wire.js';
import type { Harvest, ReuseMode } from '../core/harvest.js';
import { heldRecords } from './harvest.js';
import type { CacheKind } from '../config/config.js';
import { Tags, TAGS_OF, type Collection as Kind } from './tags.js';
import type { CacheResult } from '../core/observer.js';
import type { BatchWindow } from '../core/batch-window.js';
import { slicePage, type ListIndex, type PageSpan } from '../core/list-reuse.js';
import { UPSTREAM_PAGE_SIZE } from '../core/pages.js';
import {
  batchDimension,
  ownersOf,
  splitEvents,
  type BatchDimension,
  type BatchOutcome,
  type ListAsk,
} from './list-batch.js';

/** Rows of the split lists together (a multi-venue event counts in each). */
const combinedRows = (lists: Map<number, unknown[]>) => [...lists.values()].reduce((n, l) => n + l.length, 0);

/** A single record is addressed by its numeric id or, where the API allows, its slug. */
export type RecordRef = { id: number } | { slug: string };
export type WireQuery = Record<string, QueryValue>;

export interface WirePage<T> {
  items: T[];
  total: number;
}

type CalendarCacheKind = 'events' | 'venues' | 'organizers' | 'terms';

/**
 * Per collection: its cache tags (`tags.ts`), the kind of cache freshness, and the shapes checked
 * of a record and of a page (built once: zod compiles a checker on first use).
 */
const entry = (key: Kind, ttl: CalendarCacheKind, shape: z.ZodType) => ({
  tags: TAGS_OF[key],
  ttl,
  shape,
  page: archivePageShape(key, shape),
});
const KINDS: Record<Kind, ReturnType<typeof entry>> = {
  events: entry('events', 'events', eventShape),
  venues: entry('venues', 'venues', linkedPostShape),
  organizers: entry('organizers', 'organizers', linkedPostShape),
  categories: entry('categories', 'terms', termShape),
  tags: entry('tags', 'terms', termShape),
};
const EVENT_TAGS = KINDS.events.tags;

export interface CalendarClientOptions {
  upstream: Upstream;
  auth: CalendarAuth;
  caller: Omit<Caller, 'identity'>;
  /** Freshness of cached reads by kind of resource. */
  cacheTtlMs: Pick<Record<CacheKind, number>, CalendarCacheKind>;
  /** Told after every write, applied or not: the request's own memos forget what they read. */
  afterWrite?: () => void;
  /** Lists from lists (`CACHE_REUSE`): the process's index of cached pages and its batcher of event lists. */
  reuse?: CalendarListReuse;
}

export interface CalendarListReuse {
  mode: ReuseMode;
  index: ListIndex;
  batches: BatchWindow<ListAsk, BatchOutcome>;
}

/**
 * A read past the cache, for live updates: a poll (`background`: the scheduler's lowest priority) or
 * a subscriber's re-read after a change (which the cache may not know of yet).
 */
export type FreshRead = { background: boolean };
/** A read by id or slug: what `single` sends and `readCall` describes. */
type Read = [kind: Kind, operation: string, path: string, query: WireQuery, as: 'read' | 'write', poll?: FreshRead];

export class CalendarClient {
  constructor(private readonly options: CalendarClientOptions) {}

  /** Who writes: the non-secret identity of the write credential (scopes idempotency keys). */
  get writerIdentity(): string {
    return this.options.auth.write.identity;
  }

  // ------------------------------------------------------------------ events
  /** GET /events: one archive page; `null` past the last page. */
  listEvents(query: WireQuery, page: number, perPage: number, kind: PageKind = 'page', poll?: FreshRead) {
    return this.list<WireEvent>('events', query, page, perPage, kind, poll);
  }

  /** GET /events/{id}; `null` when there is no such event. */
  getEvent(id: number, password?: string, as: 'read' | 'write' = 'read', poll?: FreshRead): Promise<WireEvent | null> {
    return this.single<WireEvent>('events', 'events.get', urlPath`/events/${id}`, { password }, as, poll);
  }

  /** GET /events/by-slug/{slug}; `null` when there is no such event. */
  getEventBySlug(slug: string, password?: string, as: 'read' | 'write' = 'read'): Promise<WireEvent | null> {
    return this.single<WireEvent>('events', 'events.getBySlug', urlPath`/events/by-slug/${slug}`, { password }, as);
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

  // ------------------------------------------------------- venues, organizers, categories and tags
  readonly venues = this.collection<WireVenue, WireVenueWrite>('venues');
  readonly organizers = this.collection<WireOrganizer, WireOrganizerWrite>('organizers');
  readonly categories = this.collection<WireTerm, WireCategoryWrite>('categories');
  readonly tags = this.collection<WireTerm, WireTagWrite>('tags');

  /** Drops cached event answers (for every credential): a poll found the site changed behind the gateway. */
  forgetEvents(): void {
    this.options.upstream.cache.invalidate([Tags.events]);
  }

  // ------------------------------------------------------------------ plumbing
  private path(kind: Kind, ref: RecordRef): string {
    return 'id' in ref ? urlPath`/${kind}/${ref.id}` : urlPath`/${kind}/by-slug/${ref.slug}`;
  }

  /** The five routes of a collection; a write drops the collection's own tag (terms share one). */
  private collection<T, Body>(kind: Exclude<Kind, 'events'>) {
    const dropped = [KINDS[kind].tags[0]!];
    return {
      list: (query: WireQuery, n: number, perPage: number, pageKind: PageKind = 'page') =>
        this.list<T>(kind, query, n, perPage, pageKind),
      get: (ref: RecordRef, as: 'read' | 'write' = 'read') =>
        this.single<T>(kind, `${kind}.get`, this.path(kind, ref), {}, as),
      create: (body: Body) => this.write<T>(`${kind}.create`, 'POST', `/${kind}`, body, undefined, dropped),
      update: (ref: RecordRef, body: Body) =>
        this.write<T>(`${kind}.update`, 'POST', this.path(kind, ref), body, undefined, dropped),
      delete: (ref: RecordRef) =>
        this.write<T>(`${kind}.delete`, 'DELETE', this.path(kind, ref), undefined, undefined, dropped),
    };
  }

  private async list<T>(
    kind: Kind,
    query: WireQuery,
    page: number,
    perPage: number,
    pageKind: PageKind,
    poll?: FreshRead,
  ): Promise<WirePage<T> | null> {
    const operation = `${kind}.list`;
    const call = this.withCredentials(
      {
        method: 'GET',
        path: `/${kind}`,
        query: { ...query, page, per_page: perPage },
        idempotent: true,
        kind: poll?.background ? 'poll' : pageKind,
        operation,
        cache: poll ? undefined : this.cache(kind),
        harvest: (res) => this.harvest(kind, res.body, false),
      },
      this.options.auth.read,
    );
    const caller = this.callerOf(this.options.auth.read);
    const { upstream, reuse } = this.options;
    if (!call.cache || !reuse || reuse.mode === 'off') return this.readPage<T>(kind, await upstream.call(call, caller));
    // Lists from lists: the page itself, else cut from a longer cached page of the same list, else
    // (events of one venue or organizer) from a request shared with other lists, else its own request.
    const target = upstream.target(call, caller);
    const exact = upstream.freshHit(call, caller, target);
    if (exact) return this.readPage<T>(kind, exact);
    const list = upstream.target({ ...call, query }, caller).key;
    const span = { page, size: perPage };
    const cut = this.cutFrom<T>(kind, call, caller, list, span, reuse.mode === 'on' ? 'prefix' : 'prefix-shadow');
    if (cut !== undefined) return cut;
    const dim = kind === 'events' && page === 1 ? batchDimension(query) : undefined;
    let own = call;
    if (dim) {
      const { [dim]: ids, ...rest } = query;
      const id = (ids as number[])[0]!;
      const group = `${dim}\u0000${upstream.target({ ...call, query: rest }, caller).key}`;
      if (reuse.mode === 'shadow') {
        if (reuse.batches.wouldJoin(group)) upstream.report(call, caller, 'batched-shadow');
      } else {
        const combine = (asks: ListAsk[]) => this.combine(call, caller, rest, dim, asks);
        const outcome = await reuse.batches.add(group, { id, list, query, combine });
        const got = outcome === 'split' ? this.cutFrom<T>(kind, call, caller, list, span, 'batched') : undefined;
        if (got !== undefined) return got;
        if (outcome === 'resend') own = { ...call, repeat: true };
      }
    }
    const got = this.readPage<T>(kind, await upstream.call(own, caller, target));
    if (got) reuse.index.stored(list, span, got.total);
    // A row no combined answer could attribute (a password-protected event): this list goes alone.
    if (dim && got?.items.some((e) => ownersOf(e as WireEvent, dim).length === 0)) reuse.index.markUnsplittable(list);
    return got;
  }

  /**
   * The asked page of `list` cut from a fresh cached page of it that covers it, counted as `as`; a
   * shadow outcome is only counted, and nothing is served.
   */
  private cutFrom<T>(kind: Kind, call: UpstreamCall, caller: Caller, list: string, asked: PageSpan, as: CacheResult) {
    const { upstream, reuse } = this.options;
    for (const span of reuse!.index.candidates(list, asked)) {
      const candidate = { ...call, query: { ...call.query, page: span.page, per_page: span.size } };
      const target = upstream.target(candidate, caller);
      const cached = upstream.cache.get(target.key);
      const page = cached?.fresh ? this.readPage<T>(kind, cached.entry.response) : null;
      const rows = page && slicePage(page.items, page.total, span, asked);
      if (!rows) continue;
      if (as === 'prefix-shadow') {
        upstream.report(call, caller, as);
        return undefined;
      }
      upstream.freshHit(candidate, caller, target, as);
      return rows.length === 0 && asked.page > 1 ? null : { items: rows, total: page.total };
    }
    return undefined;
  }

  /**
   * One request for the events of several venues or organizers; each list split from its answer is
   * stored as its own request's complete answer (page 1 of 50). False when the split is not exact.
   */
  private async combine(
    call: UpstreamCall,
    caller: Caller,
    rest: WireQuery,
    dim: BatchDimension,
    asks: ListAsk[],
  ): Promise<boolean> {
    const { upstream, reuse } = this.options;
    const ids = [...new Set(asks.map((a) => a.id))];
    const combined = { ...call, query: { ...rest, [dim]: ids, page: 1, per_page: UPSTREAM_PAGE_SIZE } };
    const mark = upstream.cache.mark();
    const res = await upstream.call(combined, caller);
    const lists = res.status < 300 ? splitEvents(this.readPage<WireEvent>('events', res)!, dim, ids) : undefined;
    if (!lists) {
      upstream.report(combined, caller, 'batch-wasted');
      return false;
    }
    for (const ask of asks) {
      const events = lists.get(ask.id)!;
      const one = { ...call, query: { ...ask.query, page: 1, per_page: UPSTREAM_PAGE_SIZE } };
      const total = events.length;
      const share = Math.ceil((res.bytes * total) / Math.max(1, combinedRows(lists)));
      const answer = {
        status: 200,
        headers: { 'x-tec-total': String(total), 'x-tec-totalpages': total > 0 ? '1' : '0' },
        body: { events, total, total_pages: total > 0 ? 1 : 0 },
        bytes: share,
      };
      upstream.cache.set(upstream.target(one, caller).key, answer, call.cache!.ttlMs, call.cache!.tags, mark);
      reuse!.index.stored(ask.list, { page: 1, size: UPSTREAM_PAGE_SIZE }, total);
    }
    return true;
  }

  /** A list page's records and total; `null` past the last page. */
  private readPage<T>(kind: Kind, res: HttpResponse): WirePage<T> | null {
    const operation = `${kind}.list`;
    if (res.status >= 400) {
      // A page past the end is the end of the list, not an error.
      if (isEndOfList(res)) return null;
      throw toUpstreamError(res, { operation });
    }
    const body = checkPayload('calendar', KINDS[kind].page, res.body, operation) as Record<string, T[]> & {
      total?: number;
    };
    const total = Number(body.total ?? res.headers['x-tec-total'] ?? 0);
    return { items: body[kind] ?? [], total: Number.isFinite(total) ? total : 0 };
  }

  private async single<T>(...read: Read): Promise<T | null> {
    const [kind, operation, , , as] = read;
    const call = this.readCall(...read);
    const res = await this.send(
      { ...call, harvest: call.cache && ((res) => this.harvest(kind, res.body, true)) },
      this.options.auth[as],
    );
    if (res.status >= 400) {
      const error = toUpstreamError(res, { single: true, operation });
      // A lookup that finds nothing is null; a trashed record (the site answers it 403
      // event-no-longer-available) is told apart: GONE, for a reader as for a mutation.
      if (error.kind === 'not-found') return null;
      throw error;
    }
    return checkPayload('calendar', KINDS[kind].shape, res.body, operation) as T;
  }

  private readCall(...[kind, operation, path, query, as, poll]: Read): UpstreamCall {
    return {
      method: 'GET',
      path,
      query,
      idempotent: true,
      kind: poll?.background ? 'poll' : 'read',
      operation,
      // Reads made for a write (with the writer's credentials) must see the current record; a read
      // with an event's password is not kept, so no password sits in a cache key; a poll must see
      // the upstream, not the cache.
      cache: as === 'read' && query.password === undefined && !poll ? this.cache(kind) : undefined,
    };
  }

  /** The records an answer of `kind` holds, as the reads by id and by slug they answer (see harvest.ts). */
  private harvest(kind: Kind, body: unknown, single: boolean): Harvest<UpstreamCall>[] {
    return heldRecords(kind, body, single).flatMap((r) => {
      const get = r.kind === 'events' ? 'events.get' : `${r.kind}.get`;
      const read = (operation: string, ref: RecordRef) => ({
        call: this.readCall(r.kind, operation, this.path(r.kind, ref), {}, 'read'),
        body: r.body,
      });
      const bySlug = r.kind === 'events' ? 'events.getBySlug' : get;
      return r.slug ? [read(get, { id: r.id }), read(bySlug, { slug: r.slug })] : [read(get, { id: r.id })];
    });
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
    if (res.status >= 400) throw toUpstreamError(res, { single: true, operation });
    // The written record answers its reads, where the writer reads with the same credentials (never
    // across them) and no event password was needed (a read by id would be refused).
    const { read, write } = this.options.auth;
    if (read.identity === write.identity && (json as { password?: unknown } | undefined)?.password === undefined)
      this.options.upstream.keepRecords(
        this.harvest(operation.split('.')[0] as Kind, res.body, true),
        this.callerOf(write),
        res.bytes,
      );
    return res.body as T;
  }

  /** The cache entry of a read; its freshness follows the kind of record it reads. */
  private cache(kind: Kind): UpstreamCall['cache'] {
    const ttlMs = this.options.cacheTtlMs[KINDS[kind].ttl];
    return ttlMs > 0 ? { ttlMs, tags: KINDS[kind].tags } : undefined;
  }

  private send(call: UpstreamCall, credentials: CalendarCredentials): Promise<HttpResponse> {
    return this.options.upstream.call(this.withCredentials(call, credentials), this.callerOf(credentials));
  }

  private withCredentials(call: UpstreamCall, credentials: CalendarCredentials): UpstreamCall {
    return { ...call, headers: { ...call.headers, ...credentials.headers } };
  }

  private callerOf(credentials: CalendarCredentials): Caller {
    return { ...this.options.caller, identity: credentials.identity };
  }
}
