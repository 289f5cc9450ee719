/**
 * The platform's account rate limits. Every request counts against the one account (token requests
 * and rejected requests included). Fixed windows aligned to their start (minute, hour; `windows`
 * shrinks them for tests). Crossing a rule blocks the whole account: the minute rule and the
 * production hour rule until the end of the window (the official samples' Retry-After counts down to
 * the window end), the sandbox hour rule for two minutes (scaled with `minuteMs`). While blocked
 * every request gets a 429, and `request-made` keeps counting. The optional per-endpoint minute rule
 * (newer platform docs) counts per method + route and blocks only that endpoint until its window ends.
 */
import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Env } from '../kit/control.js';
import { errorBody } from './errors.js';

export type RateProfile = 'production' | 'sandbox';
export type HeaderPrefix = 'svc' | 'ot' | 'both';
type Period = 'MINUTE' | 'HOUR';

export interface RateLimitOptions {
  profile: RateProfile;
  limits?: { minute?: number; hour?: number; perEndpointMinute?: number | null };
  windows?: { minuteMs?: number; hourMs?: number };
  headerPrefix: HeaderPrefix;
}

const PROFILES: Record<RateProfile, { minute: number; hour: number }> = {
  production: { minute: 20_000, hour: 200_000 },
  sandbox: { minute: 5_000, hour: 50_000 },
};

interface Window {
  start: number;
  count: number;
}

interface Block {
  until: number;
  period: Period;
  allowed: number;
  eventId: string;
  /** The counter the block reports as `request-made`. */
  counter: () => number;
}

const newBlock = (until: number, period: Period, allowed: number, counter: () => number): Block => ({
  until,
  period,
  allowed,
  eventId: randomUUID(),
  counter,
});

export function createRateLimiter(options: RateLimitOptions) {
  const minuteMs = options.windows?.minuteMs ?? 60_000;
  const hourMs = options.windows?.hourMs ?? 3_600_000;
  const minuteLimit = options.limits?.minute ?? PROFILES[options.profile].minute;
  const hourLimit = options.limits?.hour ?? PROFILES[options.profile].hour;
  const perEndpoint = options.limits?.perEndpointMinute ?? null;

  let minute: Window = { start: 0, count: 0 };
  let hour: Window = { start: 0, count: 0 };
  let endpoints = new Map<string, Window>();
  let accountBlock: Block | null = null;
  let endpointBlocks = new Map<string, Block>();

  const tick = (w: Window, size: number, now: number): Window => {
    const start = Math.floor(now / size) * size;
    return w.start === start ? w : { start, count: 0 };
  };

  const headers = (block: Block, now: number): Record<string, string> => {
    const values = {
      'ratelimit-event-id': block.eventId,
      'requests-allowed': String(block.allowed),
      period: block.period,
      'request-made': String(block.counter()),
    };
    const prefixes = options.headerPrefix === 'both' ? ['svc', 'ot'] : [options.headerPrefix];
    const out: Record<string, string> = { 'Retry-After': String(Math.max(1, Math.ceil((block.until - now) / 1000))) };
    for (const p of prefixes) for (const [k, v] of Object.entries(values)) out[`${p}-${k}`] = v;
    return out;
  };

  const reject = (c: Context<Env>, block: Block, now: number) =>
    c.json(
      errorBody(429, 'TOO_MANY_REQUESTS', `Rate limit exceeded (${block.allowed} per ${block.period.toLowerCase()})`),
      429,
      headers(block, now),
    );

  /** The block (if any) that applies to the request, after counting it. */
  const decide = (c: Context<Env>, now: number): Block | null => {
    minute = tick(minute, minuteMs, now);
    hour = tick(hour, hourMs, now);
    minute.count++;
    hour.count++;
    const pattern = routePath(c, -1);
    const key = `${c.req.method} ${pattern && !pattern.endsWith('*') ? pattern : 'unmatched'}`;
    const endpoint = tick(endpoints.get(key) ?? { start: 0, count: 0 }, minuteMs, now);
    endpoint.count++;
    endpoints.set(key, endpoint);

    if (accountBlock && now < accountBlock.until) return accountBlock;
    accountBlock = null;
    if (hour.count > hourLimit) {
      const h = hour;
      const until = options.profile === 'production' ? h.start + hourMs : now + 2 * minuteMs;
      accountBlock = newBlock(until, 'HOUR', hourLimit, () => (hour === h ? h.count : hour.count));
      return accountBlock;
    }
    if (minute.count > minuteLimit) {
      accountBlock = newBlock(minute.start + minuteMs, 'MINUTE', minuteLimit, () => minute.count);
      return accountBlock;
    }
    if (perEndpoint === null) return null;
    const blocked = endpointBlocks.get(key);
    if (blocked && now < blocked.until) return blocked;
    if (endpoint.count <= perEndpoint) return null;
    const block = newBlock(endpoint.start + minuteMs, 'MINUTE', perEndpoint, () => endpoints.get(key)?.count ?? 0);
    endpointBlocks.set(key, block);
    return block;
  };

  // Counting runs before the request log and injected faults (so those requests count too);
  // enforcing runs after them (so a 429 of the limiter is logged like any answer).
  const decisions = new WeakMap<Request, Block | null>();
  const isControl = (c: Context<Env>) => new URL(c.req.url).pathname.startsWith('/_emulator');

  const count: MiddlewareHandler<Env> = async (c, next) => {
    if (!isControl(c)) decisions.set(c.req.raw, decide(c, Date.now()));
    await next();
  };

  const enforce: MiddlewareHandler<Env> = async (c, next) => {
    const block = decisions.get(c.req.raw);
    if (block) return reject(c, block, Date.now());
    await next();
  };

  return {
    count,
    enforce,
    /** Headers an injected 429 fault carries besides Retry-After. */
    faultHeaders(): Record<string, string> {
      const block = newBlock(Date.now() + 1000, 'MINUTE', minuteLimit, () => minute.count);
      const { 'Retry-After': _dropped, ...rest } = headers(block, Date.now());
      return rest;
    },
    reset(): void {
      minute = { start: 0, count: 0 };
      hour = { start: 0, count: 0 };
      endpoints = new Map();
      accountBlock = null;
      endpointBlocks = new Map();
    },
  };
}
