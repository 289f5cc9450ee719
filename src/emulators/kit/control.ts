/**
 * What both emulators share beyond their own API: a request log (tests and benchmarks count upstream
 * calls with it), injected latency, injected faults, and the `/_emulator/*` control surface.
 *
 * The control surface is off unless the emulator is started with `control: true`; in-process users
 * (tests, the embedded default) get the same operations through the returned `EmulatorControl`.
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { routePath } from 'hono/route';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRng } from './random.js';

/** `answerAt`: when the request's answer may leave (performance.now() time), set on arrival. */
export type Env = { Bindings: HttpBindings; Variables: { answerAt?: number } };

/** One request as the emulator saw it. */
export interface LoggedRequest {
  method: string;
  /** Path below the emulator's API root, e.g. `/entities/5f0c…`. */
  path: string;
  /** The matched route pattern, e.g. `GET /entities/:entityId`; `unmatched` when no route matched. */
  route: string;
  query: string;
  status: number;
  /** Milliseconds since the emulator started (monotonic). */
  at: number;
  /** When it arrived: epoch ms with sub-millisecond precision (monotonic clock), for span counts. */
  receivedAt: number;
  /** Whether a fault rule answered this request. */
  fault?: FaultKind;
  /** The W3C trace context the caller sent, if any. */
  traceparent?: string;
  /** The caller's `x-request-id`, if any (the gateway sends its own id of the operation). */
  requestId?: string;
  /** The request body as text, when there was one (the bench replays requests from it). */
  body?: string;
}

export type FaultKind =
  | 'status'
  | 'rate-limit'
  | 'malformed-json'
  | 'wrong-content-type'
  | 'reset'
  | 'reset-mid-body'
  | 'slow-body'
  | 'stall'
  | 'oversized'
  /** The request is handled (a write is applied), then the connection is reset: the answer is lost. */
  | 'apply-then-reset'
  /** The request is handled, then nothing is sent for `delayMs` (a header timeout), then a reset. */
  | 'apply-then-stall'
  /** The request is handled, its status and half its body are sent, then the connection is reset. */
  | 'apply-then-cut-body'
  /** The route answers as usual, but `field` is removed from the record(s) of the JSON body. */
  | 'drop-field';

export interface FaultRule {
  kind: FaultKind;
  /** `status`: the HTTP status (default 503). */
  status?: number;
  /** `rate-limit`: `Retry-After` value, seconds or an HTTP date; omit the header with `null`. */
  retryAfter?: number | string | null;
  /** `slow-body`: delay between the two halves of the body; `stall`: delay before anything is sent. */
  delayMs?: number;
  /** `oversized`: body size in bytes (default 5 MiB). */
  bytes?: number;
  /**
   * `drop-field`: the field to remove, a dotted path inside a record (e.g. `name`, `entityType.id`).
   * Removed from the body when it is the record, else from the first record of the body's first list
   * (a page's `content`, `events`…), so the rest of the page stays intact.
   */
  field?: string;
  /** Apply to every n-th matching request (1 = every one). */
  every?: number;
  /** Apply with this probability (seeded, so runs repeat). */
  rate?: number;
  /** Apply at most this many times, then the rule is spent. */
  times?: number;
  /** Only requests with this method. */
  method?: string;
  /** Only paths (below the API root) starting with this prefix. */
  pathPrefix?: string;
  /**
   * Only when more than `count` matching requests (this one included) arrived within the last
   * `withinMs`: a platform that throttles bursts.
   */
  burst?: { count: number; withinMs: number };
}

/**
 * The injected latency is the upstream's service time: each answer leaves this long after its
 * request arrived. A read is handled on arrival and its answer held back until then, so reads in
 * flight together come back together, as from a real upstream's many workers, instead of queuing
 * behind this one thread's handling of the others (which would add to the latency a gateway sees
 * under fan-out). A write (`asWrite`) waits first: what it changes shows only at the end of its
 * latency. So does a request that meets an injected fault (a faulted read sees the data of that
 * moment).
 */
