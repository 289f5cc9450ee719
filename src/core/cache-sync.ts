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
import type { TrafficLogger } from './traffic-log.js';

export function shareInvalidations(cache: ResponseCache, redis: RedisLink, log?: TrafficLogger): void {
  // A lost announcement leaves other replicas serving pre-write data until the TTL: worth a warning.
  const lost = (what: string) => (error: unknown) =>
    log?.({ level: 'warn', msg: `cache invalidation: ${what}`, error: error instanceof Error ? error.message : String(error) });
  const channel = redis.key('cache-invalidate');
  const self = randomUUID();
  cache.onInvalidate = (tags) => {
    if (!redis.ready || tags.length === 0) return;
    redis.client.publish(channel, JSON.stringify({ from: self, tags })).catch(lost('announcement not sent, other replicas keep their copies until the TTL'));
  };
  redis.subscriber.on('message', (ch: string, message: string) => {
    if (ch !== channel) return;
    try {
      const { from, tags } = JSON.parse(message) as { from?: string; tags?: unknown };
      if (from !== self && Array.isArray(tags)) cache.invalidateLocal(tags.filter((t): t is string => typeof t === 'string'));
    } catch (error) {
      lost('an announcement that is not JSON was ignored')(error);
    }
  });
  redis.subscriber.subscribe(channel).catch(lost('not subscribed, writes through other replicas will not reach this cache'));
}
