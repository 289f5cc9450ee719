/**
 * An LRU bounded in bytes whose entries carry tags (the upstream resources they were built from),
 * so that everything built from a resource can be dropped at once. Both the record cache and the
 * whole-answer cache keep their entries in one.
 */
import { LRUCache } from 'lru-cache';

export class TaggedLru<V extends { tags: readonly string[] }> {
  private readonly lru: LRUCache<string, V>;
  private readonly byTag = new Map<string, Set<string>>();

  constructor(maxBytes: number, sizeOf: (value: V, key: string) => number) {
    this.lru = new LRUCache<string, V>({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: sizeOf,
      ttlAutopurge: false,
      dispose: (value, key) => this.unindex(key, value.tags),
    });
  }

  get(key: string): V | undefined {
    return this.lru.get(key);
  }

  /** Stores `value` for `ttlMs`; false when the LRU refuses it (larger than the whole cache). */
  set(key: string, value: V, ttlMs: number): boolean {
    this.lru.set(key, value, { ttl: Math.max(1, ttlMs) });
    // A refused entry is never disposed: indexing it would leak.
    if (!this.lru.has(key)) return false;
    for (const tag of value.tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
    return true;
  }

  /** Drops every entry carrying any of these tags; how many were dropped. */
  dropTagged(tags: readonly string[]): number {
    let dropped = 0;
    for (const tag of tags) for (const key of [...(this.byTag.get(tag) ?? [])]) if (this.lru.delete(key)) dropped++;
    return dropped;
  }

  clear(): void {
    this.lru.clear();
    this.byTag.clear();
  }

  keys(): string[] {
    return [...this.lru.keys()];
  }

  get size(): number {
    return this.lru.size;
  }

  get bytes(): number {
    return this.lru.calculatedSize;
  }

  private unindex(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }
}