export interface LatencyOptions {
  /** Fixed delay before each response, in ms. */
  fixedMs?: number;
  /** Extra uniform random delay in [0, jitterMs]. */
  jitterMs?: number;
}

export interface RequestSummary {
  total: number;
  byRoute: Record<string, number>;
  requests: LoggedRequest[];
}

export interface EmulatorControl {
  /** Requests seen since start or the last `clearRequests`/`reset`. */
  requests(): RequestSummary;
  clearRequests(): void;
  setLatency(latency: LatencyOptions): void;
  setFaults(rules: FaultRule[]): void;
  clearFaults(): void;
  /** Restore seed data, clear the log, faults and latency back to the start options. */
  reset(): void;
}

export interface ControlOptions {
  /** Path prefix of the API, stripped from logged paths. */
  apiRoot: string;
  latency?: LatencyOptions;
  faults?: FaultRule[];
  /** Restores the emulator's own state (seed data, rate-limit windows). */
  resetState: () => void;
  /** Shapes an injected error status the way this upstream would. */
  errorBody: (status: number) => unknown;
  /** Headers of an injected 429 besides Retry-After. */
  rateLimitHeaders?: () => Record<string, string>;
  seed?: number;
}

interface RuleState {
  rule: FaultRule;
  seen: number;
  /** Arrival times (performance.now) of recent matching requests, for `burst`. */
  arrivals?: number[];
  applied: number;
}

/** The request log keeps the newest this many requests; `total` still counts every one. */
const MAX_LOG_ENTRIES = 50_000;

