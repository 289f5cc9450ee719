/**
 * What the upstream pipeline tells whoever watches it (metrics, traces): plain events, no GraphQL,
 * no URLs with credentials. Every hook is optional, and an upstream without an observer pays nothing.
 * Hooks that span time return a function the pipeline calls when that stretch ends.
 */
import type { UpstreamName } from './errors.js';
import type { Caller } from './caller.js';

export interface UpstreamEvent {
  upstream: UpstreamName;
  /** The call's `operation`, e.g. `entities.search`. */
  operation: string;
  caller: Caller;
}

export interface UpstreamOutcome {
  /** The HTTP status, when an answer arrived. */
  status?: number;
  /** The UpstreamError kind (or `error`) when none did. */
  error?: string;
}

/**
 * `record`: a hit on a record kept from another answer (`harvest.ts`); `record-redis`: a miss then
 * answered by such a record in Redis; `record-shadow`: a miss that a kept record would have answered
 * (CACHE_REUSE=shadow, counted beside the miss).
 */
export type RecordReuseResult = 'record' | 'record-redis' | 'record-shadow';

/**
 * Lists from lists (`list-reuse.ts`): `prefix`, a list page cut from a longer cached one; `batched`,
 * a list answered from a combined request of several; `batch-wasted`, a combined request whose
 * answer could not be split, so its lists went out one by one; the `-shadow` outcomes count what
 * `CACHE_REUSE=shadow` would have saved.
 */
export type ListReuseResult = 'prefix' | 'prefix-shadow' | 'batched' | 'batched-shadow' | 'batch-wasted';

export type CacheResult =
  'hit' | 'miss' | 'shared' | 'stale' | 'stale-budget' | 'redis' | RecordReuseResult | ListReuseResult;

export interface UpstreamObserver {
  /** Answered from the response cache (`hit`; expired: `stale` during a 429 pause or an upstream failure, `stale-budget` while the account's budget is low), joined an identical read in flight (`shared`), or had to go out (`miss`); a miss may then be answered by the shared Redis tier (`redis`); list reuse outcomes: `ListReuseResult`. */
  cache?(event: UpstreamEvent, result: CacheResult): void;
  /** Waiting for the scheduler; the returned function runs when the request leaves the queue. */
  queued?(event: UpstreamEvent & { priority: string }): () => void;
  /** One attempt on the wire; the returned function runs with its outcome. */
  request?(
    event: UpstreamEvent & { method: string; attempt: number; headers: Record<string, string> },
  ): (outcome: UpstreamOutcome) => void;
  /** An attempt failed and another follows. */
  retry?(event: UpstreamEvent & { attempt: number; reason: string }): void;
  /** Traffic control stopped sending to this upstream for a while (after a 429). */
  pause?(event: { upstream: UpstreamName; ms: number }): void;
  /** The upstream's circuit breaker changed state (`closed`, `open`, `half-open`). */
  breaker?(event: { upstream: UpstreamName; state: string }): void;
}

/** Several observers as one, so the pipeline keeps a single optional hook. */
export function combineObservers(...observers: (UpstreamObserver | undefined)[]): UpstreamObserver | undefined {
  const list = observers.filter((o): o is UpstreamObserver => o !== undefined);
  if (list.length <= 1) return list[0];
  return {
    cache: (e, r) => list.forEach((o) => o.cache?.(e, r)),
    queued: (e) => {
      const ends = list.map((o) => o.queued?.(e));
      return () => ends.forEach((end) => end?.());
    },
    request: (e) => {
      const ends = list.map((o) => o.request?.(e));
      return (outcome) => ends.forEach((end) => end?.(outcome));
    },
    retry: (e) => list.forEach((o) => o.retry?.(e)),
    pause: (e) => list.forEach((o) => o.pause?.(e)),
    breaker: (e) => list.forEach((o) => o.breaker?.(e)),
  };
}
