/**
 * Traffic settings (account budget, 429 pause and ramp, deadlines, per-operation budget, Redis
 * sharing), read from the environment by `loadConfig`. Kept apart from `config.ts` because the rules
 * have a small grammar of their own: named rules (`minute:30,hour:500,endpoint-minute:10`) and rules
 * of any window length (`5/10s`, `100/2m`, `endpoint:3/1s`).
 */
import { RATE_WINDOWS_MS, type RateList, type Settings } from './settings.js';

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

/** What `FAIR_SHARE` configures for one caller (or `*`, every caller without an entry). */
export interface CallerPolicy {
  /** Weight in the fair queues (default 1). */
  weight?: number;
  /** Largest fraction of each account-wide rule this caller may spend (default: all of it). */
  share?: number;
  /** GraphQL operations this caller may start per minute (default: no limit). */
  perMinute?: number;
}

export interface FairShareConfig {
  /** By fair-share key; `*` applies to every caller without an entry of its own. */
  callers: ReadonlyMap<string, CallerPolicy>;
  /**
   * Pacing: each account-wide rule is also held over 1/`smooth` of its span, so a backlog cannot
   * spend a whole window at once and leave the others a gap until it slides (0: off).
   */
  smooth: number;
}

const PROFILES: Record<RateProfile, { minute: number; hour: number }> = {
  production: { minute: 20_000, hour: 200_000 },
  sandbox: { minute: 5_000, hour: 50_000 },
};

/**
 * Fixed parts of the traffic model. They follow from the platform's behaviour, not from a deployment,
 * so they are constants; tests that need a faster clock inject a config object instead.
 */
const FIXED = {
  /**
   * One upstream request across its attempts and backoffs, from its first send: below the
   * operation deadline, above one slow answer.
   */
  requestDeadlineMs: 10_000,
  /** A 429's pause ends with a probe; then the pace doubles every step (a few steps back to full pace). */
  rampStepMs: 500,
  /** Pause after a 429 without a usable Retry-After: the platform's own windows reset within a second. */
  defaultRetryAfterMs: 1_000,
  /** A Retry-After longer than the hour window is a broken header, not a real pause. */
  maxPauseMs: 3_600_000,
  /**
   * Resends after 429s before a field fails RATE_LIMITED; the pause and ramp make each one likely to
   * pass, ten covers a long outage of budget.
   */
  rateLimitRetries: 10,
  /** Redis on the same network answers in a few ms; a command slower than this counts as Redis down. */
  redisCommandTimeoutMs: 500,
};

/** Built from the validated settings (`settings.ts` parses the rule lists); adds cross-setting problems. */
export function readTrafficConfig(s: Settings, profile: RateProfile, problems: string[]) {
  const governance: UpstreamTrafficConfig = {
    rules: rules(s.GOVERNANCE_RATE_LIMITS, 'GOVERNANCE_RATE_LIMITS', PROFILES[profile], problems),
    margin: s.GOVERNANCE_RATE_MARGIN,
  };
  // No published limits: none unless configured, taken as they are; the concurrency cap still applies.
  const calendar: UpstreamTrafficConfig = {
    rules: rules(s.CALENDAR_RATE_LIMITS, 'CALENDAR_RATE_LIMITS', {}, problems),
    margin: 1,
  };
  return {
    governance,
    calendar,
    ...FIXED,
    queueDeadlineMs: s.UPSTREAM_QUEUE_DEADLINE_MS,
    operationDeadlineMs: s.GATEWAY_OPERATION_DEADLINE_MS,
    maxCallsPerOperation: s.GATEWAY_MAX_UPSTREAM_CALLS_PER_OPERATION,
    redisKeyPrefix: s.REDIS_KEY_PREFIX ?? 'gateway:',
    // While Redis is away each replica spends its share alone: N replicas × 1/N never overspend.
    // (Once it saw the shared counts, it spends its share of what they left: budget-redis.ts.)
    localShare: 1 / s.GATEWAY_REPLICAS,
    costExtension: s.GATEWAY_COST_EXTENSION,
    fairShare: fairShare(s.FAIR_SHARE ?? '', problems),
  };
}

/**
 * Defaults, overridden rule by rule by the named limits (`0` drops a rule), then the rules of any
 * window length (`5/10s`, `endpoint:3/1s`).
 */
function rules(list: RateList, setting: string, defaults: Record<string, number>, problems: string[]): RateRule[] {
  const limits = new Map(Object.entries(defaults));
  for (const [k, v] of list.named) limits.set(k, v);
  const out: RateRule[] = [];
  for (const [name, limit] of limits)
    if (limit > 0) out.push({ name, limit, windowMs: RATE_WINDOWS_MS[name]!, perEndpoint: name === 'endpoint-minute' });
  for (const c of list.custom) {
    if (c.windowMs < 100) problems.push(`${setting}: a rule's window must be at least 100 ms (got "${c.text}").`);
    if (c.limit > 0)
      out.push({ name: c.name, limit: c.limit, windowMs: Math.max(100, c.windowMs), perEndpoint: c.perEndpoint });
  }
  return out;
}

/**
 * `FAIR_SHARE`: comma-separated entries. `smooth=N` paces the account over 1/N of each window;
 * `<caller>:weight=4:share=30%:rpm=600` sets one caller's weight, budget share cap and operations
 * per minute (`*` for every caller without an entry).
 */
function fairShare(text: string, problems: string[]): FairShareConfig {
  const callers = new Map<string, CallerPolicy>();
  let smooth = 0;
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const m = /^smooth\s*=\s*(\d+)$/i.exec(entry);
    if (m) {
      smooth = Number(m[1]);
      continue;
    }
    const [key, ...attrs] = entry.split(':').map((s) => s.trim());
    const policy: CallerPolicy = {};
    for (const attr of attrs) {
      const [name, value = ''] = attr.split('=').map((s) => s.trim());
      const n = value.endsWith('%') ? Number(value.slice(0, -1)) / 100 : Number(value);
      if (name === 'weight' && n > 0 && Number.isFinite(n)) policy.weight = n;
      else if (name === 'share' && n > 0 && n <= 1) policy.share = n;
      else if (name === 'rpm' && Number.isInteger(n) && n > 0) policy.perMinute = n;
      else
        problems.push(
          `FAIR_SHARE: "${attr}" of "${entry}": expected weight=N (> 0), share=P (0..1 or %), rpm=N (whole).`,
        );
    }
    if (!key) problems.push(`FAIR_SHARE: "${entry}": name a caller (or *) before its attributes.`);
    else callers.set(key, policy);
  }
  return { callers, smooth };
}
