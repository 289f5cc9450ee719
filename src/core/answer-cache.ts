/**
 * The whole-answer cache: serialised GraphQL answers by request key (see `http/response-cache.ts`),
 * in an LRU bounded in bytes and, with Redis, in the shared tier too, so replicas share them.
 *
 * It follows the record cache (`cache.ts`) rather than keeping a consistency scheme of its own: an
 * answer carries the tags of every upstream resource it read, lists included, and is dropped when
 * the record cache drops any of them (a write through this replica, or one announced by another),
 * or empties itself (its shared tier's messages may have been lost). An answer whose operation
 * started before an invalidation of one of its tags is not stored, here (the record cache's marks)
 * nor in Redis (the tag's last invalidation time, checked by the store script), so a read that
 * raced a write never puts pre-write data back. An answer is fresh until the first of its reads
 * goes stale: its TTL follows the per-kind TTLs of what it read.
 */
import { TaggedLru } from './tagged-lru.js';
import type { ResponseCache } from './cache.js';
import type { SharedCacheTier } from './cache-shared.js';
import { ownJson } from './records.js';

export interface CachedAnswer {
  /** HTTP status and the headers to replay (content type, validators, CORS); no length or encoding. */
  status: number;
  headers: Record<string, string>;
  /** The serialised answer without its closing brace, so that extensions can be appended. */
  head: string;
  /** Upstream calls the operation was estimated to need, per upstream (for `extensions.cost`). */
  estimate: Record<string, number>;
  /** The operation's name, for the log line of a hit. */
  operation?: string;
  storedAt: number;
  freshUntil: number;
  tags: readonly string[];
}

/** Where a hit came from, or the marks a miss is stored with. */
export type AnswerLookup =
  { hit: CachedAnswer; tier: 'memory' | 'redis' } | { hit?: undefined; localMark: number; sharedMark?: number };

export interface AnswerCacheOptions {
  maxBytes: number;
  /** Larger answers are not cached. */
  maxEntryBytes: number;
  records: ResponseCache;
  shared?: SharedCacheTier;
}

export class AnswerCache {
  private readonly entries: TaggedLru<CachedAnswer>;

  constructor(private readonly options: AnswerCacheOptions) {
    // The text, and the encoded bytes the edge keeps beside it.
    this.entries = new TaggedLru(options.maxBytes, (v, k) => k.length + v.head.length * 3 + 256);
    options.records.follow({
      invalidated: (tags) => this.drop(tags),
      cleared: () => this.clear(),
    });
  }

  /** The in-memory tier only: no await on the hot path. */
  local(key: string, now = Date.now()): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    return entry && now < entry.freshUntil ? entry : undefined;
  }

  /** A mark to store an answer with in this replica only (see `store`). */
  mark(): number {
    return this.options.records.mark();
  }

  /** After a local miss: the shared tier, or the marks to store this request's answer with. */
  async lookup(key: string, now = Date.now()): Promise<AnswerLookup> {
    const localMark = this.options.records.mark();
    const found = await this.options.shared?.lookupAnswer(key);
    if (found?.payload !== undefined) {
      try {
        const answer = ownJson<CachedAnswer>(found.payload);
        if (now < answer.freshUntil) {
          // Also kept here, invalidated like the rest (unless a write raced the lookup).
          this.setLocal(key, answer, localMark);
          return { hit: answer, tier: 'redis' };
        }
      } catch {
        // Not an entry of this format (another version's): a miss, overwritten by the store.
      }
    }
    return { localMark, sharedMark: found?.mark };
  }

  /** Stores an answer in both tiers unless one of its tags changed since the marks were taken. */
  store(key: string, answer: CachedAnswer, marks: { localMark: number; sharedMark?: number }): void {
    const ttlMs = answer.freshUntil - Date.now();
    if (ttlMs <= 0 || answer.tags.length === 0 || answer.head.length > this.options.maxEntryBytes) return;
    if (!this.setLocal(key, answer, marks.localMark)) return;
    if (marks.sharedMark !== undefined && this.options.shared) {
      this.remember(key, answer);
      void this.options.shared.storeAnswer(key, marks.sharedMark, answer.tags, JSON.stringify(answer), ttlMs);
    }
  }

  /**
   * The answers this replica put in Redis, by tag, until they expire. An answer built from this
   * replica's records just before another replica's write reached it (its invalidation message on
   * the way) passes the store's check, since the write's bump came before the lookup; when the
   * message arrives, the records go, and so must those answers in Redis. The deletion is sent
   * before this replica acknowledges the message, on the same connection, so it is done before the
   * writer answers its client.
   */
  private readonly sharedByTag = new Map<string, Map<string, number>>();
  private remembered = 0;

  private remember(key: string, answer: CachedAnswer): void {
    for (const tag of answer.tags) {
      let keys = this.sharedByTag.get(tag);
      if (!keys) this.sharedByTag.set(tag, (keys = new Map<string, number>()));
      keys.set(key, answer.freshUntil);
    }
    // Now and then, forget what has expired (tags that are never invalidated).
    if (++this.remembered % 1_000 === 0) {
      const now = Date.now();
      for (const [tag, keys] of this.sharedByTag) {
        for (const [k, until] of keys) if (until <= now) keys.delete(k);
        if (keys.size === 0) this.sharedByTag.delete(tag);
      }
    }
  }

  clear(): void {
    this.entries.clear();
    // What this replica stored in Redis stays: its tags' versions decide, and the cleared local
    // tier says nothing about them.
  }

  private setLocal(key: string, answer: CachedAnswer, mark: number): boolean {
    if (this.options.records.changedSince(mark, answer.tags)) return false;
    return this.entries.set(key, answer, answer.freshUntil - Date.now());
  }

  private drop(tags: readonly string[]): void {
    this.entries.dropTagged(tags);
    const now = Date.now();
    const stale = new Set<string>();
    for (const tag of tags) {
      for (const [key, until] of this.sharedByTag.get(tag) ?? []) if (until > now) stale.add(key);
      this.sharedByTag.delete(tag);
    }
    if (stale.size > 0) this.options.shared?.dropAnswers([...stale]);
  }
}
