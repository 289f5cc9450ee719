/**
 * The gateway's configuration, read from the environment once at start-up. Every problem is
 * collected and reported together, one clear line each, so an operator fixes them in one go.
 * Secrets are only ever held here and in the adapters; nothing here is logged.
 */
import { readDiscoveryConfig, type DiscoveryConfig } from './discovery.js';
import { EnvReader, type Env } from './env-reader.js';
import { readTrafficConfig, type RateProfile, type TrafficConfig } from './traffic.js';

import { readObservabilityConfig, type ObservabilityConfig } from '../observability/config.js';

export type { RateProfile } from './traffic.js';
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
    ttlMs: number;
    maxStaleMs: number;
    /** The Redis tier shared by replicas (`src/core/cache-shared.ts`), used when a Redis is configured. */
    shared: { enabled: boolean; waitMs: number; maxEntryBytes: number };
  };
  retry: { retries: number; baseDelayMs: number; maxDelayMs: number };
  /** GraphiQL at /graphql for browsers; on by default outside production. */
  graphiql: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** /metrics, /ready timeout, OpenTelemetry export (`src/observability/config.ts`). */
  observability: ObservabilityConfig;
  /** `only`: execute nothing but the safelisted operations (by hash); `allow`: hashes or full text; `off`: text only. */
  persistedOperations: 'off' | 'allow' | 'only';
  /** Account budget, 429 pause, queue deadline, per-operation budget, Redis sharing (`src/config/traffic.ts`). */
  traffic: TrafficConfig;
  /** Request hardening (see `src/http/plugins/use-security.ts`); production defaults are the strict ones. */
  security: SecurityConfig;
  /** Write integrity: record locks and idempotency keys (see README "Writes"). */
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

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = new EnvReader(env, problems);

  const nodeEnv = read.oneOf('NODE_ENV', ['development', 'production', 'test'] as const, 'development');
  const production = nodeEnv === 'production';
  const governanceUrl = read.url('GOVERNANCE_URL');
  const calendarUrl = read.url('CALENDAR_URL');
  const rateProfile = read.oneOf('GOVERNANCE_RATE_PROFILE', ['production', 'sandbox'] as const, 'production');
  const graphiql = read.bool('GRAPHIQL', !production);

  const config: Config = {
    port: read.int('PORT', 4000, 0, 65535),
    host: read.string('HOST') ?? '0.0.0.0',
    env: nodeEnv,
    governance: {
      url: governanceUrl?.replace(/\/+$/, ''),
      tokenUrl:
        read.url('GOVERNANCE_TOKEN_URL') ??
        (governanceUrl ? `${governanceUrl.replace(/\/+$/, '')}/api/access/v1/oauth/token` : undefined),
      clientId: read.string('GOVERNANCE_CLIENT_ID'),
      clientSecret: read.string('GOVERNANCE_CLIENT_SECRET'),
      authMode: read.oneOf('GOVERNANCE_AUTH_MODE', ['configured', 'forward'] as const, 'configured'),
      rateProfile,
    },
    calendar: {
      url: calendarUrl?.replace(/\/+$/, ''),
      user: read.string('CALENDAR_USER'),
      appPassword: read.string('CALENDAR_APP_PASSWORD'),
      authMode: read.oneOf('CALENDAR_AUTH_MODE', ['configured', 'forward'] as const, 'configured'),
    },
    redisUrl: read.url('REDIS_URL', ['redis:', 'rediss:']),
    redisCacheUrl: read.url('REDIS_CACHE_URL', ['redis:', 'rediss:']),
    maxPageSize: read.int('GATEWAY_MAX_PAGE_SIZE', 500, 1, 10_000),
    timeouts: {
      connectMs: read.int('UPSTREAM_CONNECT_TIMEOUT_MS', 5_000, 1, 600_000),
      headersMs: read.int('UPSTREAM_HEADERS_TIMEOUT_MS', 15_000, 1, 600_000),
      bodyMs: read.int('UPSTREAM_BODY_TIMEOUT_MS', 15_000, 1, 600_000),
    },
    maxUpstreamBodyBytes: read.int('UPSTREAM_MAX_BODY_BYTES', 10 * 1024 * 1024, 1024, 1024 ** 3),
    maxConcurrent: {
      governance: read.int('GOVERNANCE_MAX_CONCURRENT', 64, 1, 1024),
      calendar: read.int('CALENDAR_MAX_CONCURRENT', 8, 1, 1024),
    },
    cache: {
      maxBytes: read.int('CACHE_MAX_BYTES', 64 * 1024 * 1024, 0, 16 * 1024 ** 3),
      ttlMs: read.int('CACHE_TTL_MS', 30_000, 0, 86_400_000),
      maxStaleMs: read.int('CACHE_MAX_STALE_MS', 300_000, 0, 86_400_000),
      shared: {
        enabled: read.bool('CACHE_SHARED', true),
        waitMs: read.int('CACHE_SHARED_WAIT_MS', 2_000, 0, 60_000),
        maxEntryBytes: read.int('CACHE_SHARED_MAX_ENTRY_BYTES', 1024 * 1024, 0, 512 * 1024 * 1024),
      },
    },
    retry: {
      retries: read.int('UPSTREAM_RETRIES', 2, 0, 10),
      baseDelayMs: read.int('UPSTREAM_RETRY_BASE_MS', 100, 0, 60_000),
      maxDelayMs: read.int('UPSTREAM_RETRY_MAX_MS', 2_000, 0, 600_000),
    },
    graphiql,
    logLevel: read.oneOf(
      'LOG_LEVEL',
      ['debug', 'info', 'warn', 'error', 'silent'] as const,
      nodeEnv === 'test' ? 'warn' : 'info',
    ),
    observability: readObservabilityConfig(env, problems),
    persistedOperations: read.oneOf('PERSISTED_OPERATIONS', ['off', 'allow', 'only'] as const, 'off'),
    security: readSecurity(read, production, graphiql),
    traffic: readTrafficConfig(env, problems, rateProfile),
    writes: { lockLeaseMs: 0, lockWaitMs: 0, idempotencyTtlMs: 0 },
    inputLimits: {
      name: read.int('GATEWAY_MAX_NAME_LENGTH', 255, 1, 100_000),
      search: read.int('GATEWAY_MAX_SEARCH_LENGTH', 500, 1, 100_000),
      text: read.int('GATEWAY_MAX_TEXT_LENGTH', 65_535, 1, 10_000_000),
      field: read.int('GATEWAY_MAX_FIELD_LENGTH', 2_000, 1, 1_000_000),
    },
    discovery: readDiscoveryConfig(read.string('GOVERNANCE_DISCOVERY_FILE'), problems),
    live: {
      pollIntervalMs: read.int('LIVE_POLL_INTERVAL_MS', 30_000, 10, 3_600_000),
      minPollIntervalMs: read.int('LIVE_POLL_MIN_INTERVAL_MS', 5_000, 10, 3_600_000),
      maxPollIntervalMs: read.int('LIVE_POLL_MAX_INTERVAL_MS', 300_000, 10, 3_600_000),
      pollBudgetShare: read.int('LIVE_POLL_BUDGET_PERCENT', 10, 0, 100) / 100,
    },
  };
  const writeDeadline = config.timeouts.connectMs + config.timeouts.headersMs + config.timeouts.bodyMs;
  config.writes = {
    lockLeaseMs: read.int('WRITE_LOCK_LEASE_MS', writeDeadline + 5_000, 1_000, 3_600_000),
    lockWaitMs: read.int('WRITE_LOCK_WAIT_MS', config.traffic.queueDeadlineMs, 0, 3_600_000),
    idempotencyTtlMs: read.int('IDEMPOTENCY_TTL_MS', 86_400_000, 1_000, 30 * 86_400_000),
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
  if (Boolean(governanceUrl) !== Boolean(calendarUrl)) {
    problems.push(
      'Set both GOVERNANCE_URL and CALENDAR_URL to use real upstreams, or neither to use the embedded emulators.',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function readSecurity(read: EnvReader, production: boolean, graphiql: boolean): SecurityConfig {
  return {
    // GraphiQL needs introspection, so turning GraphiQL on in production turns introspection on too,
    // unless ALLOW_INTROSPECTION says otherwise.
    introspection: read.bool('ALLOW_INTROSPECTION', !production || graphiql),
    fieldSuggestions: read.bool('GRAPHQL_FIELD_SUGGESTIONS', !production),
    csrfPrevention: read.bool('CSRF_PREVENTION', production),
    maxBatch: read.int('GRAPHQL_MAX_BATCH', 0, 0, 100),
    maxRequestBodyBytes: read.int('GRAPHQL_MAX_BODY_BYTES', 1024 * 1024, 1024, 1024 ** 3),
    maxErrors: read.int('GRAPHQL_MAX_ERRORS', 50, 1, 10_000),
    maxDepth: read.int('GRAPHQL_MAX_DEPTH', 10, 1, 100),
    maxAliases: read.int('GRAPHQL_MAX_ALIASES', 15, 0, 1000),
    maxDirectives: read.int('GRAPHQL_MAX_DIRECTIVES', 20, 0, 1000),
    maxTokens: read.int('GRAPHQL_MAX_TOKENS', 1000, 10, 100_000),
    maxFieldRepeats: read.int('GRAPHQL_MAX_FIELD_REPEATS', 3, 1, 1000),
    federationSecret: read.string('FEDERATION_SECRET'),
    federationSecretHeader: read.string('FEDERATION_SECRET_HEADER') ?? 'x-federation-secret',
  };
}
