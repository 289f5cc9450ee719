/**
 * The shared response cache: one LRU bounded in bytes across every request of the process, the
 * first tier (with a Redis, `cache-shared.ts` is the second, shared by the replicas).
 * Keys always start with the caller's credential identity, so data fetched with one credential is
 * never served to another. Entries carry tags (record ids, list kinds) so that a mutation can drop
 * exactly what it changed: tags name the upstream resources an answer read (`governance:entity:<id>`,
 * `governance:list:entities`, `calendar:events`…), the one vocabulary for every cache layer. An
 * entry outlives its TTL by the longest staleness any stale answer may have (`maxStaleMs`, during
 * a 429 pause or an upstream failure; `keepStaleMs`, while the budget runs low); a normal read
 * treats it as a miss.
 *
 * Invalidation is ordered: each invalidation gets a sequence number, and an answer whose request
 * started before an invalidation of one of its tags is not stored, so a read that raced a write can
 * never put the pre-write data back.
 */
import { TaggedLru } from './tagged-lru.js';
import type { HttpResponse } from './http.js';

export interface CacheOptions {
  maxBytes: number;
  /** How long past its TTL an entry may answer during a 429 pause or an upstream failure (`get`'s bound). */
  maxStaleMs: number;
  /** How long past its TTL an entry is kept at least, for stale answers of other reasons (a low budget). */
  keepStaleMs?: number;
}

export interface CachedResponse {
  response: HttpResponse;
  freshUntil: number;
  tags: readonly string[];
  /** Taken from another answer that held the record (`harvest.ts`), not fetched by its own request. */
  harvested?: boolean;
}

/** Whatever keeps answers derived from the cached records (the whole-answer cache) follows these. */
export interface CacheFollower {
  /** Entries carrying these tags were dropped (a write here or announced by another replica). */
  invalidated(tags: readonly string[]): void;
  /** Everything was dropped (the shared tier's messages may have been lost). */
  cleared(): void;
}

export class ResponseCache {
  private readonly entries: TaggedLru<CachedResponse>;
  private seq = 0;
  /** Tag → sequence number of its latest invalidation. */
  private readonly invalidatedAt = new Map<string, number>();
  private readonly followers: CacheFollower[] = [];

  /** How long past its TTL any entry is kept: the longest staleness any stale answer may have. */
  private readonly staleMs: number;

  constructor(private readonly options: CacheOptions) {
    this.staleMs = Math.max(options.maxStaleMs, options.keepStaleMs ?? 0);
    // Parsed JSON takes roughly twice its text size in memory.
    this.entries = new TaggedLru(options.maxBytes, (v, k) => k.length + v.response.bytes * 2 + 64);
  }

  static key(identity: string, method: string, url: string, body?: unknown): string {
    return `${identity}\u0000${method}\u0000${url}\u0000${body === undefined ? '' : JSON.stringify(body)}`;
  }

  /** The keys held, for diagnostics and tests. */
  keys(): string[] {
    return this.entries.keys();
  }

  /** The entry under `key`, unless it expired more than `maxStaleMs` ago. */
  get(key: string, now = Date.now(), maxStaleMs = this.options.maxStaleMs) {
    const entry = this.entries.get(key);
    if (!entry || now > entry.freshUntil + maxStaleMs) return undefined;
    return { entry, fresh: now < entry.freshUntil };
  }

  follow(follower: CacheFollower): void {
    this.followers.push(follower);
  }

  /** A mark taken before a request is sent; pass it to `set` and `changedSince`. */
  mark(): number {
    return this.seq;
  }

  /** Whether any of these tags was invalidated after `mark`. */
  changedSince(mark: number, tags: readonly string[]): boolean {
    return tags.some((t) => (this.invalidatedAt.get(t) ?? -1) >= mark);
  }

  set(key: string, response: HttpResponse, ttlMs: number, tags: readonly string[], mark?: number): void {
    if (ttlMs <= 0) return;
    if (mark !== undefined && this.changedSince(mark, tags)) return;
    const entry: CachedResponse = { response, freshUntil: Date.now() + ttlMs, tags };
    this.entries.set(key, entry, ttlMs + this.staleMs);
  }

  /**
   * Keeps a record found inside another answer (`harvest.ts`) as the entry its own read would have
   * made, unless one of its tags was invalidated since `mark` or the entry there stays fresh longer.
   */
  keep(key: string, response: HttpResponse, freshUntil: number, tags: readonly string[], mark: number): boolean {
    const ttlMs = freshUntil - Date.now();
    if (ttlMs <= 0 || this.changedSince(mark, tags)) return false;
    const held = this.entries.get(key);
    if (held && held.freshUntil >= freshUntil) return false;
    this.entries.set(key, { response, freshUntil, tags, harvested: true }, ttlMs + this.staleMs);
    return true;
  }

  /**
   * Told about every invalidation made here (not those received from elsewhere), to carry it to the
   * shared tier; a returned promise is tracked until it settles (see `settled`).
   */
  onInvalidate?: (tags: readonly string[]) => Promise<void> | void;
  private readonly spreading = new Set<Promise<void>>();

  /** Drops every entry carrying any of these tags, whoever fetched it, here and in the shared tier. */
  invalidate(tags: readonly string[]): number {
    const dropped = this.invalidateLocal(tags);
    const spread = this.onInvalidate?.(tags);
    if (spread) {
      // The shared tier keeps what it could not send and retries (cache-shared.ts); here only its end is awaited.
      const tracked = spread.catch(() => undefined).finally(() => this.spreading.delete(tracked));
      this.spreading.add(tracked);
    }
    return dropped;
  }

  /**
   * Resolves once every invalidation made so far has reached the shared tier (or given up, bounded
   * by the Redis command timeout); undefined when none is on its way, so the common case costs nothing.
   * A mutation's answer waits for it, so a read sent after that answer, to any replica, sees the write.
   */
  settled(): Promise<void> | undefined {
    if (this.spreading.size === 0) return undefined;
    return Promise.all([...this.spreading]).then(() => undefined);
  }

  /** Drops tagged entries of this process only (an invalidation announced by another replica). */
  invalidateLocal(tags: readonly string[]): number {
    const seq = this.seq++;
    for (const tag of tags) {
      this.invalidatedAt.set(tag, seq);
      if (this.invalidatedAt.size > 100_000) this.invalidatedAt.clear(); // only in-flight reads need it
    }
    const dropped = this.entries.dropTagged(tags);
    for (const f of this.followers) f.invalidated(tags);
    return dropped;
  }

  clear(): void {
    this.entries.clear();
    for (const f of this.followers) f.cleared();
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.entries.bytes;
  }
}
