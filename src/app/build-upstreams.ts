/**
 * Builds the two upstreams from the configuration: one transport, one scheduler and one traffic
 * control (429 pause, account budget) each, one response cache shared by both (a single memory bound
 * for the process), and with `REDIS_URL` one Redis link through which replicas share the budgets
 * and pauses, and the response cache's Redis tier (on `REDIS_CACHE_URL` when that is set).
 */
import type { Config } from '../config/config.js';
import { AccountBudget } from '../core/budget.js';
import { UpstreamBreaker } from '../core/breaker.js';
import { ResponseCache } from '../core/cache.js';
import { SharedCacheTier } from '../core/cache-shared.js';
import { HttpTransport } from '../core/http.js';
import { UpstreamLimiter } from '../core/concurrency-cap.js';
import { pacingRules } from '../core/fair-share.js';
import { IdempotencyStore } from '../core/idempotency.js';
import { RecordLocks } from '../core/record-locks.js';
import { PauseGate } from '../core/pause.js';
import { Ramp } from '../core/ramp.js';
import { RedisLink } from '../core/redis.js';
import { TrafficControl } from '../core/traffic.js';
import { consoleTrafficLogger, type TrafficLogger } from '../core/traffic-log.js';
import { Upstream } from '../core/upstream-pipeline.js';
import type { UpstreamName } from '../core/errors.js';
import type { UpstreamObserver } from '../core/observer.js';

export interface Upstreams {
  governance: Upstream;
  calendar: Upstream;
  cache: ResponseCache;
  /** Present when `REDIS_URL` is set. */
  redis?: RedisLink;
  /** Per-record write locks (shared through Redis when configured). */
  locks: RecordLocks;
  /** Idempotency keys of creates (in Redis when configured). */
  idempotency: IdempotencyStore;
  /** The response cache's Redis tier: present with a Redis. */
  sharedCache?: SharedCacheTier;
  close(): Promise<void>;
}

export interface UpstreamsOptions {
  /** Receives traffic events (429s, Redis state); defaults to JSON lines on stderr per LOG_LEVEL. */
  log?: TrafficLogger;
}

/** What both upstreams share: the response cache and its Redis tier, the Redis link, the log. */
interface Shared {
  config: Config;
  observer?: UpstreamObserver;
  cache: ResponseCache;
  sharedCache?: SharedCacheTier;
  redis?: RedisLink;
  log: TrafficLogger;
}

export function createUpstreams(
  config: Config,
  observer?: UpstreamObserver,
  options: UpstreamsOptions = {},
): Upstreams {
  if (!config.governance.url || !config.calendar.url) {
    throw new Error('createUpstreams needs both upstream URLs (server.ts fills them in from the embedded emulators).');
  }
  const t = config.traffic;
  const log = options.log ?? consoleTrafficLogger(config.logLevel);
  const redis = config.redisUrl
    ? new RedisLink({ url: config.redisUrl, prefix: t.redisKeyPrefix, commandTimeoutMs: t.redisCommandTimeoutMs, log })
    : undefined;
  const { maxBytes, maxStaleMs, budgetStale } = config.cache;
  const cache = new ResponseCache({ maxBytes, maxStaleMs, keepStaleMs: budgetStale.maxStaleMs });
  // The cache's own Redis logs through the tier (the budget's messages would mislead).
  const cacheRedis = config.redisCacheUrl
    ? new RedisLink({ url: config.redisCacheUrl, prefix: t.redisKeyPrefix, commandTimeoutMs: t.redisCommandTimeoutMs })
    : redis;
  const sharedCache = cacheRedis && sharedTier(config, cache, cacheRedis, log);
  const shared: Shared = { config, observer, cache, sharedCache, redis, log };
  const governance = buildUpstream(
    shared,
    'governance',
    `${config.governance.url}/api/ai-governance/v1`,
    config.maxConcurrent.governance,
  );
  const calendar = buildUpstream(shared, 'calendar', config.calendar.url, config.maxConcurrent.calendar);
  const w = config.writes;
  return {
    governance: governance.upstream,
    calendar: calendar.upstream,
    cache,
    redis,
    locks: new RecordLocks({ redis, leaseMs: w.lockLeaseMs, waitMs: w.lockWaitMs, log }),
    idempotency: new IdempotencyStore({ redis, ttlMs: w.idempotencyTtlMs, pendingMs: w.lockLeaseMs, log }),
    sharedCache,
    async close() {
      await Promise.all([
        governance.limiter.stop(),
        calendar.limiter.stop(),
        governance.traffic.stop(),
        calendar.traffic.stop(),
      ]);
      await redis?.close();
      if (cacheRedis !== redis) await cacheRedis?.close();
      await Promise.all([governance.transport.close(), calendar.transport.close()]);
    },
  };
}

