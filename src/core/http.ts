/**
 * The wire: one undici request, bounded in time and size, its body parsed as JSON. The header
 * timeout and the request's deadline run on the gateway's own timers: undici checks its timeouts on a
 * coarse clock (a 300 ms timeout fired after about 800 ms), ours fire within milliseconds. Transport faults
 * (connect/header/body timeouts, resets, unparseable or oversized bodies) become `UpstreamError`s of
 * kind `unavailable`; HTTP statuses are returned as they are, for the upstream adapter to interpret.
 * Each fault says whether the request may have reached the upstream (`sent`: it was being written
 * on a connected socket) and, when a status came before the fault, which one, so that the pipeline
 * can tell a write that certainly did not happen from one whose outcome is unknown.
 */
import { Agent, errors as undiciErrors, request, type Dispatcher } from 'undici';
import { UpstreamError, type UpstreamName } from './errors.js';

export interface HttpTimeouts {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}

export interface HttpOptions {
  upstream: UpstreamName;
  timeouts: HttpTimeouts;
  /** Larger bodies are refused (and the socket released) rather than buffered. */
  maxBodyBytes: number;
  /** Injected so tests can pass a MockAgent; defaults to a keep-alive Agent. */
  dispatcher?: Dispatcher;
  /** Sockets to keep per origin: as many as the scheduler lets run at once, so none queue here. */
  connections?: number;
}

export interface HttpRequest {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: URL;
  headers?: Record<string, string>;
  /** A JSON body (serialised here), or a pre-encoded body with its own content-type header. */
  json?: unknown;
  body?: string | Buffer | FormData;
  signal?: AbortSignal;
  /** Epoch ms by which the whole exchange (headers and body) must be done. */
  deadline?: number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or `undefined` for an empty body. */
  body: unknown;
  /** Size of the raw body, for cache accounting. */
  bytes: number;
}

export function createAgent(timeouts: HttpTimeouts, connections = 32): Agent {
  return new Agent({
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    connections,
    keepAliveTimeout: 10_000,
  });
}

export class HttpTransport {
  readonly dispatcher: Dispatcher;

  constructor(private readonly options: HttpOptions) {
    this.dispatcher = options.dispatcher ?? createAgent(options.timeouts, options.connections);
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    const { upstream, maxBodyBytes } = this.options;
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    let body: HttpRequest['body'] | undefined = req.body;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    }
    const sent = { value: false };
    // Our own clock: the headers within their timeout, everything within the deadline.
    const started = Date.now();
    const deadline = req.deadline ?? Infinity;
    const clock = new AbortController();
    let timedOut = false;
    let res: Dispatcher.ResponseData | undefined;
    const arm = (at: number) => {
      if (!Number.isFinite(at)) return undefined;
      return setTimeout(
        () => {
          timedOut = true;
          clock.abort();
          res?.body.destroy();
        },
        Math.max(0, at - Date.now()),
      );
    };
    let timer = arm(Math.min(started + this.options.timeouts.headersMs, deadline));
    const signal = req.signal ? AbortSignal.any([req.signal, clock.signal]) : clock.signal;
    try {
      res = await request(req.url, {
        method: req.method,
        headers,
        body: body as string | Buffer | undefined,
        dispatcher: tracked(this.dispatcher, sent),
        signal,
        headersTimeout: this.options.timeouts.headersMs,
        bodyTimeout: this.options.timeouts.bodyMs,
      });
    } catch (cause) {
      clearTimeout(timer);
      throw timedOut ? timeoutError(upstream, cause, sent.value) : transportError(upstream, cause, sent.value);
    }
    clearTimeout(timer);
    timer = arm(deadline);
    const responseHeaders = flattenHeaders(res.headers);
    let text: string;
    try {
      text = await readBounded(res, maxBodyBytes, upstream);
    } catch (e) {
      // A status came: the request was sent and answered; only the body went wrong.
      if (timedOut) throw timeoutError(upstream, e, true, res.statusCode);
      if (e instanceof UpstreamError)
        throw new UpstreamError(upstream, e.kind, e.message, { status: res.statusCode, sent: true, cause: e.cause });
      throw e;
    } finally {
      clearTimeout(timer);
    }
    return {
      status: res.statusCode,
      headers: responseHeaders,
      body: parseBody(text, res.statusCode, responseHeaders, upstream),
      bytes: text.length,
    };
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}