export function createControl(options: ControlOptions): {
  control: EmulatorControl;
  middleware: MiddlewareHandler<Env>;
  mountRoutes: (app: Hono<Env>) => void;
} {
  const started = performance.now();
  const rng = createRng(options.seed ?? 7);
  let log: LoggedRequest[] = [];
  /** Entries dropped from the front of a long log (an emulator serving `npm start` for days). */
  let dropped = 0;
  const ruleStates = (faults: FaultRule[] = []): RuleState[] => faults.map((rule) => ({ rule, seen: 0, applied: 0 }));
  let latency: LatencyOptions = { ...options.latency };
  let rules = ruleStates(options.faults);

  const control: EmulatorControl = {
    requests: () => {
      const byRoute: Record<string, number> = {};
      for (const r of log) byRoute[r.route] = (byRoute[r.route] ?? 0) + 1;
      return { total: dropped + log.length, byRoute, requests: [...log] };
    },
    clearRequests: () => {
      log = [];
      dropped = 0;
    },
    setLatency: (l) => {
      latency = { ...l };
    },
    setFaults: (next) => {
      rules = ruleStates(next);
    },
    clearFaults: () => {
      rules = [];
    },
    reset: () => {
      options.resetState();
      control.clearRequests();
      latency = { ...options.latency };
      rules = ruleStates(options.faults);
    },
  };

  const relativePath = (path: string) =>
    path.startsWith(options.apiRoot) ? path.slice(options.apiRoot.length) || '/' : path;

  const pickFault = (method: string, path: string): FaultRule | undefined => {
    for (const state of rules) {
      const { rule } = state;
      if (rule.method && rule.method.toUpperCase() !== method) continue;
      if (rule.pathPrefix && !path.startsWith(rule.pathPrefix)) continue;
      if (rule.times !== undefined && state.applied >= rule.times) continue;
      state.seen++;
      if (rule.burst) {
        const now = performance.now();
        const recent = (state.arrivals ??= []);
        recent.push(now);
        while (recent.length > 0 && recent[0]! <= now - rule.burst.withinMs) recent.shift();
        if (recent.length <= rule.burst.count) continue;
      }
      const hit =
        (rule.every !== undefined ? state.seen % rule.every === 0 : true) &&
        (rule.rate !== undefined ? rng.next() < rule.rate : true);
      if (hit) {
        state.applied++;
        return rule;
      }
    }
    return undefined;
  };

  const middleware: MiddlewareHandler<Env> = async (c, next) => {
    const url = new URL(c.req.url);
    if (url.pathname.startsWith('/_emulator')) return next();
    const path = relativePath(url.pathname);
    const entry: LoggedRequest = {
      method: c.req.method,
      path,
      route: 'unmatched',
      query: url.search,
      status: 0,
      at: Math.round(performance.now() - started),
      receivedAt: performance.timeOrigin + performance.now(),
      ...(c.req.header('traceparent') ? { traceparent: c.req.header('traceparent') } : {}),
      ...(c.req.header('x-request-id') ? { requestId: c.req.header('x-request-id') } : {}),
    };
    log.push(entry);
    if (log.length > MAX_LOG_ENTRIES) {
      // Dropped in chunks: one splice per tenth of the log, not one shift per request.
      const excess = log.length - Math.floor(MAX_LOG_ENTRIES * 0.9);
      log.splice(0, excess);
      dropped += excess;
    }
    // JSON only (Hono keeps the text, so the route still reads it as JSON; a binary upload is left alone).
    if (/json/.test(c.req.header('content-type') ?? '')) entry.body = await c.req.text();

    /** The route that answered (its pattern, once Hono has matched it) and the status sent. */
    const logRoute = (status: number) => {
      const pattern = routePath(c, -1);
      entry.route = pattern && pattern !== '*' ? `${c.req.method} ${relativePath(pattern)}` : 'unmatched';
      entry.status = status;
    };
    const delay = (latency.fixedMs ?? 0) + (latency.jitterMs ? rng.next() * latency.jitterMs : 0);
    const answerAt = performance.now() + delay;
    c.set('answerAt', answerAt);
    // Chosen on arrival (a burst counts arrivals). A request that meets one waits out its latency first.
    const fault = pickFault(c.req.method, path);
    if (fault && delay > 0) await sleep(delay);
    if (fault?.kind.startsWith('apply-then-')) {
      entry.fault = fault.kind;
      await next();
      logRoute(0);
      await loseAnswer(c, fault);
      return RESPONSE_ALREADY_SENT;
    }
    if (fault?.kind === 'drop-field') {
      entry.fault = fault.kind;
      await next();
      logRoute(c.res.status);
      c.res = await withoutField(c.res, fault.field ?? '');
      return c.res;
    }
    if (fault) {
      entry.fault = fault.kind;
      const res = await injectFault(c, fault, options);
      entry.status = res === RESPONSE_ALREADY_SENT ? 0 : res.status;
      return res;
    }
    // Handled now; a write's own middleware (`asWrite`) waits until `answerAt` before it applies.
    await next();
    // The log shows the status once the answer goes.
    await sleepUntil(answerAt);
    logRoute(c.res.status);
  };

  const mountRoutes = (app: Hono<Env>) => {
    app.get('/_emulator/requests', (c) => c.json(control.requests()));
    const act = (method: 'put' | 'post' | 'delete', path: string, run: (c: Context<Env>) => unknown) =>
      app[method](`/_emulator/${path}`, async (c) => {
        await run(c);
        return c.body(null, 204);
      });
    act('delete', 'requests', () => control.clearRequests());
    act('post', 'reset', () => control.reset());
    act('put', 'faults', async (c) => control.setFaults(await c.req.json<FaultRule[]>()));
    act('delete', 'faults', () => control.clearFaults());
    act('put', 'latency', async (c) => control.setLatency(await c.req.json<LatencyOptions>()));
  };

  return { control, middleware, mountRoutes };
}

/** After the handler ran: the answer it produced never arrives whole (see the `apply-then-*` kinds). */
async function loseAnswer(c: Context<Env>, fault: FaultRule): Promise<void> {
  const outgoing = c.env.outgoing;
  if (fault.kind === 'apply-then-stall') await sleep(fault.delayMs ?? 30_000);
  if (fault.kind === 'apply-then-cut-body') {
    const text = await c.res.clone().text();
    outgoing.writeHead(c.res.status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    });
    outgoing.write(text.slice(0, Math.floor(text.length / 2)));
    await sleep(20);
  }
  outgoing.socket?.destroy();
  // The handler's response must never be written now: the node adapter's attempt becomes a no-op.
  outgoing.writeHead = () => outgoing;
  outgoing.write = (() => true) as typeof outgoing.write;
  outgoing.end = () => outgoing;
}

