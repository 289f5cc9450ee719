/**
 * The wire: one undici request, bounded in time and size, its body parsed as JSON. The header
 * timeout and the request's deadline run on the gateway's own timers: undici checks its timeouts on a
 * coarse clock (a 300 ms timeout fired after about 800 ms), ours fire within milliseconds. Transport faults
 * (connect/header/body timeouts, resets, unparseable or oversized bodies) become `UpstreamError`s of
 * kind `unavailable`; HTTP statuses are returned as they are, for the upstream adapter to interpret.
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
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
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
    // Our own clock: the headers within their timeout, everything within the deadline.
    const started = Date.now();
    const deadline = req.deadline ?? Infinity;
    const clock = new AbortController();
    let timedOut = false;
    let res: Dispatcher.ResponseData | undefined;
    const arm = (at: number) => {
      if (!Number.isFinite(at)) return undefined;
      return setTimeout(() => {
        timedOut = true;
        clock.abort();
        res?.body.destroy();
      }, Math.max(0, at - Date.now()));
    };
    let timer = arm(Math.min(started + this.options.timeouts.headersMs, deadline));
    const signal = req.signal ? AbortSignal.any([req.signal, clock.signal]) : clock.signal;
    try {
      res = await request(req.url, {
        method: req.method,
        headers,
        body: body as string | Buffer | undefined,
        dispatcher: this.dispatcher,
        signal,
        headersTimeout: this.options.timeouts.headersMs,
        bodyTimeout: this.options.timeouts.bodyMs,
      });
    } catch (cause) {
      clearTimeout(timer);
      throw timedOut ? timeoutError(upstream, cause) : transportError(upstream, cause);
    }
    clearTimeout(timer);
    timer = arm(deadline);
    const responseHeaders = flattenHeaders(res.headers);
    let text: string;
    try {
      text = await readBounded(res, maxBodyBytes, upstream);
    } catch (e) {
      throw timedOut ? timeoutError(upstream, e) : e;
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
        throw new UpstreamError(upstream, 'unavailable', `The ${upstream} service sent a response larger than allowed.`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (cause) {
    if (cause instanceof UpstreamError) throw cause;
    throw transportError(upstream, cause);
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
    throw new UpstreamError(upstream, 'unavailable', `The ${upstream} service answered with an unexpected content type.`, { status });
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    if (status >= 400) return text;
    throw new UpstreamError(upstream, 'unavailable', `The ${upstream} service sent a response that is not valid JSON.`, { status, cause });
  }
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function timeoutError(upstream: UpstreamName, cause: unknown): UpstreamError {
  return new UpstreamError(upstream, 'unavailable', `The ${upstream} service did not answer in time.`, { cause });
}

function transportError(upstream: UpstreamName, cause: unknown): UpstreamError {
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
  return new UpstreamError(upstream, 'unavailable', message, { cause });
}
