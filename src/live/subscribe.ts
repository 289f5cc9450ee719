/**
 * The shape every live subscription shares: start (or join) the poller of what it watches, pass on
 * what the change bus brings, and leave the poller when the client goes. A one-record subscription
 * sends each version of the record once, whichever origin brings it first, and ends after a delete.
 * Every stream counts against its caller's streams, and ends when its credential expires.
 */
import type { GraphQLError } from 'graphql';
import { createGraphQLError, Repeater } from 'graphql-yoga';
import { isUpstreamError } from '../core/errors.js';
import { ErrorCode } from '../graph/errors.js';
import type { Change, ChangeBatch } from './changes.js';
import type { Watch } from './polling.js';
import type { LiveScope } from './scope.js';

/** The interval a client asked for, in milliseconds (the poller keeps it within the configured bounds). */
export function pollInterval(live: LiveScope, seconds: number | null | undefined): number {
  return seconds == null ? live.defaultIntervalMs : seconds * 1000;
}

/** The last push of a stream whose subscriber's credential expired: its field fails with `expired`. */
export interface Expired {
  expired: GraphQLError;
}

export const isExpired = (push: object): push is Expired => 'expired' in push;

/** The longest timer Node keeps (about 24.8 days); a credential that outlives it ends its streams then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A subscription of `live`'s caller: counted against the streams it may hold (refused RATE_LIMITED
 * past them, before anything starts), and ended when its credential expires, with one last push
 * that fails UNAUTHENTICATED, then `complete`. The count is given back however the stream ends,
 * even when the client goes before it started.
 */
export function liveStream<T>(live: LiveScope, stream: AsyncIterable<T>): AsyncIterable<T | Expired> {
  const end = live.polling.openStream(live.caller);
  if (!end) {
    const most = live.polling.maxStreamsPerCaller;
    throw createGraphQLError(
      `You hold ${most} live subscriptions here, the most one caller may; end one before you start another.`,
      { extensions: { code: ErrorCode.RATE_LIMITED, limit: most } },
    );
  }
  const it = stream[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<IteratorResult<Expired>>((resolve) => {
    if (live.expiresAt === undefined) return;
    const expired = createGraphQLError(
      'Your credential expired, so this subscription ends; subscribe again with a new one.',
      {
        extensions: { code: ErrorCode.UNAUTHENTICATED },
      },
    );
    timer = setTimeout(
      () => resolve({ done: false, value: { expired } }),
      Math.max(0, Math.min(MAX_TIMER_MS, live.expiresAt - Date.now())),
    );
  });
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    end();
    void it.return?.();
  };
  const done = { done: true, value: undefined } as const;
  return {
    [Symbol.asyncIterator]: () => ({
      next: async (): Promise<IteratorResult<T | Expired>> => {
        if (finished) return done;
        const next = await Promise.race([it.next(), expiry]);
        if (next.done || isExpired(next.value as object)) finish();
        return next.done ? done : next;
      },
      return: () => {
        finish();
        return Promise.resolve(done);
      },
    }),
  };
}

export function watchAndListen<T>(live: LiveScope, watch: Watch, sources: AsyncIterable<T>[]): AsyncIterable<T> {
  return new Repeater<T>(async (push, stop) => {
    const unwatch = live.polling.watch(watch);
    const iterators = sources.map((s) => s[Symbol.asyncIterator]());
    void stop.then(() => {
      unwatch();
      for (const it of iterators) void it.return?.();
    });
    await Promise.all(
      iterators.map(async (it) => {
        for (;;) {
          const next = await it.next();
          if (next.done) return;
          await push(next.value);
        }
      }),
    );
    stop();
  });
}

/** One push of a one-record subscription: the change, the record as the subscriber reads it now, or why it could not. */
export interface RecordChange<T> {
  change: Change;
  record: T | null;
  failed?: Error;
}

/**
 * A stream made of `source`: `each` pushes what an item gives, until the source ends, the consumer
 * stops, or `each` answers false.
 */
function relay<T, U>(
  source: AsyncIterable<T>,
  each: (item: T, push: (value: U) => Promise<unknown>) => Promise<boolean | void>,
): AsyncIterable<U> {
  return new Repeater<U>(async (push, stop) => {
    const it = source[Symbol.asyncIterator]();
    const stopped = stop.then(() => ({ done: true as const, value: undefined }));
    void stopped.then(() => it.return?.());
    for (;;) {
      const next = await Promise.race([it.next(), stopped]);
      if (next.done || (await each(next.value, push)) === false) break;
    }
    stop();
  });
}

/**
 * The pushes of a one-record subscription: each change read with the subscriber's credential,
 * except one whose version the subscriber was last sent (a write through the gateway, then the poll
 * that finds it; a change without a version, such as a link, is always sent), and none after the
 * record is gone (deleted, or a read that finds it GONE). A read that fails otherwise is pushed as such
 * (the push's field fails) and the stream goes on.
 */
export function onePerVersion<T>(
  changes: AsyncIterable<Change>,
  read: (id: string) => Promise<T | null>,
  version: (record: T) => string,
): AsyncIterable<RecordChange<T>> {
  let last: string | undefined;
  return relay<Change, RecordChange<T>>(changes, async (change, push) => {
    if (change.version !== undefined && change.version === last) return;
    let record: T | null = null;
    try {
      record = change.deleted ? null : await read(change.id);
    } catch (failed) {
      // A record gone meanwhile (e.g. an event trashed upstream reads as GONE) is pushed as deleted.
      if (!isUpstreamError(failed) || failed.kind !== 'gone') {
        await push({ change, record: null, failed: failed instanceof Error ? failed : new Error(String(failed)) });
        return;
      }
    }
    await push({ change, record });
    if (record === null) return false;
    last = version(record);
  });
}

/**
 * The batches of a list subscription, each id only when its version is new to the subscriber (a
 * write through the gateway, then the poll that finds it); a batch left with no id is not sent.
 */
export function newVersionsOnly(batches: AsyncIterable<ChangeBatch>): AsyncIterable<ChangeBatch> {
  const last = new Map<string, string>();
  return relay<ChangeBatch, ChangeBatch>(batches, async ({ ids, origin, versions = {} }, push) => {
    const fresh = ids.filter((id) => versions[id] === undefined || last.get(id) !== versions[id]);
    for (const id of ids)
      if (versions[id] === undefined) last.delete(id);
      else last.set(id, versions[id]);
    if (fresh.length) await push({ ids: fresh, origin });
  });
}
