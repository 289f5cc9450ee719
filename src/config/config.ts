/**
 * The gateway's configuration, read from the environment once at start-up. Every problem is
 * collected and reported together, one clear line each, so an operator fixes them in one go.
 * Secrets are only ever held here and in the adapters; nothing here is logged.
 */
import { readAuthConfig, type AuthConfig } from './auth.js';
import { readDiscoveryConfig, type DiscoveryConfig } from './discovery.js';
import { CACHE_KINDS, isSet, processEnv, readSettings, type CacheKind, type Env, type Settings } from './settings.js';
import { readTrafficConfig, type RateProfile, type TrafficConfig } from './traffic.js';
import { readObservabilityConfig, type ObservabilityConfig } from './observability.js';

export type { CacheKind } from './settings.js';

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
    /** Records inside answers and cached list prefixes answer later reads (`on`), or are only counted (`shadow`). */
    reuse: 'off' | 'shadow' | 'on';
    /** Below this share of an account's budget left, reads accept cached records up to `maxStaleMs` past their TTL. */
    budgetStale: { below: number; maxStaleMs: number };
    /** The Redis tier shared by replicas (`src/core/cache-shared.ts`), used when a Redis is configured. */
    shared: { waitMs: number; maxEntryBytes: number };
    /** How long a list of events that has to go upstream waits for others to share its request (`calendar/list-batch.ts`). */
    listBatchWindowMs: number;
    /** Whole answers (`src/http/response-cache.ts`), in memory and in the shared tier. */
    answers: { enabled: boolean; maxBytes: number };
  };
  retry: { retries: number; baseDelayMs: number; maxDelayMs: number };
  /** Per-upstream circuit breaker (`core/breaker.ts`): failures in a row that open it, time it stays open. */
  breaker: { failures: number; openMs: number };
  /** GraphiQL at /graphql for browsers; on by default outside production. */
  graphiql: boolean;
  /** The MCP endpoint /mcp (`src/mcp/`): on, write tools listed, result caps. */
  mcp: { enabled: boolean; mutations: boolean; maxRecords: number; maxChars: number };
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** /metrics, /ready timeout, OpenTelemetry export (`src/config/observability.ts`). */
  observability: ObservabilityConfig;
  /** `only`: execute nothing but the safelisted operations (by hash); `allow`: hashes or full text; `off`: text only. */
  persistedOperations: 'off' | 'allow' | 'only';
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
  /** Relationship types, workflow stages and attribute options the governance API cannot list (`discovery.ts`). */
  discovery: DiscoveryConfig;
  /** The file `discovery` was read from (GOVERNANCE_DISCOVERY_FILE), when one is configured. */
  discoveryFile?: string;
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

/**
 * Fixed values that used to be settings. Each follows from the upstreams, the schema or the
 * protocol rather than from a deployment; tests that need other values inject a config object.
 */
const FIXED = {
  /** The governance platform pages at 50; 500 bounds one list's fan-out while staying generous. */
  maxPageSize: 500,
  /** A healthy upstream connects in milliseconds and answers within a few seconds. */
  timeouts: { connectMs: 5_000, headersMs: 15_000, bodyMs: 15_000 },
  /** The largest legitimate upstream page is a few hundred kB. */
  maxUpstreamBodyBytes: 10 * 1024 * 1024,
  /** Exponential, jittered backoff between read retries. */
  retry: { baseDelayMs: 100, maxDelayMs: 2_000 },
  /**
   * Circuit breaker: 5 failures in a row open it (below the calendar's concurrency cap of 8, so the
   * calls in flight when an upstream stalls are enough); one probe after 5 s.
   */
  breaker: { failures: 5, openMs: 5_000 },
  /** Cross-replica dedupe waits about one slow upstream read; larger answers stay local. */
  shared: { waitMs: 2_000, maxEntryBytes: 1024 * 1024 },
  /**
   * Batched event lists: a DataLoader hands one operation's lists over in one tick, and concurrent
   * operations of a credential reach the same point within milliseconds of each other. 2 ms is a
   * tenth of one upstream request (20 ms in the replay), paid only by lists that would go out anyway.
   */
  listBatchWindowMs: 2,
  /** An idempotency key answers for a day, as clients retry within minutes. */
  idempotencyTtlMs: 86_400_000,
  /** Retry-After on the 503 during a drain: about the time a replacement replica takes to be ready. */
  retryAfterS: 5,
  /**
   * /mcp results: a page an agent can read whole (about 6k tokens of JSON), sized for a model's
   * context rather than for a deployment; `nextCursor` walks the rest.
   */
  mcpCaps: { maxRecords: 20, maxChars: 25_000 },
  /** Subscriptions' polling: the default interval and the bounds a subscription may ask for. */
  live: { pollIntervalMs: 30_000, minPollIntervalMs: 5_000, maxPollIntervalMs: 300_000 },
};

