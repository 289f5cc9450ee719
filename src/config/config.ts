/**
 * The gateway's configuration, read from the environment once at start-up. Every problem is
 * collected and reported together, one clear line each, so an operator fixes them in one go.
 * Secrets are only ever held here and in the adapters; nothing here is logged.
 */
import { randomBytes } from 'node:crypto';
import { readAuthConfig, type AuthConfig } from './auth.js';
import { readDiscoveryConfig } from './discovery.js';
import { CACHE_KINDS, processEnv, readSettings, type CacheKind, type Env, type Settings } from './settings.js';
import { readTrafficConfig } from './traffic.js';
import { readObservabilityConfig } from './observability.js';

export type { CacheKind } from './settings.js';

/** What `loadConfig` builds: the settings checked and typed, with the fixed values below. */
export type Config = ReturnType<typeof loadConfig>;
export type SecurityConfig = ReturnType<typeof readSecurity>;

export interface CalendarConfig {
  /** API root including the namespace, e.g. `https://site.example/wp-json/calendar/events/v1`. */
  url?: string;
  user?: string;
  appPassword?: string;
  /** `configured`: writes use the application password above; `forward`: the caller's `Authorization`. */
  authMode: 'configured' | 'forward';
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Values no deployment changes: each follows from the upstreams, the schema or the protocol. Tests
 * that need others inject a config object.
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
  /**
   * Incoming requests: a client sends its headers at once and even a 1 MiB body within seconds; a
   * slower one holds a socket for nothing (Node would wait 300 s). Checked every second.
   */
  httpTimeouts: { headersMs: 10_000, requestMs: 15_000, checkEveryMs: 1_000 },
  /** Retry-After on the 503 during a drain: about the time a replacement replica takes to be ready. */
  retryAfterS: 5,
  /**
   * /mcp results: a page an agent can read whole (about 6k tokens of JSON), sized for a model's
   * context rather than for a deployment; `nextCursor` walks the rest.
   */
  mcpCaps: { maxRecords: 20, maxChars: 25_000 },
  /** Subscriptions' polling: the default interval and the bounds a subscription may ask for. */
  live: { pollIntervalMs: 30_000, minPollIntervalMs: 5_000, maxPollIntervalMs: 300_000 },
  /**
   * Repeated operations run compiled by graphql-jit (docs/decisions/graphql-jit.md); a test or the
   * bench injects `false` to compare with graphql-js alone.
   */
  jit: true as boolean,
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
export function loadConfig(env?: Env) {
  const { settings: s, problems } = readSettings(env ?? processEnv());
  const production = s.NODE_ENV === 'production';
  const graphiql = s.GRAPHIQL ?? !production;
  const upstreams = readUpstreams(s, production, problems);
  const traffic = readTrafficConfig(s, upstreams.governance.rateProfile, problems);
  const config = {
    port: s.PORT,
    // Outside production callers without a token hold every permission: not on the network by default.
    host: s.HOST ?? (production ? '0.0.0.0' : '127.0.0.1'),
    env: s.NODE_ENV,
    ...upstreams,
    redisUrl: s.REDIS_URL,
    /** A Redis of its own for the shared response cache (an evicting one); defaults to `redisUrl`. */
    redisCacheUrl: s.REDIS_CACHE_URL,
    maxPageSize: FIXED.maxPageSize,
    timeouts: FIXED.timeouts,
    maxUpstreamBodyBytes: FIXED.maxUpstreamBodyBytes,
    maxConcurrent: { governance: s.GOVERNANCE_MAX_CONCURRENT, calendar: s.CALENDAR_MAX_CONCURRENT },
    cache: readCache(s),
    retry: { retries: s.UPSTREAM_RETRIES, ...FIXED.retry },
    breaker: FIXED.breaker,
    graphiql,
    mcp: readMcp(s, production, problems),
    logLevel: s.LOG_LEVEL ?? (s.NODE_ENV === 'test' ? 'warn' : 'info'),
    observability: readObservabilityConfig(s),
    persistedOperations: s.PERSISTED_OPERATIONS,
    security: readSecurity(s, production, graphiql),
    auth: readAuthConfig(s, production, problems),
    traffic,
    http: {
      // Closed by default in production: a browser app on another origin must be listed.
      corsOrigins: s.CORS_ORIGINS ?? (production ? [] : LOOPBACK_ORIGINS),
      publicHosts: s.PUBLIC_HOSTS ?? [],
      timeouts: FIXED.httpTimeouts,
      drainMs: s.SHUTDOWN_DRAIN_MS,
      retryAfterS: FIXED.retryAfterS,
    },
    emulatorFaultRoutes: s.EMBEDDED_EMULATORS === 'faults',
    discovery: readDiscoveryConfig(s.GOVERNANCE_DISCOVERY_FILE, problems),
    discoveryFile: s.GOVERNANCE_DISCOVERY_FILE,
    writes: {
      // The lease outlasts one write (the three upstream timeouts); a waiter gives up with the queue.
      lockLeaseMs: FIXED.timeouts.connectMs + FIXED.timeouts.headersMs + FIXED.timeouts.bodyMs + 5_000,
      lockWaitMs: traffic.queueDeadlineMs,
      idempotencyTtlMs: FIXED.idempotencyTtlMs,
    },
    live: {
      ...FIXED.live,
      pollBudgetShare: s.LIVE_LIMITS.budgetPercent / 100,
      // Counted per replica: with replicas (Redis), each holds its share, so together they hold the cap.
      maxStreamsPerCaller: Math.max(1, Math.floor(s.LIVE_LIMITS.streamsPerCaller * replicaShare(s))),
      pollsPerMinutePerCaller: s.LIVE_LIMITS.pollsPerMinutePerCaller * replicaShare(s),
    },
    jit: FIXED.jit,
  };
  if (config.http.corsOrigins.includes('*') && config.auth.anonymous.length > 0)
    problems.push(
      'CORS_ORIGINS=* lets any website call with the permissions AUTH_ANONYMOUS gives callers without a token: list the origins, or set AUTH_ANONYMOUS=none.',
    );
  // The embedded emulators bring their own development issuer (server.ts); forward mode lets the upstream judge.
  const forwarding = upstreams.governance.authMode === 'forward' || upstreams.calendar.authMode === 'forward';
  if (production && !upstreams.embeddedEmulators && !forwarding) problems.push(...callerProblems(config.auth));
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** Browser apps on this machine, any port: the default outside production. */
const LOOPBACK_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'];

/** Production that no caller could ever authenticate to: every request would be 401 while /ready is 200. */
function callerProblems(auth: AuthConfig): string[] {
  if (auth.issuers.length > 0 || auth.apiKeys.length > 0 || auth.anonymous.length > 0) return [];
  return [
    'NODE_ENV=production lets no caller in: set AUTH_ISSUERS (bearer JWTs of your identity provider), AUTH_API_KEYS (static keys, by their SHA-256), or both; AUTH_ANONYMOUS grants callers without credentials permissions instead.',
  ];
}

/** One replica's share of a per-caller cap counted per replica: all of it without Redis (one process). */
function replicaShare(s: Settings): number {
  return s.REDIS_URL ? 1 / s.GATEWAY_REPLICAS : 1;
}

function readCache(s: Settings) {
  const ttlMsByKind = Object.fromEntries(
    CACHE_KINDS.map((kind) => [kind, s.CACHE_TTL_BY_KIND[kind] ?? s.CACHE_TTL_MS]),
  ) as Record<CacheKind, number>;
  return {
    maxBytes: s.CACHE_MAX_BYTES,
    ttlMs: s.CACHE_TTL_MS,
    /** An answer's max-age follows the shortest freshness it read. */
    ttlMsByKind,
    maxStaleMs: s.CACHE_MAX_STALE_MS,
    reuse: s.CACHE_REUSE,
    budgetStale: { below: s.CACHE_BUDGET_STALE.belowPercent / 100, maxStaleMs: s.CACHE_BUDGET_STALE.maxStaleMs },
    shared: FIXED.shared,
    listBatchWindowMs: FIXED.listBatchWindowMs,
    // Whole answers get half the memory of the upstream reads they are made of.
    answers: { enabled: s.RESPONSE_CACHE && s.CACHE_MAX_BYTES > 0, maxBytes: Math.floor(s.CACHE_MAX_BYTES / 2) },
  };
}

/** The two upstreams (or the embedded emulators), with every problem a deployment can have with them. */
/**
 * MCP_*: the key that seals confirmations must be the same on every replica, so production names
 * it, and so does a development process with REDIS_URL (a replica: its confirmations are retried on
 * the others). Otherwise a development or test process makes up its own, valid until it stops.
 */
function readMcp(s: Settings, production: boolean, problems: string[]) {
  const enabled = s.MCP ?? !production;
  const key =
    'a secret of at least 32 characters, the same on every replica (it seals confirmations), e.g. `openssl rand -hex 32`.';
  if (enabled && production && !s.MCP_STATE_KEY)
    problems.push(`MCP_STATE_KEY is required in production while MCP is on: ${key}`);
  else if (enabled && s.NODE_ENV === 'development' && s.REDIS_URL && !s.MCP_STATE_KEY)
    problems.push(
      `MCP_STATE_KEY is required with REDIS_URL while MCP is on (replicas take each other's confirmed calls): ${key} Or MCP=false.`,
    );
  if (s.MCP_STATE_KEY && Buffer.byteLength(s.MCP_STATE_KEY) < 32)
    problems.push('MCP_STATE_KEY must be at least 32 bytes long (e.g. `openssl rand -hex 32`).');
  return {
    enabled,
    mutations: s.MCP_MUTATIONS,
    stateKey: s.MCP_STATE_KEY ?? randomBytes(32).toString('hex'),
    confirmAboveCalls: s.MCP_CONFIRM_ABOVE_CALLS,
    ...FIXED.mcpCaps,
  };
}

function readUpstreams(s: Settings, production: boolean, problems: string[]) {
  const governanceUrl = s.GOVERNANCE_URL?.replace(/\/+$/, '');
  const embeddedEmulators =
    s.EMBEDDED_EMULATORS === undefined
      ? !production && !s.GOVERNANCE_URL && !s.CALENDAR_URL
      : s.EMBEDDED_EMULATORS !== 'false';
  const calendar: CalendarConfig = {
    url: s.CALENDAR_URL?.replace(/\/+$/, ''),
    user: s.CALENDAR_USER,
    appPassword: s.CALENDAR_APP_PASSWORD,
    authMode: s.CALENDAR_AUTH_MODE,
  };
  const out = {
    governance: {
      url: governanceUrl,
      tokenUrl: governanceUrl ? `${governanceUrl}/api/access/v1/oauth/token` : undefined,
      clientId: s.GOVERNANCE_CLIENT_ID,
      clientSecret: s.GOVERNANCE_CLIENT_SECRET,
      authMode: s.GOVERNANCE_AUTH_MODE,
      // The emulators (and so development) run the production tier; production must say which.
      rateProfile: s.GOVERNANCE_RATE_PROFILE ?? 'production',
    },
    calendar,
    embeddedEmulators,
  };
  if (production && !embeddedEmulators && !s.GOVERNANCE_RATE_PROFILE)
    problems.push(
      "GOVERNANCE_RATE_PROFILE is required in production: set it to the governance account's tier, production (20,000/min, 200,000/h) or sandbox (5,000/min, 50,000/h).",
    );
  problems.push(...upstreamProblems(out, production));
  return out;
}

type Upstreams = Pick<Config, 'governance' | 'calendar' | 'embeddedEmulators'>;

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

function readSecurity(s: Settings, production: boolean, graphiql: boolean) {
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
    /** `_service` prints `@requiresScopes` (false: the form `@apollo/gateway` accepts). */
    federationRequiresScopes: s.FEDERATION_REQUIRES_SCOPES,
  };
}
