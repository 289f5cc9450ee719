/**
 * Holds an answer until the cache invalidations its operation made have reached the shared tier
 * (Redis counters bumped, replicas told), so that a client that reads through another replica
 * right after a mutation's answer sees the write. Costs nothing when no invalidation is on its way;
 * a lost Redis bounds the wait by its command timeout.
 */
import type { Plugin } from 'graphql-yoga';
import type { ResponseCache } from '../../core/cache.js';

export function useCacheSettle(cache: ResponseCache): Plugin {
  return {
    onResultProcess() {
      return cache.settled();
    },
  };
}