async function injectFault(c: Context<Env>, fault: FaultRule, options: ControlOptions): Promise<Response> {
  const outgoing = c.env.outgoing;
  switch (fault.kind) {
    case 'status': {
      const status = fault.status ?? 503;
      return c.json(options.errorBody(status), status as 500);
    }
    case 'rate-limit': {
      const headers: Record<string, string> = { ...(options.rateLimitHeaders?.() ?? {}) };
      if (fault.retryAfter !== null) headers['Retry-After'] = String(fault.retryAfter ?? 1);
      return c.json(options.errorBody(429), 429, headers);
    }
    case 'drop-field':
      throw new Error("drop-field is applied to the route's answer, not injected in its place");
    case 'malformed-json':
      return c.body('{"content": [{"id": "truncated', 200, { 'content-type': 'application/json' });
    case 'wrong-content-type':
      return c.body('<html><body>Service temporarily unavailable</body></html>', 200, {
        'content-type': 'text/html; charset=UTF-8',
      });
    case 'reset':
      outgoing.socket?.destroy();
      return RESPONSE_ALREADY_SENT;
    case 'reset-mid-body':
      outgoing.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
      outgoing.write('{"content": [');
      setTimeout(() => outgoing.socket?.destroy(), 20);
      return RESPONSE_ALREADY_SENT;
    case 'slow-body':
      outgoing.writeHead(200, { 'content-type': 'application/json' });
      outgoing.write('{"content": [], ');
      setTimeout(() => outgoing.end('"slow": true}'), fault.delayMs ?? 5_000);
      return RESPONSE_ALREADY_SENT;
    case 'stall':
      await sleep(fault.delayMs ?? 30_000);
      return c.json(options.errorBody(504), 504);
    case 'apply-then-reset':
    case 'apply-then-stall':
    case 'apply-then-cut-body':
      throw new Error('handled in the middleware');
    case 'oversized': {
      const bytes = fault.bytes ?? 5 * 1024 * 1024;
      const filler = 'x'.repeat(Math.max(0, bytes - 20));
      return c.body(`{"filler": "${filler}"}`, 200, { 'content-type': 'application/json' });
    }
  }
}

const sleepUntil = async (at: number) => {
  const left = at - performance.now();
  if (left > 0) await sleep(left);
};

/**
 * The middleware of a write, innermost, next to its handler: it waits out the rest of the request's
 * latency, so a write applies at the end of it and a read that arrives meanwhile sees the data as
 * it was.
 */
export const asWrite: MiddlewareHandler<Env> = async (c, next) => {
  const answerAt = c.get('answerAt');
  if (answerAt !== undefined) await sleepUntil(answerAt);
  await next();
};

/** `asWrite` for every request but GET and HEAD (an API whose reads are all GETs). */
export const asWriteUnlessGet: MiddlewareHandler<Env> = (c, next) =>
  c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : asWrite(c, next);

/** The `drop-field` fault: the same answer, with one field of one record removed. */
async function withoutField(res: Response, field: string): Promise<Response> {
  if (!field || !(res.headers.get('content-type') ?? '').includes('json')) return res;
  const body: unknown = await res.json();
  const path = field.split('.');
  const drop = (record: unknown) => {
    let target = record as Record<string, unknown> | undefined;
    for (const key of path.slice(0, -1)) target = target?.[key] as Record<string, unknown> | undefined;
    if (target && typeof target === 'object') delete target[path[path.length - 1]!];
  };
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (Array.isArray(body)) drop(body[0]);
  else if (isObject(body)) {
    const list = Object.values(body).find((v): v is unknown[] => Array.isArray(v) && v.length > 0 && isObject(v[0]));
    if (path[0]! in body || !list) drop(body);
    else drop(list[0]);
  }
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(body), { status: res.status, headers });
}