/** Request hardening; the limits follow the schema's shape (its deepest legitimate query), not a deployment. */
const LIMITS = {
  maxRequestBodyBytes: 1024 * 1024,
  maxErrors: 50,
  maxDepth: 10,
  maxAliases: 15,
  maxDirectives: 20,
  maxTokens: 1000,
  maxFieldRepeats: 3,
};

/** Reads the settings (from `env`, or the process environment and a `.env` file) into a Config; throws ConfigError. */
export function loadConfig(env?: Env): Config {
  const source = env ?? processEnv();
  const { settings: s, problems } = readSettings(source);
  const production = s.NODE_ENV === 'production';
  const graphiql = s.GRAPHIQL ?? !production;
  const upstreams = readUpstreams(s, production, problems);
  const traffic = readTrafficConfig(s, upstreams.governance.rateProfile, problems);
  const config: Config = {
    port: s.PORT,
    host: s.HOST ?? '0.0.0.0',
    env: s.NODE_ENV,
    ...upstreams,
    redisUrl: s.REDIS_URL,
    redisCacheUrl: s.REDIS_CACHE_URL,
    maxPageSize: FIXED.maxPageSize,
    timeouts: FIXED.timeouts,
    maxUpstreamBodyBytes: FIXED.maxUpstreamBodyBytes,
    maxConcurrent: { governance: s.GOVERNANCE_MAX_CONCURRENT, calendar: s.CALENDAR_MAX_CONCURRENT },
    cache: readCache(s),
    retry: { retries: s.UPSTREAM_RETRIES, ...FIXED.retry },
    breaker: FIXED.breaker,
    graphiql,
    mcp: { enabled: s.MCP ?? !production, mutations: s.MCP_MUTATIONS, ...FIXED.mcpCaps },
    logLevel: isSet('LOG_LEVEL', source) ? s.LOG_LEVEL : s.NODE_ENV === 'test' ? 'warn' : 'info',
    observability: readObservabilityConfig(s),
    persistedOperations: s.PERSISTED_OPERATIONS,
    security: readSecurity(s, production, graphiql),
    auth: readAuthConfig(s, production, problems),
    traffic,
    http: {
      // Closed by default in production: a browser app on another origin must be listed.
      corsOrigins: s.CORS_ORIGINS ?? (production ? [] : ['*']),
      drainMs: s.SHUTDOWN_DRAIN_MS,
      retryAfterS: FIXED.retryAfterS,
    },
    emulatorFaultRoutes: s.EMULATOR_FAULT_ROUTES,
    discovery: readDiscoveryConfig(s.GOVERNANCE_DISCOVERY_FILE, problems),
    discoveryFile: s.GOVERNANCE_DISCOVERY_FILE,
    writes: {
      // The lease outlasts one write (the three upstream timeouts); a waiter gives up with the queue.
      lockLeaseMs: FIXED.timeouts.connectMs + FIXED.timeouts.headersMs + FIXED.timeouts.bodyMs + 5_000,
      lockWaitMs: traffic.queueDeadlineMs,
      idempotencyTtlMs: FIXED.idempotencyTtlMs,
    },
    live: { ...FIXED.live, pollBudgetShare: s.LIVE_POLL_BUDGET_PERCENT / 100 },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function readCache(s: Settings): Config['cache'] {
  const ttlMsByKind = Object.fromEntries(
    CACHE_KINDS.map((kind) => [kind, s.CACHE_TTL_BY_KIND[kind] ?? s.CACHE_TTL_MS]),
  ) as Record<CacheKind, number>;
  return {
    maxBytes: s.CACHE_MAX_BYTES,
    ttlMs: s.CACHE_TTL_MS,
    ttlMsByKind,
    maxStaleMs: s.CACHE_MAX_STALE_MS,
    reuse: s.CACHE_REUSE,
    budgetStale: { below: s.CACHE_BUDGET_STALE_BELOW, maxStaleMs: s.CACHE_BUDGET_MAX_STALE_MS },
    shared: FIXED.shared,
    listBatchWindowMs: FIXED.listBatchWindowMs,
    // Whole answers get half the memory of the upstream reads they are made of.
    answers: { enabled: s.RESPONSE_CACHE && s.CACHE_MAX_BYTES > 0, maxBytes: Math.floor(s.CACHE_MAX_BYTES / 2) },
  };
}

type Upstreams = Pick<Config, 'governance' | 'calendar' | 'embeddedEmulators'>;

/** The two upstreams (or the embedded emulators), with every problem a deployment can have with them. */
function readUpstreams(s: Settings, production: boolean, problems: string[]): Upstreams {
  const governanceUrl = s.GOVERNANCE_URL?.replace(/\/+$/, '');
  const embeddedEmulators = s.EMBEDDED_EMULATORS ?? (!production && !s.GOVERNANCE_URL && !s.CALENDAR_URL);
  const out: Upstreams = {
    governance: {
      url: governanceUrl,
      tokenUrl: governanceUrl ? `${governanceUrl}/api/access/v1/oauth/token` : undefined,
      clientId: s.GOVERNANCE_CLIENT_ID,
      clientSecret: s.GOVERNANCE_CLIENT_SECRET,
      authMode: s.GOVERNANCE_AUTH_MODE,
      // The emulators (and so development) run the production tier; production must say which.
      rateProfile: s.GOVERNANCE_RATE_PROFILE ?? 'production',
    },
    calendar: {
      url: s.CALENDAR_URL?.replace(/\/+$/, ''),
      user: s.CALENDAR_USER,
      appPassword: s.CALENDAR_APP_PASSWORD,
      authMode: s.CALENDAR_AUTH_MODE,
    },
    embeddedEmulators,
  };
  if (production && !embeddedEmulators && !s.GOVERNANCE_RATE_PROFILE)
    problems.push(
      "GOVERNANCE_RATE_PROFILE is required in production: set it to the governance account's tier, production (20,000/min, 200,000/h) or sandbox (5,000/min, 50,000/h).",
    );
  problems.push(...upstreamProblems(out, production));
  return out;
}

function upstreamProblems({ governance: g, calendar: c, embeddedEmulators }: Upstreams, production: boolean): string[] {
  if (embeddedEmulators && (g.url || c.url))
    return [
      'EMBEDDED_EMULATORS=true serves the built-in emulators: unset GOVERNANCE_URL and CALENDAR_URL, or EMBEDDED_EMULATORS.',
    ];
  if (production && !embeddedEmulators) {
    // Production never falls back to fake data: one line names everything a real deployment still needs.
    const missing = [
      ...(g.url ? [] : ['GOVERNANCE_URL']),
      ...(g.authMode === 'configured' && !g.clientId ? ['GOVERNANCE_CLIENT_ID'] : []),
      ...(g.authMode === 'configured' && !g.clientSecret ? ['GOVERNANCE_CLIENT_SECRET'] : []),
      ...(c.url ? [] : ['CALENDAR_URL']),
      ...(c.authMode === 'configured' && !c.user ? ['CALENDAR_USER'] : []),
      ...(c.authMode === 'configured' && !c.appPassword ? ['CALENDAR_APP_PASSWORD'] : []),
    ];
    if (missing.length > 0)
      return [
        `NODE_ENV=production needs real upstreams; missing: ${missing.join(', ')}. (To serve the built-in emulators' fake data instead, set EMBEDDED_EMULATORS=true explicitly.)`,
      ];
  }
  const problems: string[] = [];
  if (g.url && g.authMode === 'configured' && (!g.clientId || !g.clientSecret))
    problems.push(
      'GOVERNANCE_CLIENT_ID and GOVERNANCE_CLIENT_SECRET are required when GOVERNANCE_URL is set (or set GOVERNANCE_AUTH_MODE=forward).',
    );
  if (!g.url && (g.clientId || g.clientSecret))
    problems.push(
      'GOVERNANCE_CLIENT_ID/GOVERNANCE_CLIENT_SECRET are set but GOVERNANCE_URL is not: set the tenant URL too.',
    );
  if (Boolean(c.user) !== Boolean(c.appPassword))
    problems.push('CALENDAR_USER and CALENDAR_APP_PASSWORD go together: set both or neither.');
  if (!embeddedEmulators && Boolean(g.url) !== Boolean(c.url))
    problems.push(
      'Set both GOVERNANCE_URL and CALENDAR_URL to use real upstreams, or neither to use the embedded emulators.',
    );
  return problems;
}

function readSecurity(s: Settings, production: boolean, graphiql: boolean): SecurityConfig {
  return {
    // GraphiQL needs introspection, so turning GraphiQL on in production turns introspection on too,
    // unless ALLOW_INTROSPECTION says otherwise.
    introspection: s.ALLOW_INTROSPECTION ?? (!production || graphiql),
    fieldSuggestions: !production,
    csrfPrevention: production,
    maxBatch: s.GRAPHQL_MAX_BATCH,
    ...LIMITS,
    federationSecret: s.FEDERATION_SECRET,
    federationSecretHeader: 'x-federation-secret',
  };
}
