/**
 * Traffic settings (account budget, 429 pause and ramp, deadlines, per-operation budget, Redis
 * sharing), read from the environment by `loadConfig`. Kept apart from `config.ts` because the rules
 * have a small grammar of their own: named rules (`minute:30,hour:500,endpoint-minute:10`) and rules
 * of any window length (`5/10s`, `100/2m`, `endpoint:3/1s`).
 */
import { EnvReader, type Env } from './env-reader.js';

/** The governance account's published rate tier (`GOVERNANCE_RATE_PROFILE`). */
export type RateProfile = 'production' | 'sandbox';

/** One rule of the platform: at most `limit` requests per `windowMs`; the gateway holds it over every span of that length. */
export interface RateRule {
  name: string;
  limit: number;
  windowMs: number;
  /** Counted per endpoint (method + path template) rather than for the whole account. */
  perEndpoint: boolean;
}

export interface UpstreamTrafficConfig {
  /** The upstream's published rules; the gateway itself stays below `margin` of each. */
  rules: RateRule[];
  /** Fraction of each rule the gateway allows itself (0 < margin ≤ 1). */
  margin: number;
  /**
   * Guard band added to every rule's span, for clock skew between replicas and the time between
   * admission and arrival upstream; undefined: 5% of the window, at most 1 s.
   */
  guardMs?: number;
}

export interface TrafficConfig {
  governance: UpstreamTrafficConfig;
  calendar: UpstreamTrafficConfig;
  /** How long an upstream request may wait for budget or a 429 pause before its field fails RATE_LIMITED. */
  queueDeadlineMs: number;
  /** Total time one upstream request may take across its attempts and backoffs, from its first send. */
  requestDeadlineMs: number;
  /** Time one GraphQL operation may spend on upstream calls (queue waits included) before its fields fail. */
  operationDeadlineMs: number;
  /** After a 429 pause: the ramp doubles its pace every step once the probe came back. */
  rampStepMs: number;
  /** Pause after a 429 without a usable Retry-After. */
  defaultRetryAfterMs: number;
  /** Longest pause a Retry-After can impose. */
  maxPauseMs: number;
  /** How often one request is sent again after 429s before its field fails RATE_LIMITED. */
  rateLimitRetries: number;
  /** Upstream calls one GraphQL operation may make per upstream (estimated before, counted during execution). */
  maxCallsPerOperation: number;
  /** Prefix of every Redis key and channel (several gateways can share one Redis). */
  redisKeyPrefix: string;
  /**
   * Fraction of each rule a replica allows itself while Redis is unreachable, when it never saw the
   * shared counts (otherwise it spends its share of what the counts left, see budget-redis.ts).
   */
  localShare: number;
  /** Adds `extensions.cost` (estimate, calls, cache hits, account budget) to every response. */
  costExtension: boolean;
  /** Redis commands slower than this count as Redis being down (the local budget takes over). */
  redisCommandTimeoutMs: number;
}

const PROFILES: Record<RateProfile, { minute: number; hour: number }> = {
  production: { minute: 20_000, hour: 200_000 },
  sandbox: { minute: 5_000, hour: 50_000 },
};
/** Newer platform docs: 1,000 per minute per endpoint, on top of the account rules. */
const ENDPOINT_MINUTE = 1_000;
const WINDOW_MS: Record<string, number> = { minute: 60_000, hour: 3_600_000, 'endpoint-minute': 60_000, second: 1_000 };
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

export function readTrafficConfig(env: Env, problems: string[], profile: RateProfile): TrafficConfig {
  const r = new TrafficReader(env, problems);
  const base = PROFILES[profile];
  const governanceDefaults: Record<string, number> = { minute: base.minute, hour: base.hour };
  if (r.bool('GOVERNANCE_RATE_PER_ENDPOINT', false)) governanceDefaults['endpoint-minute'] = ENDPOINT_MINUTE;
  return {
    governance: {
      rules: r.rules('GOVERNANCE_RATE_LIMITS', 'GOVERNANCE_RATE_WINDOWS', governanceDefaults),
      margin: r.fraction('GOVERNANCE_RATE_MARGIN', 0.9),
      guardMs: r.optionalInt('GOVERNANCE_RATE_GUARD_MS', 0, 60_000),
    },
    calendar: {
      // No published limits: none unless configured; the concurrency cap still applies.
      rules: r.rules('CALENDAR_RATE_LIMITS', 'CALENDAR_RATE_WINDOWS', {}),
      margin: r.fraction('CALENDAR_RATE_MARGIN', 1),
      guardMs: r.optionalInt('CALENDAR_RATE_GUARD_MS', 0, 60_000),
    },
    queueDeadlineMs: r.int('UPSTREAM_QUEUE_DEADLINE_MS', 30_000, 0, 3_600_000),
    requestDeadlineMs: r.int('UPSTREAM_REQUEST_DEADLINE_MS', 10_000, 1, 600_000),
    operationDeadlineMs: r.int('GATEWAY_OPERATION_DEADLINE_MS', 20_000, 1, 3_600_000),
    rampStepMs: r.int('UPSTREAM_RAMP_STEP_MS', 500, 1, 600_000),
    defaultRetryAfterMs: r.int('UPSTREAM_DEFAULT_RETRY_AFTER_MS', 1_000, 0, 3_600_000),
    maxPauseMs: r.int('UPSTREAM_MAX_PAUSE_MS', 3_600_000, 0, 86_400_000),
    rateLimitRetries: r.int('UPSTREAM_RATE_LIMIT_RETRIES', 10, 0, 50),
    maxCallsPerOperation: r.int('GATEWAY_MAX_UPSTREAM_CALLS_PER_OPERATION', 1000, 1, 1_000_000),
    redisKeyPrefix: env.REDIS_KEY_PREFIX?.trim() || 'gateway:',
    localShare: r.fraction('GOVERNANCE_LOCAL_SHARE', 0.5),
    redisCommandTimeoutMs: r.int('REDIS_COMMAND_TIMEOUT_MS', 500, 10, 60_000),
    // GATEWAY_USAGE_EXTENSION is the setting's earlier name.
    costExtension: r.bool('GATEWAY_COST_EXTENSION', r.bool('GATEWAY_USAGE_EXTENSION', true)),
  };
}

