/**
 * The one schema of every environment setting: name, tier, type, default, description and whether
 * the value is secret. Every setting the gateway (and `npm run emulators`) reads is declared here and
 * read through `readSettings`; nothing else in `src/` touches `process.env` (a test checks).
 * `--help`, `.env.example` and `docs/settings.md` are generated from this list, in its order.
 *
 * A setting is here only when an operator would change it; everything else is a constant next to the
 * code that uses it, with its reason. Adding one: a line in its tier of BY_TIER, then read `s.NAME`
 * where the config is built, and set it by name in a test.
 *
 * Each value is validated with zod; a bad value becomes one line naming the setting, the rule and
 * (unless secret) what was given, and the default is used so every problem is reported at once.
 */
import { z } from 'zod';
import { withEnvFile } from './env-file.js';

export type Env = Record<string, string | undefined>;

/** `production`: a production deployment must set it; `common`: often changed; `advanced`: rarely. */
export type Tier = 'production' | 'common' | 'advanced';

export interface SettingInfo {
  name: string;
  tier: Tier;
  /** What the value looks like, for people: `integer 0..65535`, `true|false`, `URL (http, https)`. */
  type: string;
  /** The default as text, or a sentence when it depends on other settings; undefined = unset. */
  default?: string;
  description: string;
  /** Never printed, never echoed in a problem line. */
  secret: boolean;
}

/** A setting as declared in BY_TIER, which gives it its name and tier. */
interface Declared<T> extends Omit<SettingInfo, 'name' | 'tier'> {
  /** Parses the trimmed, non-empty raw value. */
  schema: z.ZodType<T>;
  fallback: T;
  problem(raw: string): string;
}

type Common = { description: string; secret?: boolean; defaultText?: string };

/** `defaultText` (a sentence for people) replaces the default's own text. */
function declare<T>(o: Common, d: Omit<Declared<T>, 'description' | 'secret'>): Declared<T> {
  return { ...d, description: o.description, secret: o.secret ?? false, default: o.defaultText ?? d.default };
}

const shown = (raw: string, secret?: boolean) => (secret ? '***' : raw.replace(/\/\/[^@/]*@/, '//***@'));

function int(o: Common & { default: number; min: number; max: number }): Declared<number> {
  return declare(o, {
    type: `integer ${o.min}..${o.max}`,
    default: String(o.default),
    fallback: o.default,
    schema: z.coerce.number().int().min(o.min).max(o.max),
    problem: (raw) => `must be a whole number from ${o.min} to ${o.max} (got "${shown(raw, o.secret)}").`,
  });
}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];
function bool<D extends boolean | undefined>(o: Common & { default: D }): Declared<boolean | D> {
  return declare<boolean | D>(o, {
    type: 'true|false',
    default: o.default === undefined ? undefined : String(o.default),
    fallback: o.default,
    schema: z
      .string()
      .toLowerCase()
      .pipe(z.enum([...TRUE, ...FALSE]))
      .transform((v) => TRUE.includes(v)),
    problem: (raw) => `must be true or false (got "${raw.toLowerCase()}").`,
  });
}

function oneOf<const V extends readonly [string, ...string[]], D extends V[number] | undefined>(
  values: V,
  o: Common & { default: D },
): Declared<V[number] | D> {
  return declare<V[number] | D>(o, {
    type: values.join('|'),
    default: o.default,
    fallback: o.default,
    schema: z.enum(values),
    problem: (raw) => `must be one of ${values.join(', ')} (got "${raw}").`,
  });
}

function text(o: Common & { default?: string }): Declared<string | undefined> {
  return declare(o, {
    type: 'string',
    default: o.default,
    fallback: o.default,
    schema: z.string(),
    problem: () => 'must be text.',
  });
}

function url(o: Common & { protocols?: string[] }): Declared<string | undefined> {
  const protocols = o.protocols ?? ['http', 'https'];
  return declare(o, {
    type: `URL (${protocols.join(', ')})`,
    fallback: undefined,
    schema: z.url({ protocol: new RegExp(`^(${protocols.join('|')})$`) }),
    problem: (raw) => `must be a ${protocols.join(' or ')} URL (got "${shown(raw, o.secret)}").`,
  });
}

