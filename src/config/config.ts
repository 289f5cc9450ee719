/**
 * The gateway's configuration, read from the environment once at start-up. Every problem is
 * collected and reported together, one clear line each, so an operator fixes them in one go.
 * Secrets are only ever held here and in the adapters; nothing here is logged.
 */
import { readAuthConfig, type AuthConfig } from './auth.js';
import { readDiscoveryConfig, type DiscoveryConfig } from './discovery.js';
import { isSet, readSettings, type Env, type Settings } from './settings.js';
import { readTrafficConfig, type TrafficConfig } from './traffic.js';

import { readObservabilityConfig, type ObservabilityConfig } from './observability.js';

export type { RateProfile } from './traffic.js';
import type { RateProfile } from './traffic.js';

/** The kinds of upstream resource whose cached reads have a freshness of their own. */
export type CacheKind = 'entities' | 'entityTypes' | 'links' | 'events' | 'venues' | 'organizers' | 'terms';
export type AuthMode = 'configured' | 'forward';

export interface UpstreamTimeouts {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}

export interface GovernanceConfig {
  /** Tenant origin, e.g. `https://tenant.example.com`; undefined → embedded emulator. */
  url?: string;
  tokenUrl?: string;
  clientId?: string;
  clientSecret?: string;
  /** `configured`: client credentials above; `forward`: the caller's own `Authorization: Bearer`. */
  authMode: AuthMode;
  rateProfile: RateProfile;
}

export interface CalendarConfig {
  /** API root including the namespace, e.g. `https://site.example/wp-json/calendar/events/v1`. */
  url?: string;
  user?: string;
  appPassword?: string;
  /** `configured`: writes use the application password above; `forward`: the caller's `Authorization`. */
  authMode: AuthMode;
}

export interface Config {
  port: number;
  host: string;
  env: 'development' | 'production' | 'test';
  governance: GovernanceConfig;
  calendar: CalendarConfig;
  redisUrl?: string;
  /** A Redis of its own for the shared response cache (an evicting one); defaults to `redisUrl`. */
  redisCacheUrl?: string;
  /** Largest `first` a list accepts; larger asks are a BAD_USER_INPUT. */
  maxPageSize: number;
  timeouts: UpstreamTimeouts;
  /** Upstream bodies larger than this are refused. */
  maxUpstreamBodyBytes: number;
  /** Concurrent requests per upstream. */
  maxConcurrent: { governance: number; calendar: number };
  cache: {
    maxBytes: number;
    /** The default freshness of a cached upstream read. */
    ttlMs: number;
    /** Freshness by kind of resource (CACHE_TTL_<KIND>_MS, else `ttlMs`); an answer's max-age follows the shortest it read. */
    ttlMsByKind: Record<CacheKind, number>;
    maxStaleMs: number;
    /** The Redis tier shared by replicas (`src/core/cache-shared.ts`), used when a Redis is configured. */
    shared: { enabled: boolean; waitMs: number; maxEntryBytes: number };
    /** Whole answers (`src/http/response-cache.ts`), in memory and in the shared tier. */
    answers: { enabled: boolean; maxBytes: number };
  };
  retry: { retries: number; baseDelayMs: number; maxDelayMs: number };
  /** GraphiQL at /graphql for browsers; on by default outside production. */
  graphiql: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** /metrics, /ready timeout, OpenTelemetry export (`src/config/observability.ts`). */
  observability: ObservabilityConfig;
  /** `only`: execute nothing but the safelisted operations (by hash); `allow`: hashes or full text; `off`: text only. */
  persistedOperations: 'off' | 'allow' | 'only';
  /** Compile repeated operations with graphql-jit (`src/http/plugins/use-jit.ts`). */
  jit: boolean;
  /** Account budget, 429 pause, queue deadline, per-operation budget, Redis sharing (`src/config/traffic.ts`). */
  traffic: TrafficConfig;
  /** Request hardening (see `src/http/plugins/use-security.ts`); production defaults are the strict ones. */
  security: SecurityConfig;
  /** Who may call: token issuers, API keys, anonymous permissions (`src/identity/`). */
  auth: AuthConfig;
  /** CORS, compression and graceful shutdown (`src/http/drain.ts`). */
  http: HttpConfig;
  /** Serve the built-in emulators' fake data (never implicitly in production). */
  embeddedEmulators: boolean;
  /** Mount the emulators' /_emulator/* fault and latency routes (off unless asked for). */
  emulatorFaultRoutes: boolean;
  /** Write integrity: record locks and idempotency keys (see docs/writes.md). */
  writes: WritesConfig;
  /** Caps on free-text arguments, in characters (see `src/graph/input-limits.ts`). */
  inputLimits: InputLimits;
  /** Relationship types, workflow stages and attribute options the governance API cannot list (`discovery.ts`). */
  discovery: DiscoveryConfig;
  /** Subscriptions: polling of changes made outside the gateway (`src/live/`). */
  live: LiveConfig;
}