function sharedTier(config: Config, cache: ResponseCache, redis: RedisLink, log: TrafficLogger): SharedCacheTier {
  const shared = config.cache.shared;
  return new SharedCacheTier(cache, {
    redis,
    waitMs: shared.waitMs,
    ackTimeoutMs: config.traffic.redisCommandTimeoutMs,
    maxEntryBytes: shared.maxEntryBytes,
    log,
  });
}

function buildUpstream(shared: Shared, name: UpstreamName, baseUrl: string, maxConcurrent: number) {
  const { config, redis, log } = shared;
  const t = config.traffic;
  const transport = new HttpTransport({
    upstream: name,
    timeouts: config.timeouts,
    maxBodyBytes: config.maxUpstreamBodyBytes,
    connections: maxConcurrent,
  });
  const traffic = trafficControl(config, name, redis, log);
  const limiter = new UpstreamLimiter({ upstream: name, maxConcurrent, weightOf: traffic.shares.weightOf });
  const upstream = new Upstream({
    name,
    baseUrl: new URL(baseUrl),
    transport,
    limiter,
    cache: shared.cache,
    shared: shared.sharedCache,
    retry: config.retry,
    traffic,
    retryAfter: { defaultMs: t.defaultRetryAfterMs, maxMs: t.maxPauseMs },
    rateLimitRetries: t.rateLimitRetries,
    requestDeadlineMs: t.requestDeadlineMs,
    log,
    breaker: new UpstreamBreaker({
      upstream: name,
      threshold: config.breaker.failures,
      openMs: config.breaker.openMs,
      redis,
      log,
      onChange: (state) => shared.observer?.breaker?.({ upstream: name, state }),
    }),
    observer: shared.observer,
    reuse: config.cache.reuse,
    budgetStale: config.cache.budgetStale,
  });
  return { upstream, transport, limiter, traffic };
}

/** Admission to one account: its budget, its 429 pause and the ramp after a pause. */
function trafficControl(config: Config, name: UpstreamName, redis: RedisLink | undefined, log: TrafficLogger) {
  const t = config.traffic;
  const budget = new AccountBudget({
    upstream: name,
    rules: t[name].rules,
    margin: t[name].margin,
    guardMs: t[name].guardMs,
    localShare: t.localShare,
    pacing: (rules) => pacingRules(rules, t.fairShare.smooth),
    redis,
    log,
  });
  const pause = new PauseGate({ upstream: name, redis, log });
  const { shortest } = budget;
  const ramp = new Ramp({
    upstream: name,
    pause,
    redis,
    stepMs: t.rampStepMs,
    paceMs: shortest ? shortest.spanMs / shortest.allowed : 0,
    spanMs: shortest?.spanMs ?? 0,
    leaseMs: t.requestDeadlineMs,
  });
  return new TrafficControl({
    upstream: name,
    budget,
    pause,
    ramp,
    deadlineMs: t.queueDeadlineMs,
    fairShare: t.fairShare,
  });
}