/** `0.9` or `90%`, above 0 and at most 1. */
function fraction(o: Common & { default: number }): Declared<number> {
  return declare(o, {
    type: 'fraction (0, 1] or percent',
    default: String(o.default),
    fallback: o.default,
    schema: z
      .string()
      .transform((s) => (s.endsWith('%') ? Number(s.slice(0, -1)) / 100 : Number(s)))
      .pipe(z.number().gt(0).lte(1)),
    problem: (raw) => `must be a fraction above 0 and at most 1, e.g. 0.9 or 90% (got "${raw}").`,
  });
}

/** `key:number` pairs over a fixed set of keys, each with its own bounds and default; keys left out keep theirs. */
function keyed<const K extends string>(
  keys: Record<K, { default: number; min: number; max: number }>,
  o: Common,
): Declared<Record<K, number>> {
  const names = Object.keys(keys) as K[];
  const defaults = Object.fromEntries(names.map((k) => [k, keys[k].default])) as Record<K, number>;
  const pair = /^\s*(\w+)\s*:\s*(\d+)\s*$/;
  const valid = (part: string) => {
    const m = pair.exec(part);
    const bounds = m && (keys as Record<string, { min: number; max: number } | undefined>)[m[1]!];
    return Boolean(bounds && Number(m[2]) >= bounds.min && Number(m[2]) <= bounds.max);
  };
  const ranges = names.map((k) => `${k} ${keys[k].min}..${keys[k].max}`).join(', ');
  return declare(o, {
    type: `key:number,… (${names.join(', ')})`,
    default: names.map((k) => `${k}:${keys[k].default}`).join(','),
    fallback: defaults,
    schema: z
      .string()
      .refine((s) => s.split(',').every(valid))
      .transform((s) => {
        const out = { ...defaults };
        for (const part of s.split(',')) {
          const [, k, v] = pair.exec(part)!;
          out[k as K] = Number(v);
        }
        return out;
      }),
    problem: (raw) => `must be key:number pairs, comma-separated (${ranges}) (got "${raw}").`,
  });
}

/** The rule names a rate-limit list may use, and their windows. */
export const RATE_WINDOWS_MS: Record<string, number> = {
  minute: 60_000,
  hour: 3_600_000,
  'endpoint-minute': 60_000,
  second: 1_000,
};
const RULE = new RegExp(`^\\s*(${Object.keys(RATE_WINDOWS_MS).join('|')})\\s*[:=]\\s*(\\d+)\\s*$`, 'i');
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const SPAN_RULE = /^\s*(endpoint\s*:\s*)?(\d+)\s*\/\s*(\d+(?:\.\d+)?)?\s*(ms|s|m|h)\s*$/i;

/** A rate-limit list: named rules (`minute:30`) and rules of any window length (`5/10s`, `endpoint:3/1s`). */
export interface RateList {
  named: Map<string, number>;
  custom: { name: string; text: string; limit: number; windowMs: number; perEndpoint: boolean }[];
}

function parseRateList(s: string): RateList {
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
}

/** `minute:30,hour:500` and/or `limit/duration` (`5/10s`, `100/2m`, `20/1500ms`), `endpoint:` before it to count per endpoint. */
function rateList(o: Common): Declared<RateList> {
  return declare(o, {
    type: 'rule:number or limit/duration, comma-separated',
    fallback: { named: new Map(), custom: [] },
    schema: z
      .string()
      .refine((s) => s.split(',').every((p) => RULE.test(p) || SPAN_RULE.test(p)))
      .transform(parseRateList),
    problem: (raw) =>
      `must look like "minute:30,hour:500" (rules ${Object.keys(RATE_WINDOWS_MS).join(', ')}) or "5/10s,endpoint:3/1s" (limit per duration in ms, s, m or h) (got "${raw}").`,
  });
}

/** The kinds of upstream resource whose cached reads may have a freshness of their own. */
export const CACHE_KINDS = ['entities', 'entityTypes', 'links', 'events', 'venues', 'organizers', 'terms'] as const;
export type CacheKind = (typeof CACHE_KINDS)[number];
const KIND_TTL = new RegExp(`^\\s*(${CACHE_KINDS.join('|')})\\s*:\\s*(\\d{1,8})\\s*$`);

