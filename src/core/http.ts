/**
 * The wire: one undici request, bounded in time and size, its body parsed as JSON; the header
 * timeout and the request's deadline on the gateway's own timers (undici's fire hundreds of ms
 * late; docs/decisions/own-transport-handler.md). Transport faults become `unavailable`
 * UpstreamErrors saying whether the request may have reached the upstream (`sent`) and which
 * status came before the fault, so that the pipeline can tell a write that certainly did not
 * happen from one whose outcome is unknown. Statuses are returned as they are, for the adapter.
 */
import { Agent, errors as undiciErrors, util as undiciUtil, type Dispatcher } from 'undici';
import { cancelled, UpstreamError, type UpstreamName } from './errors.js';

export interface HttpOptions {
  upstream: UpstreamName;
  timeouts: { connectMs: number; headersMs: number; bodyMs: number };
  /** Larger bodies are refused (and the socket released) rather than buffered. */
  maxBodyBytes: number;
  /** Sockets to keep per origin: as many as the scheduler lets run at once, so none queue here. */
  connections?: number;
}

export interface HttpRequest {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `scheme://host[:port]`, as `URL.origin` gives it. */
  origin: string;
  /** The path and query, e.g. `/api/v1/entities?page=2`. */
  path: string;
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

export class HttpTransport {
  private readonly dispatcher: Dispatcher;

  constructor(private readonly options: HttpOptions) {
    const { timeouts, connections = 32 } = options;
    this.dispatcher = new Agent({
      connect: { timeout: timeouts.connectMs },
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
      connections,
      keepAliveTimeout: 10_000,
    });
  }

  /**
   * One exchange through `dispatcher.dispatch` with a handler of our own: the body is collected
   * straight from undici's callbacks (no stream), the size limit is checked as chunks arrive, and
   * every way of ending early (the header timeout, the deadline, the caller's signal) goes through
   * the one abort function undici hands the handler. No AbortController, no listener per layer.
   */
  send(req: HttpRequest): Promise<HttpResponse> {
    const { upstream, maxBodyBytes, timeouts } = this.options;
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    let body: HttpRequest['body'] | undefined = req.body;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    }
    if (req.signal?.aborted) return Promise.reject(transportError(upstream, req.signal.reason, false));
    return new Promise<HttpResponse>((resolve, reject) => {
      const exchange = new Exchange(upstream, maxBodyBytes, resolve, reject);
      const deadline = req.deadline ?? Infinity;
      exchange.arm(Math.min(Date.now() + timeouts.headersMs, deadline), deadline);
      if (req.signal) watch(req.signal, exchange);
      try {
        this.dispatcher.dispatch(
          {
            origin: req.origin,
            path: req.path,
            method: req.method,
            headers,
            body: body as string | Buffer | undefined,
            headersTimeout: timeouts.headersMs,
            bodyTimeout: timeouts.bodyMs,
          },
          exchange,
        );
      } catch (cause) {
        exchange.onError(cause);
      }
    });
  }

  /**
   * Closes the pools, aborting what is still in flight: the gateway closes after its drain, which
   * has answered every caller, so waiting for a stalled upstream would only hold the exit up (to the
   * request deadline).
   */
  close(): Promise<void> {
    return this.dispatcher.destroy();
  }
}

type Abort = (reason?: Error) => void;

/**
 * The exchanges in flight per caller signal (an operation's), behind one abort listener per signal:
 * an EventTarget listener added and removed per exchange cost more than the rest of the exchange's
 * bookkeeping, and an operation has hundreds of exchanges. An object and a `handleEvent`, not
 * closures: with a listener closure and a per-exchange `onDone` closure here, the young-generation
 * collector kept every response body of an operation alive until the next full collection
 * (test/young-garbage.test.ts; docs/decisions/own-transport-handler.md).
 */
const inFlight = new WeakMap<AbortSignal, Watch>();

class Watch {
  readonly exchanges = new Set<Exchange>();

  constructor(private readonly signal: AbortSignal) {
    signal.addEventListener('abort', this, { once: true });
  }

  handleEvent(): void {
    for (const x of [...this.exchanges]) x.cancel(this.signal.reason);
    this.exchanges.clear();
  }
}

function watch(signal: AbortSignal, exchange: Exchange): void {
  let w = inFlight.get(signal);
  if (!w) inFlight.set(signal, (w = new Watch(signal)));
  w.exchanges.add(exchange);
  exchange.watch = w;
}

/**
 * The handler of one exchange (undici's callback interface). `sent` turns true when undici starts
 * writing the request on a connected socket (`onConnect`): before that, a failure (refused or
 * timed-out connection, a request cancelled while queued) means the upstream never saw it.
 */
class Exchange {
  sent = false;
  status = 0;
  watch?: Watch;
  private headers: Record<string, string> = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private abort?: Abort;
  /** Why the exchange was ended early, before undici handed us its abort function. */
  private pendingAbort?: { reason: Error };
  private timedOut = false;
  private settled = false;
  private timer?: NodeJS.Timeout;
  private bodyDeadline = Infinity;

  constructor(
    private readonly upstream: UpstreamName,
    private readonly maxBodyBytes: number,
    private readonly resolve: (res: HttpResponse) => void,
    private readonly reject: (e: unknown) => void,
  ) {}