async function readBounded(res: Dispatcher.ResponseData, max: number, upstream: UpstreamName): Promise<string> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    res.body.destroy();
    throw new UpstreamError(upstream, 'unavailable', `The ${upstream} service sent a response larger than allowed.`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > max) {
        res.body.destroy();
        throw new UpstreamError(
          upstream,
          'unavailable',
          `The ${upstream} service sent a response larger than allowed.`,
        );
      }
      chunks.push(chunk as Buffer);
    }
  } catch (cause) {
    if (cause instanceof UpstreamError) throw cause;
    throw transportError(upstream, cause, true);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string, status: number, headers: Record<string, string>, upstream: UpstreamName): unknown {
  if (text.length === 0) return undefined;
  const type = headers['content-type'] ?? '';
  const looksJson = /json/i.test(type) || /^[\s]*[[{"]/.test(text);
  if (!looksJson) {
    // Error pages from proxies are HTML; a 2xx that is not JSON is a broken upstream.
    if (status >= 400) return text;
    throw new UpstreamError(
      upstream,
      'unavailable',
      `The ${upstream} service answered with an unexpected content type.`,
      { status },
    );
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    if (status >= 400) return text;
    throw new UpstreamError(
      upstream,
      'unavailable',
      `The ${upstream} service sent a response that is not valid JSON.`,
      { status, cause },
    );
  }
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * The same dispatcher, noting in `sent` when undici starts writing this request on a connected
 * socket (`onConnect`/`onRequestStart`). Before that moment a failure (refused or timed-out
 * connection, a request cancelled while queued) means the upstream never saw the request.
 */
function tracked(dispatcher: Dispatcher, sent: { value: boolean }): Dispatcher {
  return dispatcher.compose((dispatch) => (opts, handler) => {
    const wrapped = new Proxy(handler, {
      get(target, prop, receiver) {
        if (prop === 'onConnect' || prop === 'onRequestStart') {
          const original = Reflect.get(target, prop, receiver) as ((...args: unknown[]) => unknown) | undefined;
          if (typeof original !== 'function') return original;
          return (...args: unknown[]) => {
            sent.value = true;
            return original.apply(target, args);
          };
        }
        const value = Reflect.get(target, prop, receiver) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    return dispatch(opts, wrapped);
  });
}

/** Our own timer fired: a timeout after the request went out leaves a write's outcome unknown. */
function timeoutError(upstream: UpstreamName, cause: unknown, sent: boolean, status?: number): UpstreamError {
  return new UpstreamError(upstream, 'unavailable', `The ${upstream} service did not answer in time.`, {
    cause,
    sent,
    status,
  });
}

function transportError(upstream: UpstreamName, cause: unknown, sent: boolean): UpstreamError {
  const timedOut =
    cause instanceof undiciErrors.ConnectTimeoutError ||
    cause instanceof undiciErrors.HeadersTimeoutError ||
    cause instanceof undiciErrors.BodyTimeoutError;
  const aborted = (cause as { name?: string } | undefined)?.name === 'AbortError';
  const message = timedOut
    ? `The ${upstream} service did not answer in time.`
    : aborted
      ? `The request to the ${upstream} service was cancelled.`
      : `The ${upstream} service could not be reached.`;
  // A connect timeout never reaches the upstream, whatever the handler saw.
  return new UpstreamError(upstream, 'unavailable', message, {
    cause,
    sent: sent && !(cause instanceof undiciErrors.ConnectTimeoutError),
  });
}
