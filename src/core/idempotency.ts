/**
 * Idempotency keys of creates: what the first attempt with a key did, kept for a TTL so that a
 * retry gets the first result instead of a second record. Entries live in Redis when configured
 * (every replica sees them) and in a bounded in-process LRU otherwise, or while Redis is away.
 *
 * States: `pending` (the first attempt is running; one that outlives `pendingMs` — its process died
 * mid-write — counts as `unknown`), `done` (its result), `unknown` (the write may or may not have
 * been applied). A first attempt that certainly wrote nothing forgets its key.
 */
import { LRUCache } from 'lru-cache';
import type { RedisLink } from './redis.js';
import type { TrafficLogger } from './traffic-log.js';
import { ownJson } from './records.js';

export type IdempotencyEntry =
  | { state: 'pending'; fingerprint: string; startedAt: number }
  | { state: 'done'; fingerprint: string; result: unknown }
  | { state: 'unknown'; fingerprint: string };

export interface IdempotencyOptions {
  redis?: RedisLink;
  ttlMs: number;
  /** A pending entry older than this belongs to an attempt that will never finish. */
  pendingMs: number;
  /** Entries kept in memory. */
  maxEntries?: number;
  log?: TrafficLogger;
}

export class IdempotencyStore {
  private readonly memory: LRUCache<string, IdempotencyEntry>;
  private warned = false;

  constructor(private readonly options: IdempotencyOptions) {
    this.memory = new LRUCache({ max: options.maxEntries ?? 10_000, ttl: options.ttlMs });
  }

  /** Claims `key` for a first attempt (`null`), or answers what an earlier attempt left. */
  async begin(key: string, fingerprint: string): Promise<IdempotencyEntry | null> {
    const pending: IdempotencyEntry = { state: 'pending', fingerprint, startedAt: Date.now() };
    const redis = this.redis();
    if (!redis) return this.beginLocal(key, pending);
    let raw: string | null;
    try {
      const k = redis.key('idempotency', key);
      if ((await redis.client.set(k, JSON.stringify(pending), 'PX', this.options.ttlMs, 'NX')) === 'OK') return null;
      raw = await redis.client.get(k);
    } catch {
      return this.beginLocal(key, pending);
    }
    // Gone between the two commands (expired): claim it again.
    return raw === null ? this.begin(key, fingerprint) : this.age(ownJson<IdempotencyEntry>(raw));
  }

  async finish(key: string, entry: IdempotencyEntry): Promise<void> {
    this.memory.set(key, entry);
    const redis = this.redis();
    // Kept in memory in any case; the Redis copy is what other replicas see.
    await redis?.bestEffort(
      'idempotency record',
      redis.client.set(redis.key('idempotency', key), JSON.stringify(entry), 'PX', this.options.ttlMs),
    );
  }

  async forget(key: string): Promise<void> {
    this.memory.delete(key);
    const redis = this.redis();
    await redis?.bestEffort('idempotency forget', redis.client.del(redis.key('idempotency', key)));
  }

  private beginLocal(key: string, pending: IdempotencyEntry): IdempotencyEntry | null {
    const existing = this.memory.get(key);
    if (existing) return this.age(existing);
    this.memory.set(key, pending);
    return null;
  }

  private age(entry: IdempotencyEntry): IdempotencyEntry {
    if (entry.state === 'pending' && Date.now() - entry.startedAt > this.options.pendingMs)
      return { state: 'unknown', fingerprint: entry.fingerprint };
    return entry;
  }

  private redis(): RedisLink | undefined {
    const { redis } = this.options;
    if (!redis) return undefined;
    if (redis.ready) {
      this.warned = false;
      return redis;
    }
    if (!this.warned) {
      this.warned = true;
      this.options.log?.({ level: 'warn', msg: 'redis unreachable: idempotency keys are kept in this replica only' });
    }
    return undefined;
  }
}
