/**
 * Records, not requests: a record that arrives inside another answer (a list item, a venue inside
 * an event, a write's answer) is kept as the entry its own read by id (or slug) would have made:
 * the same key (the caller's identity, so credentials never mix), a 2xx answer whose body is what
 * that read parses, that read's tags, fresh until the containing answer's freshness or that read's
 * TTL, whichever ends first. A later lookup then takes the ordinary cache path, in both tiers.
 * The adapter says which records an answer holds (`UpstreamCall.harvest`); this file keeps them.
 *
 * `CACHE_REUSE`: `on` keeps them; `shadow` keeps only their keys and freshness (bounded) and counts
 * the misses one would have answered (`record-shadow`); `off` does nothing.
 */
import { LRUCache } from 'lru-cache';
import type { ResponseCache } from './cache.js';
import type { SharedCacheTier, SharedRecord } from './cache-shared.js';

export type ReuseMode = 'off' | 'shadow' | 'on';

/** A record inside an answer, as the by-id (or by-slug) read it answers and the body that read parses. */
export interface Harvest<Call> {
  call: Call;
  body: unknown;
}

/** Background Redis stores in flight past which further batches stay local (best effort, bounded). */
const MAX_PENDING_STORES = 8;
/** Keys remembered in shadow mode. */
const SHADOW_KEYS = 100_000;

export class RecordKeeper {
  private readonly shadow?: LRUCache<string, { freshUntil: number; mark: number }>;
  private pending = 0;

  constructor(
    readonly mode: ReuseMode,
    private readonly cache: ResponseCache,
    private readonly shared?: SharedCacheTier,
  ) {
    if (mode === 'shadow') this.shadow = new LRUCache({ max: SHADOW_KEYS });
  }

  /**
   * Keeps `records` (local `mark`: taken before the containing request was sent; `sharedMark`: the
   * Redis clock at its shared lookup, when the answer is to be shared too).
   */
  keep(records: readonly SharedRecord[], mark: number, sharedMark?: number): void {
    if (records.length === 0) return;
    if (this.shadow) {
      for (const r of records) this.shadow.set(r.key, { freshUntil: r.freshUntil, mark });
      return;
    }
    const kept = records.filter((r) => this.cache.keep(r.key, r.response, r.freshUntil, r.tags, mark));
    if (sharedMark === undefined || !this.shared || kept.length === 0 || this.pending >= MAX_PENDING_STORES) return;
    this.pending++;
    void this.shared.storeRecords(sharedMark, kept).finally(() => this.pending--);
  }

  /** Shadow mode: whether a kept record would have answered this miss (fresh, none of its tags invalidated since). */
  wouldAnswer(key: string, tags: readonly string[]): boolean {
    const seen = this.shadow?.get(key);
    return seen !== undefined && Date.now() < seen.freshUntil && !this.cache.changedSince(seen.mark, tags);
  }
}