  /**
   * Our own clock: the headers by `headersAt`, the whole body by `deadline`. One timer: when it
   * fires after the headers came, only the deadline is left, and it is set again for that (most
   * exchanges end before either, so a status costs no timer of its own).
   */
  arm(headersAt: number, deadline: number): void {
    this.bodyDeadline = deadline;
    this.setTimer(headersAt);
  }

  private setTimer(at: number): void {
    if (!Number.isFinite(at)) return;
    this.timer = setTimeout(() => this.onTimer(), Math.max(0, at - Date.now()));
  }

  private onTimer(): void {
    this.timer = undefined;
    if (this.settled) return;
    if (this.status > 0 && Date.now() < this.bodyDeadline) {
      this.setTimer(this.bodyDeadline);
      return;
    }
    this.timedOut = true;
    this.end(new UpstreamError(this.upstream, 'unavailable', `The ${this.upstream} service did not answer in time.`));
  }

  cancel(reason: unknown): void {
    this.end(reason ?? new Error('aborted'));
  }

  /** Ends the exchange early: undici aborts the request (and calls onError); we answer at once. */
  private end(reason: unknown): void {
    const error = reason instanceof Error ? reason : new Error(String(reason));
    if (this.abort) this.abort(error);
    else this.pendingAbort = { reason: error };
    // Queued in undici, or aborted without a callback: answer now rather than when undici gets to it.
    this.onError(reason);
  }

  onConnect(abort: Abort): void {
    if (this.pendingAbort) {
      abort(this.pendingAbort.reason);
      return;
    }
    this.abort = abort;
    this.sent = true;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[] | string[]): boolean {
    this.status = statusCode;
    // A status came: the rest of the exchange (the body) is bounded by the deadline alone (onTimer).
    this.headers = flattenRawHeaders(rawHeaders);
    const declared = Number(this.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBodyBytes) this.tooLarge();
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.size += chunk.length;
    if (this.size > this.maxBodyBytes) {
      this.tooLarge();
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.settled) return;
    this.finish();
    const [only, ...more] = this.chunks;
    const text = only && more.length === 0 ? only.toString('utf8') : Buffer.concat(this.chunks).toString('utf8');
    try {
      this.resolve({
        status: this.status,
        headers: this.headers,
        body: parseBody(text, this.status, this.headers, this.upstream),
        bytes: text.length,
      });
    } catch (e) {
      this.reject(e);
    }
  }

  onError(cause: unknown): void {
    if (this.settled) return;
    this.finish();
    const { upstream, status } = this;
    if (cause instanceof UpstreamError && !this.timedOut) {
      this.reject(
        status
          ? new UpstreamError(upstream, cause.kind, cause.message, { status, sent: true, cause: cause.cause })
          : cause,
      );
      return;
    }
    this.reject(transportError(upstream, cause, this.sent || status > 0, status || undefined, this.timedOut));
  }

  onUpgrade(): void {
    this.onError(new Error('unexpected upgrade'));
  }

  private tooLarge(): void {
    this.end(
      new UpstreamError(
        this.upstream,
        'unavailable',
        `The ${this.upstream} service sent a response larger than allowed.`,
      ),
    );
  }

  private finish(): void {
    this.settled = true;
    if (this.timer) clearTimeout(this.timer);
    this.watch?.exchanges.delete(this);
  }
}

function parseBody(text: string, status: number, headers: Record<string, string>, upstream: UpstreamName): unknown {
  if (text.length === 0) return undefined;
  let problem = 'answered with an unexpected content type';
  let cause: unknown;
  if (/json/i.test(headers['content-type'] ?? '') || /^[\s]*[[{"]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch (e) {
      problem = 'sent a response that is not valid JSON';
      cause = e;
    }
  }
  // Error pages from proxies are HTML; a 2xx that is not JSON is a broken upstream.
  if (status >= 400) return text;
  throw new UpstreamError(upstream, 'unavailable', `The ${upstream} service ${problem}.`, { status, cause });
}

/**
 * Header names lower-cased (undici's lookup of well-known names, which spares a string per name);
 * repeated headers joined with `, ` as undici's own parser does.
 */
function flattenRawHeaders(raw: Buffer[] | string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i];
    const given = raw[i + 1];
    if (name === undefined || given === undefined) break;
    const key = undiciUtil.headerNameToString(name);
    const value = given.toString('utf8');
    out[key] = key in out ? `${out[key]}, ${value}` : value;
  }
  return out;
}

/** `timedOut`: our own timer fired (a timeout after the request went out leaves a write's outcome unknown). */
function transportError(upstream: UpstreamName, cause: unknown, sent: boolean, status?: number, timedOut = false) {
  timedOut ||=
    cause instanceof undiciErrors.ConnectTimeoutError ||
    cause instanceof undiciErrors.HeadersTimeoutError ||
    cause instanceof undiciErrors.BodyTimeoutError;
  // A connect timeout never reaches the upstream, whatever the handler saw.
  const details = { cause, sent: sent && !(cause instanceof undiciErrors.ConnectTimeoutError), status };
  if ((cause as { name?: string } | undefined)?.name === 'AbortError' && !timedOut) return cancelled(upstream, details);
  const message = timedOut ? 'did not answer in time' : 'could not be reached';
  return new UpstreamError(upstream, 'unavailable', `The ${upstream} service ${message}.`, details);
}
