/**
 * The calendar upstream for the GraphQL layer: long-lived parts (the upstream, the configuration)
 * live on the service; per-request parts (credentials, client, DataLoaders) on the scope that
 * `forRequest` returns, so no loader cache ever crosses requests or callers.
 */
import type { Config } from '../config/config.js';
import type { RequestInfo } from '../core/caller.js';
import type { Upstream } from '../core/upstream-pipeline.js';
import type { RecordLocks } from '../core/record-locks.js';
import { calendarAuth } from './auth.js';
import { CalendarClient, type CalendarListReuse } from './client.js';
import { eventListBatcher } from './list-batch.js';
import { createCalendarLoaders } from './loaders.js';
import { CalendarWrites } from './writes.js';

export type CalendarScope = ReturnType<CalendarService['forRequest']>;

export class CalendarService {
  /** Lists from lists, per process: the pages cached and the batcher of event lists (`list-batch.ts`). */
  private readonly reuse: CalendarListReuse;

  constructor(
    readonly upstream: Upstream,
    readonly config: Config,
    private readonly locks: RecordLocks,
  ) {
    const index = upstream.lists;
    this.reuse = { mode: config.cache.reuse, index, batches: eventListBatcher(index, config.cache.listBatchWindowMs) };
  }

  forRequest(info: RequestInfo) {
    const client: CalendarClient = new CalendarClient({
      upstream: this.upstream,
      auth: calendarAuth(this.config.calendar, info.headers),
      caller: { usage: info.usage, signal: info.signal, requestId: info.requestId, client: info.client },
      cacheTtlMs: this.config.cache.ttlMsByKind,
      reuse: this.reuse,
      // A mutation's later fields must see its earlier writes: the record cache drops the written
      // tags, and the request's loaders and lists forget what they read before.
      afterWrite: () => loaders.forget(),
    });
    const loaders = createCalendarLoaders(client);
    return {
      requestId: info.requestId,
      client,
      loaders,
      writes: new CalendarWrites(client, loaders, this.locks, info.signal),
      /** Largest `first`/`last` a calendar list accepts. */
      maxPageSize: this.config.maxPageSize,
    };
  }

  async close(): Promise<void> {}
}