export interface LiveConfig {
  /** Polling interval of a subscription that asks for none. */
  pollIntervalMs: number;
  /** Bounds of the interval a subscription may ask for. */
  minPollIntervalMs: number;
  maxPollIntervalMs: number;
  /** Largest share of an upstream's per-minute budget that polling may use, per replica. */
  pollBudgetShare: number;
}

export interface HttpConfig {
  /** Browser origins allowed by CORS; `['*']` any, `[]` none. */
  corsOrigins: string[];
  compression: boolean;
  /** How long in-flight operations may run after SIGTERM/SIGINT. */
  drainMs: number;
  /** Retry-After (s) on the 503 answering new requests during the drain. */
  retryAfterS: number;
}

export interface WritesConfig {
  /** Lease of a record's Redis lock; must outlast one write (connect + header + body timeouts). */
  lockLeaseMs: number;
  /** Longest wait for a record's lock before RECORD_BUSY. */
  lockWaitMs: number;
  /** How long an idempotency key answers with its first result. */
  idempotencyTtlMs: number;
}

export interface InputLimits {
  /** Names and titles (the governance platform allows 255). */
  name: number;
  /** Search texts (the governance platform allows 500). */
  search: number;
  /** Descriptions, excerpts, attribute values and other long text. */
  text: number;
  /** Every other string argument: addresses, phone numbers, URLs, costs, statuses… */
  field: number;
}

