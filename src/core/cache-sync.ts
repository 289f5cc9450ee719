/**
 * Invalidations shared between replicas: each replica keeps its own response cache, so a mutation
 * made through one replica is announced on a Redis channel and every other replica drops the same
 * tags. Without this a read served by another replica could show pre-write data until its TTL ran
 * out. Best effort by nature: while Redis is away the announcement is lost and the TTL bounds the
 * staleness, as it does for changes made outside the gateway.
 */
import { randomUUID } from 'node:crypto';
import type { ResponseCache } from './cache.js';
import type { RedisLink } from './redis.js';

export function shareInvalidations(cache: ResponseCache, redis: RedisLink): void {
  const channel = redis.key('cache-invalidate');
  const self = randomUUID();
  cache.onInvalidate = (tags) => {
    if (!redis.ready || tags.length === 0) return;
    redis.client.publish(channel, JSON.stringify({ from: self, tags })).catch(() => undefined);
  };
  redis.subscriber.on('message', (ch: string, message: string) => {
    if (ch !== channel) return;
    try {
      const { from, tags } = JSON.parse(message) as { from?: string; tags?: unknown };
      if (from !== self && Array.isArray(tags)) cache.invalidateLocal(tags.filter((t): t is string => typeof t === 'string'));
    } catch {
      // Not ours to understand; ignore.
    }
  });
  void redis.subscriber.subscribe(channel).catch(() => undefined);
}