/** `kind:ms` pairs, e.g. `entityTypes:600000,terms:0`. */
function ttlByKind(o: Common): Declared<Partial<Record<CacheKind, number>>> {
  return declare(o, {
    type: `kind:ms,… (${CACHE_KINDS.join(', ')})`,
    fallback: {},
    schema: z
      .string()
      .refine((s) => s.split(',').every((p) => KIND_TTL.test(p) && Number(KIND_TTL.exec(p)![2]) <= 86_400_000))
      .transform((s) => {
        const out: Partial<Record<CacheKind, number>> = {};
        for (const p of s.split(',')) {
          const [, kind, ms] = KIND_TTL.exec(p)!;
          out[kind as CacheKind] = Number(ms);
        }
        return out;
      }),
    problem: (raw) =>
      `must look like "entityTypes:600000,terms:0" (kinds ${CACHE_KINDS.join(', ')}; ms up to 86400000) (got "${raw}").`,
  });
}

/** Comma-separated list; `*` alone means any. */
function list(o: Common): Declared<string[] | undefined> {
  return declare(o, {
    type: 'comma-separated list',
    fallback: undefined,
    schema: z.string().transform((s) =>
      s
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    ),
    problem: (raw) => `must be a comma-separated list (got "${raw}").`,
  });
}

const MB = 1024 * 1024;

