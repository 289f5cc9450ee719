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

/** What `FAIR_SHARE` configures for one caller (or `*`, what a caller's entry leaves out). */
export interface CallerPolicy {
  /** Weight in the fair queues (default 1). */
  weight?: number;
  /** Largest fraction of each account-wide rule this caller may spend (default `DEFAULT_CALLER_SHARE`). */
  share?: number;
  /** GraphQL operations this caller may start per minute (default: no limit). */
  perMinute?: number;
}

/**
 * A caller without a `share` of its own (nor one of `*`) may spend at most this fraction of each
 * account rule: one runaway token leaves three quarters of every rule, the hour's too, to the others,
 * and it takes four callers at their cap at once to spend an account (docs/traffic.md).
 */
export const DEFAULT_CALLER_SHARE = 0.25;

export interface FairShareConfig {
  /**
   * By fair-share key (`<issuer>|<client>`, `key|<name>`, `anonymous`); `*` fills what an entry
   * leaves out, and always has a share (`DEFAULT_CALLER_SHARE` unless configured).
   */
  callers: ReadonlyMap<string, CallerPolicy>;
  /**
   * The share of each account rule all callers of one group (an issuer, `key`, `forwarded`) may
   * spend together, by group; `*` for every group without an entry (default: no aggregate cap).
   */
  groups: ReadonlyMap<string, number>;
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
 * per minute (`*`: what an entry leaves out); `<group>|*:share=50%` caps all callers of a group
 * (an issuer) together (`*|*`: every group without an entry). A caller's key holds its issuer
 * (`<issuer>|<client>`), which may hold colons: the attributes are the `name=value` parts after it.
 */
function fairShare(text: string, problems: string[]): FairShareConfig {
  const callers = new Map<string, CallerPolicy>();
  const groups = new Map<string, number>();
  let smooth = 0;
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const m = /^smooth\s*=\s*(\d+)$/i.exec(entry);
    if (m) {
      smooth = Number(m[1]);
      continue;
    }
    const parts = entry.split(':');
    const first = parts.findIndex((p) => p.includes('='));
    const key = (first < 0 ? parts : parts.slice(0, first)).join(':').trim();
    const policy = callerPolicy(entry, first < 0 ? [] : parts.slice(first), problems);
    const problem = keyProblem(key, policy);
    if (problem) problems.push(`FAIR_SHARE: "${entry}": ${problem}`);
    else if (key.endsWith('|*')) groups.set(key.slice(0, -2), policy.share!);
    else callers.set(key, policy);
  }
  callers.set('*', { share: DEFAULT_CALLER_SHARE, ...callers.get('*') });
  return { callers, groups, smooth };
}

function callerPolicy(entry: string, attrs: string[], problems: string[]): CallerPolicy {
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
  return policy;
}

/** Why an entry's key cannot name a caller or a group (undefined: it can). */
function keyProblem(key: string, policy: CallerPolicy): string | undefined {
  if (!key) return 'name a caller (or *) before its attributes.';
  if (key.endsWith('|*'))
    return policy.share !== undefined && policy.weight === undefined && policy.perMinute === undefined
      ? undefined
      : 'a group (`<issuer>|*`, `*|*`) takes a share of its own and nothing else.';
  if (key === '*' || key === 'anonymous' || key.includes('|')) return undefined;
  // A bare client id would match that id at every issuer: issuer B's `azp` would get issuer A's entry.
  return `"${key}" names no issuer: a token's caller is "<issuer>|<client id, else subject>", an API key "key|<name>".`;
}