export interface SecurityConfig {
  /** `__schema`/`__type` allowed; off in production unless ALLOW_INTROSPECTION (or GRAPHIQL) says so. */
  introspection: boolean;
  /** "Did you mean …?" hints in error messages; hidden in production. */
  fieldSuggestions: boolean;
  /** Requests that a browser could send without a preflight must carry a custom header. */
  csrfPrevention: boolean;
  /** Operations per batched (JSON array) request; 0 turns batching off. */
  maxBatch: number;
  /** Request bodies larger than this are answered 413 before they are parsed. */
  maxRequestBodyBytes: number;
  /** Errors kept in one response; the rest are summed up in a last error. */
  maxErrors: number;
  /** GraphQL Armor limits, checked at parse/validation time, before anything runs. */
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxTokens: number;
  /** The same field literally repeated in one selection set ("field duplication"). */
  maxFieldRepeats: number;
  /** With introspection off, `_service`/`_entities` answer only requests carrying this secret (secret). */
  federationSecret?: string;
  /** The header the federation router sends the secret in. */
  federationSecretHeader: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env?: Env): Config {
  const { settings: s, problems } = readSettings(env);

  const nodeEnv = s.NODE_ENV;
  const production = nodeEnv === 'production';
  const governanceUrl = s.GOVERNANCE_URL;
  const calendarUrl = s.CALENDAR_URL;
  const graphiql = s.GRAPHIQL ?? !production;

  const config: Config = {
    port: s.PORT,
    host: s.HOST ?? '0.0.0.0',
    env: nodeEnv,
    governance: {
      url: governanceUrl?.replace(/\/+$/, ''),
      tokenUrl:
        s.GOVERNANCE_TOKEN_URL ??
        (governanceUrl ? `${governanceUrl.replace(/\/+$/, '')}/api/access/v1/oauth/token` : undefined),
      clientId: s.GOVERNANCE_CLIENT_ID,
      clientSecret: s.GOVERNANCE_CLIENT_SECRET,
      authMode: s.GOVERNANCE_AUTH_MODE,
      rateProfile: s.GOVERNANCE_RATE_PROFILE,
    },
    calendar: {
      url: calendarUrl?.replace(/\/+$/, ''),
      user: s.CALENDAR_USER,
      appPassword: s.CALENDAR_APP_PASSWORD,
      authMode: s.CALENDAR_AUTH_MODE,
    },
    redisUrl: s.REDIS_URL,
    redisCacheUrl: s.REDIS_CACHE_URL,
    maxPageSize: s.GATEWAY_MAX_PAGE_SIZE,
    timeouts: {
      connectMs: s.UPSTREAM_CONNECT_TIMEOUT_MS,
      headersMs: s.UPSTREAM_HEADERS_TIMEOUT_MS,
      bodyMs: s.UPSTREAM_BODY_TIMEOUT_MS,
    },
    maxUpstreamBodyBytes: s.UPSTREAM_MAX_BODY_BYTES,
    maxConcurrent: {
      governance: s.GOVERNANCE_MAX_CONCURRENT,
      calendar: s.CALENDAR_MAX_CONCURRENT,
    },
    cache: {
      maxBytes: s.CACHE_MAX_BYTES,
      ttlMs: s.CACHE_TTL_MS,
      ttlMsByKind: {
        entities: s.CACHE_TTL_ENTITIES_MS ?? s.CACHE_TTL_MS,
        entityTypes: s.CACHE_TTL_ENTITY_TYPES_MS ?? s.CACHE_TTL_MS,
        links: s.CACHE_TTL_LINKS_MS ?? s.CACHE_TTL_MS,
        events: s.CACHE_TTL_EVENTS_MS ?? s.CACHE_TTL_MS,
        venues: s.CACHE_TTL_VENUES_MS ?? s.CACHE_TTL_MS,
        organizers: s.CACHE_TTL_ORGANIZERS_MS ?? s.CACHE_TTL_MS,
        terms: s.CACHE_TTL_TERMS_MS ?? s.CACHE_TTL_MS,
      },
      maxStaleMs: s.CACHE_MAX_STALE_MS,
      shared: {
        enabled: s.CACHE_SHARED,
        waitMs: s.CACHE_SHARED_WAIT_MS,
        maxEntryBytes: s.CACHE_SHARED_MAX_ENTRY_BYTES,
      },
      answers: { enabled: s.RESPONSE_CACHE && s.RESPONSE_CACHE_MAX_BYTES > 0, maxBytes: s.RESPONSE_CACHE_MAX_BYTES },
    },
    retry: {
      retries: s.UPSTREAM_RETRIES,
      baseDelayMs: s.UPSTREAM_RETRY_BASE_MS,
      maxDelayMs: s.UPSTREAM_RETRY_MAX_MS,
    },
    graphiql,
    logLevel: isSet('LOG_LEVEL', env) ? s.LOG_LEVEL : nodeEnv === 'test' ? 'warn' : 'info',
    observability: readObservabilityConfig(s),
    persistedOperations: s.PERSISTED_OPERATIONS,
    jit: s.GRAPHQL_JIT,
    security: readSecurity(s, production, graphiql),
    auth: readAuthConfig(s, production, problems),
    traffic: readTrafficConfig(s, problems),
    http: {
      // Closed by default in production: a browser app on another origin must be listed.
      corsOrigins: s.CORS_ORIGINS ?? (production ? [] : ['*']),
      compression: s.COMPRESSION,
      drainMs: s.SHUTDOWN_DRAIN_MS,
      retryAfterS: s.SHUTDOWN_RETRY_AFTER_S,
    },
    embeddedEmulators: s.EMBEDDED_EMULATORS ?? (!production && !governanceUrl && !calendarUrl),
    emulatorFaultRoutes: s.EMULATOR_FAULT_ROUTES,
    discovery: readDiscoveryConfig(s.GOVERNANCE_DISCOVERY_FILE, problems),
    writes: { lockLeaseMs: 0, lockWaitMs: 0, idempotencyTtlMs: 0 },
    inputLimits: {
      name: s.GATEWAY_MAX_NAME_LENGTH,
      search: s.GATEWAY_MAX_SEARCH_LENGTH,
      text: s.GATEWAY_MAX_TEXT_LENGTH,
      field: s.GATEWAY_MAX_FIELD_LENGTH,
    },
    live: {
      pollIntervalMs: s.LIVE_POLL_INTERVAL_MS,
      minPollIntervalMs: s.LIVE_POLL_MIN_INTERVAL_MS,
      maxPollIntervalMs: s.LIVE_POLL_MAX_INTERVAL_MS,
      pollBudgetShare: s.LIVE_POLL_BUDGET_PERCENT / 100,
    },
  };
  const writeDeadline = config.timeouts.connectMs + config.timeouts.headersMs + config.timeouts.bodyMs;
  config.writes = {
    lockLeaseMs: s.WRITE_LOCK_LEASE_MS ?? writeDeadline + 5_000,
    lockWaitMs: s.WRITE_LOCK_WAIT_MS ?? config.traffic.queueDeadlineMs,
    idempotencyTtlMs: s.IDEMPOTENCY_TTL_MS,
  };
  if (config.writes.lockLeaseMs <= writeDeadline) {
    problems.push(
      `WRITE_LOCK_LEASE_MS (${config.writes.lockLeaseMs}) must be longer than one write may take: the upstream connect, header and body timeouts add up to ${writeDeadline} ms.`,
    );
  }
  if (config.live.minPollIntervalMs > config.live.maxPollIntervalMs)
    problems.push('LIVE_POLL_MIN_INTERVAL_MS must not exceed LIVE_POLL_MAX_INTERVAL_MS.');

  const g = config.governance;
  if (g.url && g.authMode === 'configured' && (!g.clientId || !g.clientSecret)) {
    problems.push(
      'GOVERNANCE_CLIENT_ID and GOVERNANCE_CLIENT_SECRET are required when GOVERNANCE_URL is set (or set GOVERNANCE_AUTH_MODE=forward).',
    );
  }
  if (!g.url && (g.clientId || g.clientSecret)) {
    problems.push(
      'GOVERNANCE_CLIENT_ID/GOVERNANCE_CLIENT_SECRET are set but GOVERNANCE_URL is not: set the tenant URL too.',
    );
  }
  const c = config.calendar;
  if (Boolean(c.user) !== Boolean(c.appPassword)) {
    problems.push('CALENDAR_USER and CALENDAR_APP_PASSWORD go together: set both or neither.');
  }
  if (config.embeddedEmulators && (governanceUrl || calendarUrl)) {
    problems.push(
      'EMBEDDED_EMULATORS=true serves the built-in emulators: unset GOVERNANCE_URL and CALENDAR_URL, or EMBEDDED_EMULATORS.',
    );
  } else if (production && !config.embeddedEmulators) {
    // Production never falls back to fake data: name everything a real deployment still needs.
    const missing = [
      ...(governanceUrl ? [] : ['GOVERNANCE_URL']),
      ...(g.authMode === 'configured' && !g.clientId ? ['GOVERNANCE_CLIENT_ID'] : []),
      ...(g.authMode === 'configured' && !g.clientSecret ? ['GOVERNANCE_CLIENT_SECRET'] : []),
      ...(calendarUrl ? [] : ['CALENDAR_URL']),
      ...(c.authMode === 'configured' && !c.user ? ['CALENDAR_USER'] : []),
      ...(c.authMode === 'configured' && !c.appPassword ? ['CALENDAR_APP_PASSWORD'] : []),
    ];
    if (missing.length > 0) {
      // One message replaces the pairwise ones above, which would repeat the same names.
      for (let i = problems.length - 1; i >= 0; i--)
        if (/GOVERNANCE_CLIENT|CALENDAR_USER and/.test(problems[i]!)) problems.splice(i, 1);
      problems.push(
        `NODE_ENV=production needs real upstreams; missing: ${missing.join(', ')}. (To serve the built-in emulators' fake data instead, set EMBEDDED_EMULATORS=true explicitly.)`,
      );
    }
  } else if (!config.embeddedEmulators && Boolean(governanceUrl) !== Boolean(calendarUrl)) {
    problems.push(
      'Set both GOVERNANCE_URL and CALENDAR_URL to use real upstreams, or neither to use the embedded emulators.',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function readSecurity(s: Settings, production: boolean, graphiql: boolean): SecurityConfig {
  return {
    // GraphiQL needs introspection, so turning GraphiQL on in production turns introspection on too,
    // unless ALLOW_INTROSPECTION says otherwise.
    introspection: s.ALLOW_INTROSPECTION ?? (!production || graphiql),
    fieldSuggestions: s.GRAPHQL_FIELD_SUGGESTIONS ?? !production,
    csrfPrevention: s.CSRF_PREVENTION ?? production,
    maxBatch: s.GRAPHQL_MAX_BATCH,
    maxRequestBodyBytes: s.GRAPHQL_MAX_BODY_BYTES,
    maxErrors: s.GRAPHQL_MAX_ERRORS,
    maxDepth: s.GRAPHQL_MAX_DEPTH,
    maxAliases: s.GRAPHQL_MAX_ALIASES,
    maxDirectives: s.GRAPHQL_MAX_DIRECTIVES,
    maxTokens: s.GRAPHQL_MAX_TOKENS,
    maxFieldRepeats: s.GRAPHQL_MAX_FIELD_REPEATS,
    federationSecret: s.FEDERATION_SECRET,
    federationSecretHeader: s.FEDERATION_SECRET_HEADER ?? 'x-federation-secret',
  };
}
