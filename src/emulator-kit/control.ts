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
import { createRng } from './random.js';

export type Env = { Bindings: HttpBindings };

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
  /** Whether a fault rule answered this request. */
  fault?: FaultKind;
  /** The W3C trace context the caller sent, if any. */
  traceparent?: string;
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
  | 'oversized';

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
}

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
  applied: number;
}

export function createControl(options: ControlOptions): {
  control: EmulatorControl;
  middleware: MiddlewareHandler<Env>;
  mountRoutes: (app: Hono<Env>) => void;
} {
  const started = performance.now();
  const rng = createRng(options.seed ?? 7);
  let log: LoggedRequest[] = [];
  let latency: LatencyOptions = { ...options.latency };
  let rules: RuleState[] = (options.faults ?? []).map((rule) => ({ rule, seen: 0, applied: 0 }));

  const control: EmulatorControl = {
    requests: () => {
      const byRoute: Record<string, number> = {};
      for (const r of log) byRoute[r.route] = (byRoute[r.route] ?? 0) + 1;
      return { total: log.length, byRoute, requests: [...log] };
    },
    clearRequests: () => {
      log = [];
    },
    setLatency: (l) => {
      latency = { ...l };
    },
    setFaults: (next) => {
      rules = next.map((rule) => ({ rule, seen: 0, applied: 0 }));
    },
    clearFaults: () => {
      rules = [];
    },
    reset: () => {
      options.resetState();
      log = [];
      latency = { ...options.latency };
      rules = (options.faults ?? []).map((rule) => ({ rule, seen: 0, applied: 0 }));
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
      ...(c.req.header('traceparent') ? { traceparent: c.req.header('traceparent') } : {}),
    };
    log.push(entry);

    const delay = (latency.fixedMs ?? 0) + (latency.jitterMs ? rng.next() * latency.jitterMs : 0);
    if (delay > 0) await sleep(delay);

    const fault = pickFault(c.req.method, path);
    if (fault) {
      entry.fault = fault.kind;
      const res = await injectFault(c, fault, options);
      entry.status = res === RESPONSE_ALREADY_SENT ? 0 : res.status;
      return res;
    }
    await next();
    const pattern = routePath(c, -1);
    entry.route = pattern && pattern !== '*' ? `${c.req.method} ${relativePath(pattern)}` : 'unmatched';
    entry.status = c.res.status;
  };

  const mountRoutes = (app: Hono<Env>) => {
    app.get('/_emulator/requests', (c) => c.json(control.requests()));
    app.delete('/_emulator/requests', (c) => {
      control.clearRequests();
      return c.body(null, 204);
    });
    app.post('/_emulator/reset', (c) => {
      control.reset();
      return c.body(null, 204);
    });
    app.put('/_emulator/faults', async (c) => {
      control.setFaults((await c.req.json()) as FaultRule[]);
      return c.body(null, 204);
    });
    app.delete('/_emulator/faults', (c) => {
      control.clearFaults();
      return c.body(null, 204);
    });
    app.put('/_emulator/latency', async (c) => {
      control.setLatency((await c.req.json()) as LatencyOptions);
      return c.body(null, 204);
    });
  };

  return { control, middleware, mountRoutes };
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
    case 'oversized': {
      const bytes = fault.bytes ?? 5 * 1024 * 1024;
      const filler = 'x'.repeat(Math.max(0, bytes - 20));
      return c.body(`{"filler": "${filler}"}`, 200, { 'content-type': 'application/json' });
    }
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