const BY_TIER = {
  // The production checklist: NODE_ENV=production refuses to start without these.
  production: {
    NODE_ENV: oneOf(['development', 'production', 'test'] as const, {
      default: 'development',
      description:
        '`production` is the strict profile: real upstreams and a rate profile required, introspection/GraphiQL/suggestions off, CSRF prevention on, CORS closed, no .env file read.',
    }),
    GOVERNANCE_URL: url({
      defaultText: 'embedded emulator (not in production)',
      description:
        'Governance tenant origin, e.g. https://tenant.example.com (token endpoint: /api/access/v1/oauth/token).',
    }),
    GOVERNANCE_CLIENT_ID: text({
      description:
        'OAuth client id (client credentials); required with GOVERNANCE_URL unless GOVERNANCE_AUTH_MODE=forward.',
    }),
    GOVERNANCE_CLIENT_SECRET: text({
      secret: true,
      description: 'OAuth client secret of GOVERNANCE_CLIENT_ID.',
    }),
    GOVERNANCE_RATE_PROFILE: oneOf(['production', 'sandbox'] as const, {
      default: undefined,
      defaultText: 'required in production; production outside it (the emulators)',
      description:
        "The governance account's tier: production (20,000/min, 200,000/h) or sandbox (5,000/min, 50,000/h). A sandbox tenant run as production gets 429s.",
    }),
    CALENDAR_URL: url({
      defaultText: 'embedded emulator (not in production)',
      description: 'Calendar API root incl. namespace, e.g. https://site.example/wp-json/calendar/events/v1.',
    }),
    CALENDAR_USER: text({
      description:
        'WordPress user for writes (application password); required in production unless CALENDAR_AUTH_MODE=forward.',
    }),
    CALENDAR_APP_PASSWORD: text({
      secret: true,
      description: 'WordPress application password of CALENDAR_USER.',
    }),
    AUTH_ISSUERS: list({
      defaultText: 'none (npm start adds its development issuer)',
      description:
        "Token issuers trusted for bearer JWTs: `issuer|audience|jwksUrl`, comma-separated; audience: the gateway's name(s) there, space-separated (e.g. its /mcp URL too). Production needs it or AUTH_API_KEYS.",
    }),
    AUTH_API_KEYS: list({
      description:
        'Static API keys, by hash only: `name|sha256-hex|permission permission…`, comma-separated; sent as `Authorization: Bearer <key>` (a federation router, a Prometheus scrape: no permission needed). Production needs it or AUTH_ISSUERS.',
    }),
    GATEWAY_REPLICAS: int({
      default: 2,
      min: 1,
      max: 1_000,
      description:
        'Replicas sharing the account: while Redis is away each spends 1 / this of every rule, so together they never overspend.',
    }),
  },
  // What most deployments look at.
  common: {
    PORT: int({
      default: 4000,
      min: 0,
      max: 65535,
      description: 'Port the gateway listens on (0 = any free port).',
    }),
    HOST: text({
      defaultText: '0.0.0.0 in production, 127.0.0.1 outside it',
      description:
        'Address the gateway listens on. Bound to a loopback address it answers loopback host names only (localhost, 127.0.0.1, [::1]).',
    }),
    PUBLIC_HOSTS: list({
      defaultText: 'none: loopback names and IP addresses only',
      description:
        'Host names clients reach the gateway by (`api.example.com`, `*.example.com`; `*` = any), checked against `Host` on every path but /health and /ready; other names get 403 (DNS rebinding).',
    }),
    LOG_LEVEL: oneOf(['debug', 'info', 'warn', 'error', 'silent'] as const, {
      default: undefined,
      defaultText: 'info (warn under NODE_ENV=test)',
      description: 'Lowest level written to the JSON log on stdout.',
    }),
    CORS_ORIGINS: list({
      defaultText: 'loopback origins (http://localhost:*, …) outside production, none in production',
      description:
        'Origins allowed to call from a browser (`https://app.example`, `http://localhost:*` for any port; `*` = any, refused while AUTH_ANONYMOUS grants permissions); a request from any other origin gets 403.',
    }),
    PERSISTED_OPERATIONS: oneOf(['off', 'allow', 'only'] as const, {
      default: 'off',
      description: '`only`: run safelisted operations only (by hash); `allow`: hashes or text; `off`: text only.',
    }),
    SHUTDOWN_DRAIN_MS: int({
      default: 25_000,
      min: 0,
      max: 600_000,
      description:
        "On SIGTERM/SIGINT, how long in-flight operations may run before they are answered SHUTTING_DOWN / OUTCOME_UNKNOWN; keep it below the orchestrator's grace period.",
    }),
    GOVERNANCE_AUTH_MODE: oneOf(['configured', 'forward'] as const, {
      default: 'configured',
      description: "`configured`: the client credentials above; `forward`: the caller's own Authorization: Bearer.",
    }),
    GOVERNANCE_DISCOVERY_FILE: text({
      description:
        'JSON file of relationship types, workflow stages, attribute options and organizations the governance API cannot list (the embedded emulators load their example).',
    }),
    CALENDAR_AUTH_MODE: oneOf(['configured', 'forward'] as const, {
      default: 'configured',
      description: "`configured`: writes use the application password; `forward`: the caller's Authorization.",
    }),
    CACHE_MAX_BYTES: int({
      default: 64 * MB,
      min: 0,
      max: 16 * 1024 ** 3,
      description:
        'In-memory cache of upstream reads per replica (0 = off); the whole-answer cache gets half as much again.',
    }),
    CACHE_TTL_MS: int({
      default: 30_000,
      min: 0,
      max: 86_400_000,
      description: 'How long a cached upstream read is fresh.',
    }),
    REDIS_URL: url({
      protocols: ['redis', 'rediss'],
      secret: true,
      defaultText: 'none (budget per replica)',
      description:
        'Redis shared by replicas for the account budget, 429 pauses and cache (a noeviction instance). Needed as soon as more than one replica runs.',
    }),
    FEDERATION_SECRET: text({
      secret: true,
      description:
        'With introspection off, _service/_entities answer only requests carrying it in x-federation-secret (the router).',
    }),
    FEDERATION_REQUIRES_SCOPES: bool({
      default: true,
      description:
        "Print each root field's permission as @requiresScopes in _service's SDL, for routers that enforce it (Apollo Router, Hive Gateway); false for @apollo/gateway, which refuses the directive. The gateway checks every permission itself either way.",
    }),
    AUTH_ANONYMOUS: list({
      defaultText: '* outside production, none in production',
      description: 'Permissions of a caller without credentials (`*` all, `none`); with none, such a request is 401.',
    }),
    AUTH_PERMISSIONS_FILE: text({
      defaultText: "none: a permission's own name in the `scope` or `permissions` claim grants it",
      description: 'JSON file mapping claim values to permissions: `{ "roles": { "editor": ["governance:write"] } }`.',
    }),
    OTEL_EXPORTER_OTLP_ENDPOINT: url({
      defaultText: 'none (no tracing)',
      description:
        'OTLP/HTTP collector base URL; set → spans per operation and per upstream call, traceparent sent upstream.',
    }),
    AUDIT_SINK: text({
      defaultText: 'stdout (off under NODE_ENV=test)',
      description:
        'Audit trail of every mutation attempt, JSON lines apart from the request log: `stdout`, a file path (appended), or `off`.',
    }),
  },
  // Defaults that suit nearly every deployment.
  advanced: {
    GRAPHIQL: bool({
      default: undefined,
      defaultText: 'on outside production',
      description: 'Serve GraphiQL to browsers at /graphql (precompressed, cached).',
    }),
    MCP: bool({
      default: undefined,
      defaultText: 'on outside production',
      description: 'Serve the Model Context Protocol endpoint /mcp (curated operations as tools; docs/mcp.md).',
    }),
    MCP_MUTATIONS: bool({
      default: false,
      description: "List /mcp's write tools (to callers whose permissions allow them).",
    }),
    MCP_STATE_KEY: text({
      secret: true,
      defaultText: 'required while MCP is on in production or with REDIS_URL; generated per process otherwise',
      description:
        "Secret (32+ bytes) sealing /mcp's confirmations, the same on every replica, so any replica takes a confirmed retry.",
    }),
    MCP_CONFIRM_ABOVE_CALLS: int({
      default: 25,
      min: 0,
      max: 100_000,
      description:
        '/mcp tool calls estimated above this many upstream calls ask the user first, like deletes do; 0 = only deletes ask.',
    }),
    GATEWAY_COST_EXTENSION: bool({
      default: true,
      description:
        'Add `extensions.cost` (estimated and actual upstream calls, cache hits, budget left; the full account status on `Cost-Detail: full`) to responses that used an upstream.',
    }),
    GRAPHQL_MAX_BATCH: int({
      default: 0,
      min: 0,
      max: 100,
      description: 'Operations per batched (JSON array) request; 0 = batching off.',
    }),
    LIVE_LIMITS: keyed(
      {
        budgetPercent: { default: 10, min: 0, max: 100 },
        streamsPerCaller: { default: 10, min: 1, max: 10_000 },
        pollsPerMinutePerCaller: { default: 30, min: 1, max: 100_000 },
      },
      {
        description:
          "Subscriptions' limits: `budgetPercent`, the largest share (%) of an upstream's per-minute budget their polling may use per replica; `streamsPerCaller`, the streams one caller (fair-share key) may hold open at once; `pollsPerMinutePerCaller`, the upstream polls one caller's streams may cause a minute together (their intervals stretch to fit). With Redis each replica holds its share (÷ GATEWAY_REPLICAS) of the per-caller ones.",
      },
    ),
    GOVERNANCE_MAX_CONCURRENT: int({
      default: 64,
      min: 1,
      max: 1024,
      description: 'Concurrent requests to the governance API per replica.',
    }),
    CALENDAR_MAX_CONCURRENT: int({
      default: 8,
      min: 1,
      max: 1024,
      description: 'Concurrent requests to the calendar API per replica (a WordPress site serves few at once).',
    }),
    CACHE_TTL_BY_KIND: ttlByKind({
      defaultText: 'CACHE_TTL_MS for every kind',
      description:
        'Freshness of some kinds of upstream read, in ms, e.g. entityTypes:600000,terms:600000 (they change rarely).',
    }),
    CACHE_MAX_STALE_MS: int({
      default: 300_000,
      min: 0,
      max: 86_400_000,
      description: 'How long past its TTL a cached read may answer while the upstream is failing.',
    }),
    CACHE_REUSE: oneOf(['off', 'shadow', 'on'] as const, {
      default: 'on',
      description:
        'Reuse of what upstream answers already hold: records inside lists, embeds and writes answer lookups by id, and a cached list answers its prefixes. `shadow` only counts what it would save (metrics).',
    }),
    CACHE_BUDGET_STALE: keyed(
      { belowPercent: { default: 20, min: 0, max: 100 }, maxStaleMs: { default: 120_000, min: 0, max: 86_400_000 } },
      {
        description:
          "When the least share left of an account's budget (across its rules, as last counted; shared through Redis) falls below `belowPercent`, reads of expired cached records answer from them (marked stale) instead of refetching, up to `maxStaleMs` past their TTL (0 = never). Cached reads are kept for their TTL plus the larger of `maxStaleMs` and CACHE_MAX_STALE_MS.",
      },
    ),
    RESPONSE_CACHE: bool({
      default: true,
      description:
        'Whole-answer cache of successful queries, per credential, served before parsing; dropped by the writes that change what an answer read.',
    }),
    GOVERNANCE_RATE_LIMITS: rateList({
      defaultText: 'from GOVERNANCE_RATE_PROFILE',
      description:
        'Override governance rules, e.g. minute:30,hour:500 (0 drops a rule), endpoint-minute:1000 (the newer per-endpoint rule), or add rules of any window: 5/10s, endpoint:3/1s.',
    }),
    GOVERNANCE_RATE_MARGIN: fraction({
      default: 0.9,
      description:
        'Fraction of each governance rule the gateway allows itself (lower it when other clients share the account).',
    }),
    CALENDAR_RATE_LIMITS: rateList({
      defaultText: 'none',
      description: 'Calendar rules, e.g. minute:60 or 5/10s (none published; the concurrency cap still applies).',
    }),
    UPSTREAM_QUEUE_DEADLINE_MS: int({
      default: 30_000,
      min: 0,
      max: 3_600_000,
      description: 'How long a request may wait for budget or a 429 pause before its field fails RATE_LIMITED.',
    }),
    GATEWAY_OPERATION_DEADLINE_MS: int({
      default: 20_000,
      min: 1,
      max: 3_600_000,
      description:
        'Time one GraphQL operation may spend on upstream calls (queue waits included) before its fields fail.',
    }),
    GATEWAY_MAX_UPSTREAM_CALLS_PER_OPERATION: int({
      default: 1000,
      min: 1,
      max: 1_000_000,
      description: 'Upstream calls one operation may make per upstream (estimated before, counted during).',
    }),
    FAIR_SHARE: text({
      defaultText: 'each caller at most 25 % of every account rule; no group caps, no pacing',
      description:
        'Per-caller share of each account, e.g. `smooth=20,*:share=50%:rpm=600,https://idp.example/|*:share=60%,https://idp.example/|ui:weight=4` (caller = `<issuer>|<client id, else subject>`, `key|<name>`; `<issuer>|*`: its callers together).',
    }),
    UPSTREAM_RETRIES: int({
      default: 2,
      min: 0,
      max: 10,
      description: 'Retries of an idempotent upstream read after a 5xx/timeout.',
    }),
    REDIS_CACHE_URL: url({
      protocols: ['redis', 'rediss'],
      secret: true,
      defaultText: 'REDIS_URL',
      description: 'A Redis of its own for the response cache tier (with maxmemory and an eviction policy).',
    }),
    REDIS_KEY_PREFIX: text({
      default: 'gateway:',
      description: 'Prefix of every Redis key and channel (several gateways can share one Redis).',
    }),
    ALLOW_INTROSPECTION: bool({
      default: undefined,
      defaultText: 'off in production (unless GRAPHIQL=true)',
      description: '__schema/__type queries allowed.',
    }),
    METRICS: bool({
      default: true,
      description: 'GET /metrics in Prometheus format.',
    }),
    OTEL_SERVICE_NAME: text({
      default: 'governance-calendar-gateway',
      description: 'service.name of the traces.',
    }),
    READY_REQUIRE_UPSTREAMS: bool({
      default: false,
      description:
        '/ready fails (503) while an upstream is down; off by default, since every replica shares that outage.',
    }),
    EMBEDDED_EMULATORS: oneOf(['true', 'false', 'faults'] as const, {
      default: undefined,
      defaultText: 'true outside production when no upstream URL is set',
      description:
        'Serve the built-in emulators (fake data) instead of real upstreams; must be explicit in production. `faults` also mounts their /_emulator/* control routes (fault and latency injection; always on under npm run emulators).',
    }),
  },
};

type ByTier = typeof BY_TIER;
type Definitions = ByTier['production'] & ByTier['common'] & ByTier['advanced'];
export type SettingName = keyof Definitions;
export type Settings = { [K in SettingName]: Definitions[K] extends Declared<infer T> ? T : never };

const DECLARED = (Object.keys(BY_TIER) as Tier[]).flatMap((tier) =>
  Object.entries(BY_TIER[tier]).map(([name, d]: [string, Declared<unknown>]) => ({ ...d, name, tier })),
);

/** Every setting, in the order of the tables: by tier, then as declared. */
export const SETTINGS: readonly SettingInfo[] = DECLARED;

/** Reads and validates every setting; a bad value adds a problem line and falls back to the default. */
export function readSettings(env: Env = process.env): { settings: Settings; problems: string[] } {
  const problems: string[] = [];
  const settings: Record<string, unknown> = {};
  for (const { name, ...d } of DECLARED) {
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

/** The process environment, over a `.env` file's variables outside production (`env-file.ts`). */
export const processEnv = (): Env => withEnvFile(process.env);
