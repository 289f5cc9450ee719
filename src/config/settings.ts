/**
 * The one schema of every environment setting: name, type, default, description and whether the
 * value is secret. Every setting the gateway (and `npm run emulators`) reads is declared here and
 * read through `readSettings`; nothing else in `src/` touches `process.env` (a test checks).
 * `--help`, `.env.example` and the README's settings table are generated from this list.
 *
 * Each value is validated with zod; a bad value becomes one line naming the setting, the rule and
 * (unless secret) what was given, and the default is used so every problem is reported at once.
 */
import { z } from 'zod';

export type Env = Record<string, string | undefined>;

export type SettingGroup =
  | 'server'
  | 'governance'
  | 'calendar'
  | 'upstream'
  | 'cache'
  | 'traffic'
  | 'redis'
  | 'security'
  | 'observability'
  | 'emulators';

export interface SettingInfo {
  name: string;
  group: SettingGroup;
  /** What the value looks like, for people: `integer 0..65535`, `true|false`, `URL (http, https)`. */
  type: string;
  /** The default as text, or a sentence when it depends on other settings; undefined = unset. */
  default?: string;
  description: string;
  /** Never printed, never echoed in a problem line. */
  secret: boolean;
}

interface Setting<T> extends SettingInfo {
  /** Parses the trimmed, non-empty raw value. */
  schema: z.ZodType<T>;
  fallback: T;
  problem(raw: string): string;
}

type Common = { group: SettingGroup; description: string; secret?: boolean };

const shown = (raw: string, secret?: boolean) => (secret ? '***' : raw.replace(/\/\/[^@/]*@/, '//***@'));

function int(o: Common & { default: number; min: number; max: number }): Setting<number> {
  return {
    name: '',
    ...o,
    secret: o.secret ?? false,
    type: `integer ${o.min}..${o.max}`,
    default: String(o.default),
    fallback: o.default,
    schema: z.coerce.number().int().min(o.min).max(o.max),
    problem: (raw) => `must be a whole number from ${o.min} to ${o.max} (got "${shown(raw, o.secret)}").`,
  };
}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];
function bool<D extends boolean | undefined>(o: Common & { default: D; defaultText?: string }): Setting<boolean | D> {
  return {
    name: '',
    ...o,
    secret: false,
    type: 'true|false',
    default: o.defaultText ?? (o.default === undefined ? undefined : String(o.default)),
    fallback: o.default,
    schema: z
      .string()
      .toLowerCase()
      .pipe(z.enum([...TRUE, ...FALSE]))
      .transform((v) => TRUE.includes(v)),
    problem: (raw) => `must be true or false (got "${raw.toLowerCase()}").`,
  };
}

function oneOf<const V extends readonly [string, ...string[]]>(
  values: V,
  o: Common & { default: V[number]; defaultText?: string },
): Setting<V[number]> {
  return {
    name: '',
    ...o,
    secret: false,
    type: values.join('|'),
    default: o.defaultText ?? o.default,
    fallback: o.default,
    schema: z.enum(values),
    problem: (raw) => `must be one of ${values.join(', ')} (got "${raw}").`,
  };
}

function text(o: Common & { default?: string; defaultText?: string }): Setting<string | undefined> {
  return {
    name: '',
    ...o,
    secret: o.secret ?? false,
    type: 'string',
    default: o.defaultText ?? o.default,
    fallback: o.default,
    schema: z.string(),
    problem: () => 'must be text.',
  };
}

function url(o: Common & { protocols?: string[]; defaultText?: string }): Setting<string | undefined> {
  const protocols = o.protocols ?? ['http', 'https'];
  return {
    name: '',
    ...o,
    secret: o.secret ?? false,
    type: `URL (${protocols.join(', ')})`,
    default: o.defaultText,
    fallback: undefined,
    schema: z.url({ protocol: new RegExp(`^(${protocols.join('|')})$`) }),
    problem: (raw) => `must be a ${protocols.join(' or ')} URL (got "${shown(raw, o.secret)}").`,
  };
}

/** `0.9` or `90%`, above 0 and at most 1. */
function fraction(o: Common & { default: number }): Setting<number> {
  return {
    name: '',
    ...o,
    secret: false,
    type: 'fraction (0, 1] or percent',
    default: String(o.default),
    fallback: o.default,
    schema: z
      .string()
      .transform((s) => (s.endsWith('%') ? Number(s.slice(0, -1)) / 100 : Number(s)))
      .pipe(z.number().gt(0).lte(1)),
    problem: (raw) => `must be a fraction above 0 and at most 1, e.g. 0.9 or 90% (got "${raw}").`,
  };
}

