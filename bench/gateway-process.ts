/**
 * The gateway as the bench measures it: its own process, configured from the environment the
 * orchestrator passes (upstream URLs of the emulators, credentials, limits), listening on a free
 * port. `clear-cache` is the admin hook for cold runs; it exists only in this bench child, never in
 * the served gateway. BENCH_PATIENT=1 (the storm workload, a client that waits) stretches the
 * fixed per-request deadline and 429 resends, which are constants of the gateway, not settings.
 * BENCH_YOGA_RESPONSE_CACHE (workload 12b) puts `@graphql-yoga/plugin-response-cache` after the
 * gateway's plugins (where its own response cache stores, after graphql-jit) instead of its own, keyed by the same partition (`hit`), or by
 * a new key per request (`miss`: every request a miss that stores its answer).
 * BENCH_NO_JIT=1 runs it without graphql-jit, to measure what compiled execution saves
 * (docs/decisions/graphql-jit.md).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config/config.js';
import { useResponseCache } from '@graphql-yoga/plugin-response-cache';
import { createGateway } from '../src/app/gateway.js';
import { cachePartition } from '../src/app/context.js';
import { principalOf } from '../src/identity/principal.js';
import { announceReady, serveParent } from './ipc.js';

const loaded = { ...loadConfig(process.env), jit: !process.env.BENCH_NO_JIT };
const config = process.env.BENCH_PATIENT
  ? { ...loaded, traffic: { ...loaded.traffic, requestDeadlineMs: 180_000, rateLimitRetries: 50 } }
  : loaded;
const yogaCache = process.env.BENCH_YOGA_RESPONSE_CACHE;
const lastPlugins = yogaCache
  ? [
      useResponseCache<{ req?: IncomingMessage }>({
        session: (request, context) =>
          yogaCache === 'miss'
            ? randomUUID()
            : cachePartition(config, principalOf(context.req), request.headers.get('authorization') ?? undefined),
        ttl: config.cache.ttlMs,
      }),
    ]
  : [];
const gateway = createGateway({ config, lastPlugins });
const server = createServer(gateway.handler);
server.keepAliveTimeout = 60_000;

serveParent({
  'clear-cache': () => {
    const entries = gateway.upstreams.cache.size;
    gateway.upstreams.cache.clear();
    return entries;
  },
  // Workload 7 starts its burst only once the shared budget is really shared.
  'redis-ready': () => gateway.upstreams.redis?.ready ?? false,
  // Workload 8 starts once the response cache's Redis tier is in use.
  'cache-shared-ready': () => gateway.upstreams.sharedCache?.ready ?? false,
  // What GET /metrics serves (which the production profile guards with credentials), for the replay.
  metrics: () => gateway.observability.metrics?.registry.metrics() ?? '',
});

server.listen(0, '127.0.0.1', () => {
  announceReady(`http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`);
});

const stop = async () => {
  server.closeAllConnections();
  server.close();
  await gateway.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