class TrafficReader extends EnvReader {
  fraction(name: string, fallback: number): number {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    const n = Number(raw.endsWith('%') ? Number(raw.slice(0, -1)) / 100 : raw);
    if (!Number.isFinite(n) || n <= 0 || n > 1) {
      this.problems.push(`${name} must be a fraction above 0 and at most 1, e.g. 0.9 or 90% (got "${raw}").`);
      return fallback;
    }
    return n;
  }

  optionalInt(name: string, min: number, max: number): number | undefined {
    return this.string(name) === undefined ? undefined : this.int(name, 0, min, max);
  }

  /**
   * The rules of `limitsVar`: `name:limit` for a named rule (its window from WINDOW_MS or
   * `windowsVar`), or `limit/duration` for a rule of any window (`5/10s`, `100/2m`, `500/1h`,
   * `20/1500ms`), `endpoint:` before it to count per endpoint.
   */
  private entries(name: string): { named: Map<string, number>; custom: RateRule[] } {
    const named = new Map<string, number>();
    const custom: RateRule[] = [];
    const raw = this.string(name);
    if (raw === undefined) return { named, custom };
    for (const part of raw.split(',')) {
      const m = /^\s*([a-z-]+)\s*[:=]\s*(\d+)\s*$/i.exec(part);
      if (m && m[1]!.toLowerCase() in WINDOW_MS) {
        named.set(m[1]!.toLowerCase(), Number(m[2]));
        continue;
      }
      const c = /^\s*(endpoint\s*:\s*)?(\d+)\s*\/\s*(\d+(?:\.\d+)?)?\s*(ms|s|m|h)\s*$/i.exec(part);
      if (!c) {
        this.problems.push(
          `${name} must look like "minute:30,hour:500" (rules ${Object.keys(WINDOW_MS).join(', ')}) or "5/10s,endpoint:3/1s" (limit per duration in ms, s, m or h) (got "${raw}").`,
        );
        return { named: new Map(), custom: [] };
      }
      const windowMs = Math.round(Number(c[3] ?? 1) * UNIT_MS[c[4]!.toLowerCase()]!);
      if (windowMs < 100)
        this.problems.push(`${name}: a rule's window must be at least 100 ms (got "${part.trim()}").`);
      const limit = Number(c[2]);
      if (limit > 0)
        custom.push({
          name: `${c[1] ? 'endpoint:' : ''}${limit}/${c[3] ?? ''}${c[4]!.toLowerCase()}`,
          limit,
          windowMs: Math.max(100, windowMs),
          perEndpoint: Boolean(c[1]),
        });
    }
    return { named, custom };
  }

  /** `name:number` pairs of `windowsVar`, e.g. `minute:1000,hour:20000`. */
  private windows(name: string): Map<string, number> {
    const out = new Map<string, number>();
    const raw = this.string(name);
    if (raw === undefined) return out;
    for (const part of raw.split(',')) {
      const m = /^\s*([a-z-]+)\s*[:=]\s*(\d+)\s*$/i.exec(part);
      if (!m || !(m[1]!.toLowerCase() in WINDOW_MS)) {
        this.problems.push(
          `${name} must look like "minute:1000,hour:20000" with rules ${Object.keys(WINDOW_MS).join(', ')} (got "${raw}").`,
        );
        return new Map();
      }
      out.set(m[1]!.toLowerCase(), Number(m[2]));
    }
    return out;
  }

  /** Defaults, overridden rule by rule by `limitsVar`; `0` drops a rule. Windows in ms from `windowsVar`. */
  rules(limitsVar: string, windowsVar: string, defaults: Record<string, number>): RateRule[] {
    const limits = new Map(Object.entries(defaults));
    const { named, custom } = this.entries(limitsVar);
    for (const [k, v] of named) limits.set(k, v);
    const windows = this.windows(windowsVar);
    const rules: RateRule[] = [];
    for (const [name, limit] of limits) {
      if (limit <= 0) continue;
      const windowMs =
        windows.get(name) ?? windows.get(name === 'endpoint-minute' ? 'minute' : name) ?? WINDOW_MS[name]!;
      if (windowMs < 100)
        this.problems.push(`${windowsVar}: the ${name} window must be at least 100 ms (got ${windowMs}).`);
      rules.push({ name, limit, windowMs: Math.max(100, windowMs), perEndpoint: name === 'endpoint-minute' });
    }
    return [...rules, ...custom];
  }
}