/** The rule names a rate-limit list may use, and their default windows. */
export const RATE_WINDOWS_MS: Record<string, number> = {
  minute: 60_000,
  hour: 3_600_000,
  'endpoint-minute': 60_000,
  second: 1_000,
};
const RULE = new RegExp(`^\\s*(${Object.keys(RATE_WINDOWS_MS).join('|')})\\s*[:=]\\s*(\\d+)\\s*$`, 'i');

/** `name:number` pairs, e.g. `minute:30,hour:500`. */
function rules(o: Common & { defaultText?: string }): Setting<Map<string, number>> {
  return {
    name: '',
    ...o,
    secret: false,
    type: 'rule:number,… (minute, hour, endpoint-minute, second)',
    default: o.defaultText,
    fallback: new Map(),
    schema: z
      .string()
      .refine((s) => s.split(',').every((p) => RULE.test(p)))
      .transform(
        (s) =>
          new Map(
            s.split(',').map((p) => {
              const m = RULE.exec(p)!;
              return [m[1]!.toLowerCase(), Number(m[2])] as const;
            }),
          ),
      ),
    problem: (raw) =>
      `must look like "minute:30,hour:500" with rules ${Object.keys(RATE_WINDOWS_MS).join(', ')} (got "${raw}").`,
  };
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const SPAN_RULE = /^\s*(endpoint\s*:\s*)?(\d+)\s*\/\s*(\d+(?:\.\d+)?)?\s*(ms|s|m|h)\s*$/i;

/** A rate-limit list: named rules (`minute:30`) and rules of any window length (`5/10s`, `endpoint:3/1s`). */
export interface RateList {
  named: Map<string, number>;
  custom: { name: string; text: string; limit: number; windowMs: number; perEndpoint: boolean }[];
}

/** `minute:30,hour:500` and/or `limit/duration` (`5/10s`, `100/2m`, `20/1500ms`), `endpoint:` before it to count per endpoint. */
function rateList(o: Common & { defaultText?: string }): Setting<RateList> {
  const valid = (p: string) => RULE.test(p) || SPAN_RULE.test(p);
  return {
    name: '',
    ...o,
    secret: false,
    type: 'rule:number or limit/duration, comma-separated',
    default: o.defaultText,
    fallback: { named: new Map(), custom: [] },
    schema: z
      .string()
      .refine((s) => s.split(',').every(valid))
      .transform((s) => {
        const out: RateList = { named: new Map(), custom: [] };
        for (const part of s.split(',')) {
          const m = RULE.exec(part);
          if (m) {
            out.named.set(m[1]!.toLowerCase(), Number(m[2]));
            continue;
          }
          const c = SPAN_RULE.exec(part)!;
          const limit = Number(c[2]);
          const unit = c[4]!.toLowerCase();
          out.custom.push({
            name: `${c[1] ? 'endpoint:' : ''}${limit}/${c[3] ?? ''}${unit}`,
            text: part.trim(),
            limit,
            windowMs: Math.round(Number(c[3] ?? 1) * UNIT_MS[unit]!),
            perEndpoint: Boolean(c[1]),
          });
        }
        return out;
      }),
    problem: (raw) =>
      `must look like "minute:30,hour:500" (rules ${Object.keys(RATE_WINDOWS_MS).join(', ')}) or "5/10s,endpoint:3/1s" (limit per duration in ms, s, m or h) (got "${raw}").`,
  };
}

/** A whole number whose default depends on other settings (undefined when unset). */
function optionalInt(o: Common & { min: number; max: number; defaultText: string }): Setting<number | undefined> {
  return {
    name: '',
    ...o,
    secret: false,
    type: `integer ${o.min}..${o.max}`,
    default: o.defaultText,
    fallback: undefined,
    schema: z.coerce.number().int().min(o.min).max(o.max),
    problem: (raw) => `must be a whole number from ${o.min} to ${o.max} (got "${raw}").`,
  };
}

/** Comma-separated list; `*` alone means any. */
function list(o: Common & { defaultText?: string }): Setting<string[] | undefined> {
  return {
    name: '',
    ...o,
    secret: false,
    type: 'comma-separated list',
    default: o.defaultText,
    fallback: undefined,
    schema: z.string().transform((s) =>
      s
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    ),
    problem: (raw) => `must be a comma-separated list (got "${raw}").`,
  };
}

const MB = 1024 * 1024;

const DEFINITIONS = {
  // server
  NODE_ENV: oneOf(['development', 'production', 'test'] as const, {
    group: 'server',
    default: 'development',
    description:
      '`production` is the strict profile: real upstreams required, introspection/GraphiQL/suggestions off, CSRF prevention on, CORS closed.',
  }),
  PORT: int({
    group: 'server',
    default: 4000,
    min: 0,
    max: 65535,
    description: 'Port the gateway listens on (0 = any free port).',
  }),
  HOST: text({
    group: 'server',
    default: '0.0.0.0',
    description: 'Address the gateway listens on (`npm run emulators`: 127.0.0.1).',
  }),
  LOG_LEVEL: oneOf(['debug', 'info', 'warn', 'error', 'silent'] as const, {
    group: 'server',
    default: 'info',
    defaultText: 'info (warn under NODE_ENV=test)',
    description: 'Lowest level written to the JSON log on stdout.',
  }),
  GRAPHIQL: bool({
    group: 'server',
    default: undefined,
    defaultText: 'on outside production',
    description: 'Serve GraphiQL to browsers at /graphql (precompressed, cached).',
  }),
  GATEWAY_MAX_PAGE_SIZE: int({
    group: 'server',
    default: 500,
    min: 1,
    max: 10_000,
    description: 'Largest `first` a list accepts; larger asks are BAD_USER_INPUT.',
  }),
  GATEWAY_COST_EXTENSION: bool({
    group: 'server',
    default: undefined,
    defaultText: 'true',
    description: 'Add `extensions.cost` (estimate, upstream calls, cache hits, account budget) to every response.',
  }),
  GATEWAY_USAGE_EXTENSION: bool({
    group: 'server',
    default: undefined,
    defaultText: 'unset',
    description: 'Earlier name of GATEWAY_COST_EXTENSION, still accepted when that is unset.',
  }),
  GATEWAY_MAX_NAME_LENGTH: int({
    group: 'server',
    default: 255,
    min: 1,
    max: 100_000,
    description: 'Longest name or title argument, in characters (the governance platform allows 255).',
  }),
  GATEWAY_MAX_SEARCH_LENGTH: int({
    group: 'server',
    default: 500,
    min: 1,
    max: 100_000,
    description: 'Longest search text, in characters (the governance platform allows 500).',
  }),
  GATEWAY_MAX_TEXT_LENGTH: int({
    group: 'server',
    default: 65_535,
    min: 1,
    max: 10_000_000,
    description: 'Longest description, excerpt, attribute value or other long text, in characters.',
  }),
  GATEWAY_MAX_FIELD_LENGTH: int({
    group: 'server',
    default: 2_000,
    min: 1,
    max: 1_000_000,
    description: 'Longest other string argument (addresses, URLs, statuses…), in characters.',
  }),
  WRITE_LOCK_LEASE_MS: optionalInt({
    group: 'server',
    min: 1_000,
    max: 3_600_000,
    defaultText: 'connect + headers + body timeouts + 5000',
    description:
      "Lease of a record's Redis write lock; must be longer than one write may take (the three upstream timeouts).",
  }),
  WRITE_LOCK_WAIT_MS: optionalInt({
    group: 'server',
    min: 0,
    max: 3_600_000,
    defaultText: 'UPSTREAM_QUEUE_DEADLINE_MS',
    description: "Longest wait for a record's write lock before RECORD_BUSY.",
  }),
  IDEMPOTENCY_TTL_MS: int({
    group: 'server',
    default: 86_400_000,
    min: 1_000,
    max: 30 * 86_400_000,
    description: 'How long an idempotency key answers with its first result.',
  }),
  PERSISTED_OPERATIONS: oneOf(['off', 'allow', 'only'] as const, {
    group: 'server',
    default: 'off',
    description: '`only`: run safelisted operations only (by hash); `allow`: hashes or text; `off`: text only.',
  }),
  SHUTDOWN_DRAIN_MS: int({
    group: 'server',
    default: 25_000,
    min: 0,
    max: 600_000,
    description:
      'On SIGTERM/SIGINT, how long in-flight operations may run before they are answered SHUTTING_DOWN / OUTCOME_UNKNOWN.',
  }),
  SHUTDOWN_RETRY_AFTER_S: int({
    group: 'server',
    default: 5,
    min: 0,
    max: 3600,
    description: 'Retry-After (seconds) on the 503 that new requests get while the gateway drains.',
  }),
  CORS_ORIGINS: list({
    group: 'server',
    defaultText: '* outside production, none in production',
    description: 'Origins allowed to call from a browser (`*` = any, empty = none).',
  }),
  GRAPHQL_JIT: bool({
    group: 'server',
    default: true,
    description:
      'Compile repeated operations with graphql-jit (from their second execution); subscriptions, @defer/@stream and what the compiler refuses stay on graphql-js.',
  }),
  COMPRESSION: bool({
    group: 'server',
    default: true,
    description: 'gzip/brotli response compression (SSE and multipart flushed per event).',
  }),
  // upstreams
  GOVERNANCE_URL: url({
    group: 'governance',
    defaultText: 'embedded emulator (not in production)',
    description: 'Governance tenant origin, e.g. https://tenant.example.com.',
  }),
  GOVERNANCE_TOKEN_URL: url({
    group: 'governance',
    defaultText: '<GOVERNANCE_URL>/api/access/v1/oauth/token',
    description: 'OAuth token endpoint.',
  }),
  GOVERNANCE_CLIENT_ID: text({
    group: 'governance',
    description: 'OAuth client id (client credentials), required with GOVERNANCE_URL in `configured` mode.',
  }),
  GOVERNANCE_CLIENT_SECRET: text({ group: 'governance', secret: true, description: 'OAuth client secret.' }),
  GOVERNANCE_AUTH_MODE: oneOf(['configured', 'forward'] as const, {
    group: 'governance',
    default: 'configured',
    description: "`configured`: the client credentials above; `forward`: the caller's own Authorization: Bearer.",
  }),
  GOVERNANCE_RATE_PROFILE: oneOf(['production', 'sandbox'] as const, {
    group: 'governance',
    default: 'production',
    description: 'production (20,000/min, 200,000/h) or sandbox (5,000/min, 50,000/h).',
  }),
  GOVERNANCE_MAX_CONCURRENT: int({
    group: 'governance',
    default: 64,
    min: 1,
    max: 1024,
    description: 'Concurrent requests to the governance API per replica.',
  }),
  CALENDAR_URL: url({
    group: 'calendar',
    defaultText: 'embedded emulator (not in production)',
    description: 'Calendar API root incl. namespace, e.g. https://site.example/wp-json/calendar/events/v1.',
  }),
  CALENDAR_USER: text({
    group: 'calendar',
    description:
      'WordPress user for writes (application password), required with CALENDAR_URL in `configured` mode in production.',
  }),
  CALENDAR_APP_PASSWORD: text({
    group: 'calendar',
    secret: true,
    description: 'WordPress application password of CALENDAR_USER.',
  }),
  CALENDAR_AUTH_MODE: oneOf(['configured', 'forward'] as const, {
    group: 'calendar',
    default: 'configured',
    description: "`configured`: writes use the application password; `forward`: the caller's Authorization.",
  }),
  CALENDAR_MAX_CONCURRENT: int({
    group: 'calendar',
    default: 8,
    min: 1,
    max: 1024,
    description: 'Concurrent requests to the calendar API per replica.',
  }),
  UPSTREAM_CONNECT_TIMEOUT_MS: int({
    group: 'upstream',
    default: 5_000,
    min: 1,
    max: 600_000,
    description: 'Upstream TCP/TLS connect timeout.',
  }),
  UPSTREAM_HEADERS_TIMEOUT_MS: int({
    group: 'upstream',
    default: 15_000,
    min: 1,
    max: 600_000,
    description: 'Upstream response-headers timeout.',
  }),
  UPSTREAM_BODY_TIMEOUT_MS: int({
    group: 'upstream',
    default: 15_000,
    min: 1,
    max: 600_000,
    description: 'Upstream body idle timeout.',
  }),
  UPSTREAM_MAX_BODY_BYTES: int({
    group: 'upstream',
    default: 10 * MB,
    min: 1024,
    max: 1024 ** 3,
    description: 'Upstream bodies larger than this are refused.',
  }),
  UPSTREAM_RETRIES: int({
    group: 'upstream',
    default: 2,
    min: 0,
    max: 10,
    description: 'Retries of an idempotent upstream read after a 5xx/timeout.',
  }),
  UPSTREAM_RETRY_BASE_MS: int({
    group: 'upstream',
    default: 100,
    min: 0,
    max: 60_000,
    description: 'First retry backoff (exponential, jittered).',
  }),
  UPSTREAM_RETRY_MAX_MS: int({
    group: 'upstream',
    default: 2_000,
    min: 0,
    max: 600_000,
    description: 'Largest retry backoff.',
  }),
  CACHE_MAX_BYTES: int({
    group: 'cache',
    default: 64 * MB,
    min: 0,
    max: 16 * 1024 ** 3,
    description: 'In-memory response cache size per replica (0 = off).',
  }),
  CACHE_TTL_MS: int({
    group: 'cache',
    default: 30_000,
    min: 0,
    max: 86_400_000,
    description: 'How long a cached upstream read is fresh.',
  }),
  CACHE_TTL_ENTITIES_MS: optionalInt({
    group: 'cache',
    min: 0,
    max: 86_400_000,
    defaultText: 'CACHE_TTL_MS',
    description: 'How long a cached read of Governance entities (records and their lists) is fresh.',
  }),
  CACHE_TTL_ENTITY_TYPES_MS: optionalInt({
    group: 'cache',
    min: 0,
    max: 86_400_000,
    defaultText: 'CACHE_TTL_MS',
    description: 'How long a cached read of Governance entity types (their lists and settings change rarely) is fresh.',
  }),
  CACHE_TTL_LINKS_MS: optionalInt({
    group: 'cache',
    min: 0,
    max: 86_400_000,
    defaultText: 'CACHE_TTL_MS',
    description: 'How long a cached read of Governance link pages and links is fresh.',
  }),
  CACHE_TTL_EVENTS_MS: optionalInt({
    group: 'cache',
    min: 0,
    max: 86_400_000,
    defaultText: 'CACHE_TTL_MS',
    description:
      'How long a cached read of Calendar events (and the venues, organizers and terms they embed) is fresh.',
  }),
  CACHE_TTL_VENUES_MS: optionalInt({
    group: 'cache',
    min: 0,
    max: 86_400_000,
    defaultText: 'CACHE_TTL_MS',
    description: 'How long a cached read of Calendar venues is fresh.',
  }),
  CACHE_TTL_ORGANIZERS_MS: optionalInt({
    group: 'cache',
    min: 0,
    max: 86_400_000,
    defaultText: 'CACHE_TTL_MS',
    description: 'How long a cached read of Calendar organizers is fresh.',
  }),
  CACHE_TTL_TERMS_MS: optionalInt({
    group: 'cache',
    min: 0,
    max: 86_400_000,
    defaultText: 'CACHE_TTL_MS',
    description: 'How long a cached read of Calendar categories and tags is fresh.',
  }),
  CACHE_MAX_STALE_MS: int({
    group: 'cache',
    default: 300_000,
    min: 0,
    max: 86_400_000,
    description: 'How long past its TTL a cached read may answer while the upstream is failing.',
  }),
  RESPONSE_CACHE: bool({
    group: 'cache',
    default: true,
    description:
      'Whole-answer cache of successful queries, per credential, served before parsing; dropped by the writes that change what an answer read.',
  }),
  RESPONSE_CACHE_MAX_BYTES: int({
    group: 'cache',
    default: 32 * MB,
    min: 0,
    max: 16 * 1024 ** 3,
    description: 'In-memory whole-answer cache size per replica.',
  }),
  CACHE_SHARED: bool({
    group: 'cache',
    default: true,
    description: "The cache's Redis tier (on when a Redis is set; off: invalidations only).",
  }),
  CACHE_SHARED_WAIT_MS: int({
    group: 'cache',
    default: 2_000,
    min: 0,
    max: 60_000,
    description: "Longest wait for another replica's identical read (cross-replica dedupe).",
  }),
  CACHE_SHARED_MAX_ENTRY_BYTES: int({
    group: 'cache',
    default: 1024 * 1024,
    min: 0,
    max: 512 * MB,
    description: 'Answers larger than this stay in the local cache only.',
  }),
  // traffic
  GOVERNANCE_RATE_PER_ENDPOINT: bool({
    group: 'traffic',
    default: false,
    description: 'Also keep 1,000/min per endpoint (newer platform docs).',
  }),
  GOVERNANCE_RATE_LIMITS: rateList({
    group: 'traffic',
    defaultText: 'from GOVERNANCE_RATE_PROFILE',
    description:
      'Override governance rules, e.g. minute:30,hour:500 (0 drops a rule), or add rules of any window: 5/10s, endpoint:3/1s.',
  }),
  GOVERNANCE_RATE_WINDOWS: rules({
    group: 'traffic',
    defaultText: 'minute:60000,hour:3600000',
    description: 'Window length in ms per rule.',
  }),
  GOVERNANCE_RATE_MARGIN: fraction({
    group: 'traffic',
    default: 0.9,
    description: 'Fraction of each governance rule the gateway allows itself.',
  }),
  GOVERNANCE_RATE_GUARD_MS: optionalInt({
    group: 'traffic',
    min: 0,
    max: 60_000,
    defaultText: '5% of each window, 250 to 1000',
    description:
      "Guard band added to every governance rule's span (clock skew between replicas, admission-to-arrival time).",
  }),
  CALENDAR_RATE_LIMITS: rateList({
    group: 'traffic',
    defaultText: 'none',
    description: 'Calendar rules, e.g. minute:60 or 5/10s (none published; the concurrency cap still applies).',
  }),
  CALENDAR_RATE_WINDOWS: rules({
    group: 'traffic',
    defaultText: 'minute:60000,hour:3600000',
    description: 'Window length in ms per calendar rule.',
  }),
  CALENDAR_RATE_MARGIN: fraction({
    group: 'traffic',
    default: 1,
    description: 'Fraction of each calendar rule the gateway allows itself.',
  }),
  CALENDAR_RATE_GUARD_MS: optionalInt({
    group: 'traffic',
    min: 0,
    max: 60_000,
    defaultText: '5% of each window, 250 to 1000',
    description: "Guard band added to every calendar rule's span.",
  }),
  UPSTREAM_QUEUE_DEADLINE_MS: int({
    group: 'traffic',
    default: 30_000,
    min: 0,
    max: 3_600_000,
    description: 'How long a request may wait for budget or a 429 pause before its field fails RATE_LIMITED.',
  }),
  UPSTREAM_REQUEST_DEADLINE_MS: int({
    group: 'traffic',
    default: 10_000,
    min: 1,
    max: 600_000,
    description: 'Total time one upstream request may take across its attempts and backoffs, from its first send.',
  }),
  GATEWAY_OPERATION_DEADLINE_MS: int({
    group: 'traffic',
    default: 20_000,
    min: 1,
    max: 3_600_000,
    description:
      'Time one GraphQL operation may spend on upstream calls (queue waits included) before its fields fail.',
  }),
  UPSTREAM_RAMP_STEP_MS: int({
    group: 'traffic',
    default: 500,
    min: 1,
    max: 600_000,
    description: 'After a 429 pause, the ramp doubles its pace every step once the probe came back.',
  }),
  UPSTREAM_DEFAULT_RETRY_AFTER_MS: int({
    group: 'traffic',
    default: 1_000,
    min: 0,
    max: 3_600_000,
    description: 'Pause after a 429 without a usable Retry-After.',
  }),
  UPSTREAM_MAX_PAUSE_MS: int({
    group: 'traffic',
    default: 3_600_000,
    min: 0,
    max: 86_400_000,
    description: 'Longest pause a Retry-After can impose.',
  }),
  UPSTREAM_RATE_LIMIT_RETRIES: int({
    group: 'traffic',
    default: 10,
    min: 0,
    max: 50,
    description: 'Resends of one request after 429s before its field fails RATE_LIMITED.',
  }),
  GATEWAY_MAX_UPSTREAM_CALLS_PER_OPERATION: int({
    group: 'traffic',
    default: 1000,
    min: 1,
    max: 1_000_000,
    description: 'Upstream calls one operation may make per upstream (estimated before, counted during).',
  }),
  GOVERNANCE_LOCAL_SHARE: fraction({
    group: 'traffic',
    default: 0.5,
    description: 'Fraction of each rule a replica allows itself while Redis is unreachable.',
  }),
  // redis
  REDIS_URL: url({
    group: 'redis',
    protocols: ['redis', 'rediss'],
    secret: true,
    defaultText: 'none (budget per replica)',
    description: 'Redis shared by replicas for the account budget and 429 pauses (use a noeviction instance).',
  }),
  REDIS_CACHE_URL: url({
    group: 'redis',
    protocols: ['redis', 'rediss'],
    secret: true,
    defaultText: 'REDIS_URL',
    description: 'A Redis of its own for the response cache tier (with maxmemory and an eviction policy).',
  }),
  REDIS_KEY_PREFIX: text({
    group: 'redis',
    default: 'gateway:',
    description: 'Prefix of every Redis key and channel (several gateways can share one Redis).',
  }),
  REDIS_COMMAND_TIMEOUT_MS: int({
    group: 'redis',
    default: 500,
    min: 10,
    max: 60_000,
    description: 'Redis commands slower than this count as Redis being down (the local budget takes over).',
  }),
  // security
  ALLOW_INTROSPECTION: bool({
    group: 'security',
    default: undefined,
    defaultText: 'off in production (unless GRAPHIQL=true)',
    description: '__schema/__type queries allowed.',
  }),
  GRAPHQL_FIELD_SUGGESTIONS: bool({
    group: 'security',
    default: undefined,
    defaultText: 'off in production',
    description: '"Did you mean …?" hints in error messages.',
  }),
  CSRF_PREVENTION: bool({
    group: 'security',
    default: undefined,
    defaultText: 'on in production',
    description: 'Requests a browser could send without a preflight must carry a custom header.',
  }),
  GRAPHQL_MAX_BATCH: int({
    group: 'security',
    default: 0,
    min: 0,
    max: 100,
    description: 'Operations per batched (JSON array) request; 0 = batching off.',
  }),
  GRAPHQL_MAX_DEPTH: int({
    group: 'security',
    default: 10,
    min: 1,
    max: 100,
    description: 'Deepest selection accepted.',
  }),
  GRAPHQL_MAX_ALIASES: int({
    group: 'security',
    default: 15,
    min: 0,
    max: 1000,
    description: 'Aliases per operation.',
  }),
  GRAPHQL_MAX_DIRECTIVES: int({
    group: 'security',
    default: 20,
    min: 0,
    max: 1000,
    description: 'Directives per operation.',
  }),
  GRAPHQL_MAX_TOKENS: int({
    group: 'security',
    default: 1000,
    min: 10,
    max: 100_000,
    description: 'Tokens per document.',
  }),
  GRAPHQL_MAX_BODY_BYTES: int({
    group: 'security',
    default: MB,
    min: 1024,
    max: 1024 ** 3,
    description: 'Largest request body accepted (413 above).',
  }),
  GRAPHQL_MAX_ERRORS: int({
    group: 'security',
    default: 50,
    min: 1,
    max: 10_000,
    description: 'Errors listed per response; the rest are summarised.',
  }),
  FEDERATION_SECRET: text({
    group: 'security',
    secret: true,
    description: 'With introspection off, _service/_entities answer only requests carrying it (the router).',
  }),
  FEDERATION_SECRET_HEADER: text({
    group: 'security',
    default: 'x-federation-secret',
    description: 'Header that carries FEDERATION_SECRET.',
  }),
  AUTH_ISSUERS: text({
    group: 'security',
    defaultText: 'none (npm start adds its development issuer)',
    description:
      'Token issuers trusted for bearer JWTs: `issuer|audience|jwksUrl`, comma-separated (a workforce and a service IdP, say).',
  }),
  AUTH_PERMISSIONS_FILE: text({
    group: 'security',
    defaultText: "none: a permission's own name in the `scope` or `permissions` claim grants it",
    description: 'JSON file mapping claim values to permissions: `{ "roles": { "editor": ["governance:write"] } }`.',
  }),
  AUTH_ANONYMOUS: list({
    group: 'security',
    defaultText: '* outside production, none in production',
    description: 'Permissions of a caller without credentials (`*` all, `none`); with none, such a request is 401.',
  }),
  AUTH_API_KEYS: text({
    group: 'security',
    description:
      'Static API keys, by hash only: `name|sha256-hex|permission permission…`, comma-separated; sent as `Authorization: Bearer <key>`.',
  }),
  AUTH_JWKS_COOLDOWN_MS: int({
    group: 'security',
    default: 30_000,
    min: 0,
    max: 3_600_000,
    description: 'Shortest time between two JWKS fetches of an issuer (a token with an unknown key id refetches).',
  }),
  GRAPHQL_MAX_FIELD_REPEATS: int({
    group: 'security',
    default: 3,
    min: 1,
    max: 1000,
    description: 'The same field repeated in one selection set.',
  }),
  // observability
  METRICS: bool({ group: 'observability', default: true, description: 'GET /metrics in Prometheus format.' }),
  OTEL_EXPORTER_OTLP_ENDPOINT: url({
    group: 'observability',
    defaultText: 'none (no tracing)',
    description:
      'OTLP/HTTP collector base URL; set → spans per operation and per upstream call, traceparent sent upstream.',
  }),
  OTEL_SERVICE_NAME: text({
    group: 'observability',
    default: 'governance-calendar-gateway',
    description: 'service.name of the traces.',
  }),
  READY_TIMEOUT_MS: int({
    group: 'observability',
    default: 2_000,
    min: 1,
    max: 60_000,
    description: 'How long GET /ready waits for its checks (upstreams, Redis).',
  }),
  READY_PROBE_TTL_MS: int({
    group: 'observability',
    default: 5_000,
    min: 0,
    max: 600_000,
    description: "How long an upstream probe's outcome is reused by /ready.",
  }),
  READY_REQUIRE_UPSTREAMS: bool({
    group: 'observability',
    default: false,
    description:
      '/ready fails (503) while an upstream is down; off by default, since every replica shares that outage.',
  }),
  // subscriptions and discovery
  LIVE_POLL_INTERVAL_MS: int({
    group: 'server',
    default: 30_000,
    min: 10,
    max: 3_600_000,
    description: 'Polling interval of a subscription that asks for none.',
  }),
  LIVE_POLL_MIN_INTERVAL_MS: int({
    group: 'server',
    default: 5_000,
    min: 10,
    max: 3_600_000,
    description: 'Shortest polling interval a subscription may ask for.',
  }),
  LIVE_POLL_MAX_INTERVAL_MS: int({
    group: 'server',
    default: 300_000,
    min: 10,
    max: 3_600_000,
    description: 'Longest polling interval a subscription may ask for.',
  }),
  LIVE_POLL_BUDGET_PERCENT: int({
    group: 'server',
    default: 10,
    min: 0,
    max: 100,
    description: "Largest share (%) of an upstream's per-minute budget that polling may use, per replica.",
  }),
  GOVERNANCE_DISCOVERY_FILE: text({
    group: 'governance',
    description:
      'JSON file of relationship types, workflow stages and attribute options the governance API cannot list.',
  }),
  // emulators
  EMBEDDED_EMULATORS: bool({
    group: 'emulators',
    default: undefined,
    defaultText: 'on outside production when no upstream URL is set',
    description: 'Serve the built-in emulators (fake data) instead of real upstreams; must be explicit in production.',
  }),
  EMULATOR_FAULT_ROUTES: bool({
    group: 'emulators',
    default: false,
    defaultText: 'false (on under npm run emulators)',
    description: "Mount the emulators' /_emulator/* control routes (fault and latency injection).",
  }),
  GOVERNANCE_EMULATOR_PORT: int({
    group: 'emulators',
    default: 4010,
    min: 0,
    max: 65535,
    description: 'Port of the governance emulator under `npm run emulators`.',
  }),
  CALENDAR_EMULATOR_PORT: int({
    group: 'emulators',
    default: 4020,
    min: 0,
    max: 65535,
    description: 'Port of the calendar emulator under `npm run emulators`.',
  }),
};

type Definitions = typeof DEFINITIONS;
export type SettingName = keyof Definitions;
export type Settings = { [K in SettingName]: Definitions[K] extends Setting<infer T> ? T : never };

/** Every setting, in the order of the table. */
export const SETTINGS: readonly SettingInfo[] = Object.entries(DEFINITIONS).map(([name, d]) => ({
  name,
  group: d.group,
  type: d.type,
  default: d.default,
  description: d.description,
  secret: d.secret,
}));

/** Reads and validates every setting; a bad value adds a problem line and falls back to the default. */
export function readSettings(env: Env = process.env): { settings: Settings; problems: string[] } {
  const problems: string[] = [];
  const settings: Record<string, unknown> = {};
  for (const [name, d] of Object.entries(DEFINITIONS) as [string, Setting<unknown>][]) {
    const raw = env[name]?.trim();
    if (!raw) {
      settings[name] = d.fallback;
      continue;
    }
    const parsed = d.schema.safeParse(raw);
    if (parsed.success) settings[name] = parsed.data;
    else {
      problems.push(`${name} ${d.problem(raw)}`);
      settings[name] = d.fallback;
    }
  }
  return { settings: settings as Settings, problems };
}

/** True when the environment sets this (non-empty). */
export function isSet(name: SettingName, env: Env = process.env): boolean {
  return Boolean(env[name]?.trim());
}
