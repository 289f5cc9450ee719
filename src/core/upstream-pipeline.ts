/**
 * One upstream as the adapters see it: `call()` runs a request through the steps ARCHITECTURE.md
 * lists under "The upstream pipeline". It knows nothing of the upstream's payloads: each adapter
 * builds the request and interprets the status and body (a 429 never reaches an adapter: it pauses
 * the account and is retried, or becomes a `rate-limited` UpstreamError).
 */
import type { BreakerState, UpstreamBreaker } from './breaker.js';
import { ResponseCache } from './cache.js';
import type { SharedCacheTier, SharedRecord } from './cache-shared.js';
import { RecordKeeper, type Harvest, type ReuseMode } from './harvest.js';
import { cancelledByCaller, failureCause, UpstreamError, type UpstreamName } from './errors.js';
import { type HttpTransport, type HttpRequest, type HttpResponse } from './http.js';
import { checkPath } from './url-path.js';
import { ListIndex } from './list-reuse.js';
import type { PriorityName, UpstreamLimiter } from './concurrency-cap.js';
import type { CacheResult, UpstreamEvent, UpstreamObserver } from './observer.js';
import { readRateLimitNotice, type RetryAfterPolicy } from './retry-after.js';
import type { Admission, TrafficControl } from './traffic.js';
import { throttledLogger, type TrafficLogger } from './traffic-log.js';
import type { Caller } from './caller.js';

export type { Caller };

export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined | null;

export interface UpstreamCall {
  method: HttpRequest['method'];
  /** Path below the upstream's base URL, starting with `/`. */
  path: string;
  query?: Record<string, QueryValue>;
  json?: unknown;
  headers?: Record<string, string>;
  /**
   * Headers asked for only when the call is sent (a token): a read answered by the cache, by an
   * identical read in flight or by the Redis tier asks for none.
   */
  authorize?: () => Promise<Record<string, string>>;
  /** Safe to repeat and to share between concurrent callers: GETs and read-only search POSTs. */
  idempotent: boolean;
  kind: CallKind;
  /** Names the operation in metrics and logs, e.g. `entities.search`. */
  operation: string;
  /** Cache this answer for the given time, tagged for invalidation; omit for no caching. */
  cache?: { ttlMs: number; tags: readonly string[] };
  /**
   * The records a 2xx answer holds (a cacheable read's, or a write's), as the reads by id they
   * answer (harvest.ts); called in the background, a write's after the adapter dropped what it changed.
   */
  harvest?: (res: HttpResponse) => readonly Harvest<UpstreamCall>[];
  /** An absolute URL on the same account instead of `path` (the OAuth token endpoint): it counts against the account too. */
  url?: URL | string;
  /** A pre-encoded body (e.g. a multipart form) instead of `json`. */
  body?: HttpRequest['body'];
  /** Sent because an earlier call failed (a new token and the repeat after a 401): counted as a retry. */
  repeat?: boolean;
}

/** What a call is for; `more-pages` fill a `first` larger than one upstream page. */
export type CallKind = 'write' | 'token' | 'read' | 'page' | 'more-pages' | 'poll';

export type PageKind = Extract<CallKind, 'page' | 'more-pages'>;

/** The one place that ranks calls: someone waits on each write and token, polls go last. */
export const PRIORITY_OF: Record<CallKind, PriorityName> = {
  write: 'write',
  token: 'write',
  read: 'single',
  page: 'list',
  'more-pages': 'bulk',
  poll: 'background',
};

export interface RetryPolicy {
  /** Attempts after the first, for idempotent calls on 502/503/504, resets and timeouts. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface UpstreamOptions {
  name: UpstreamName;
  baseUrl: URL;
  transport: HttpTransport;
  limiter: UpstreamLimiter;
  cache: ResponseCache;
  /** The Redis tier behind `cache` (with `REDIS_URL`). */
  shared?: SharedCacheTier;
  retry: RetryPolicy;
  traffic: TrafficControl;
  retryAfter: RetryAfterPolicy;
  /** Times one request is sent again after 429s before it fails `rate-limited`. */
  rateLimitRetries: number;
  /** Total time of one request across its attempts and backoffs, from its first ask for a slot. */
  requestDeadlineMs: number;
  log: TrafficLogger;
  breaker: UpstreamBreaker;
  observer?: UpstreamObserver;
  reuse: ReuseMode;
  /** Below `below` of the account's budget left, a read takes its cached answer up to `maxStaleMs` past its TTL. */
  budgetStale: { below: number; maxStaleMs: number };
}

export interface CallTarget {
  url: Target;
  key: string;
}

/** Where a call goes, as strings: `path` is the path and query the transport sends. */
export interface Target {
  origin: string;
  pathname: string;
  path: string;
  href: string;
}

function absolute(url: URL | string): Target {
  const u = new URL(url);
  return { origin: u.origin, pathname: u.pathname, path: u.pathname + u.search, href: u.href };
}

const RETRYABLE_STATUS = new Set([502, 503, 504]);
/** `afterAttempt`'s answer when the request is to be sent again. */
const AGAIN = Symbol('again');

/** One request's state across its attempts (`send`). */
interface Sending {
  call: UpstreamCall;
  url: Target;
  caller: Caller;
  event: UpstreamEvent | undefined;
  priority: PriorityName;
  /** What per-endpoint rules count (`endpointOf`), with the method. */
  endpoint: string;
  /** Admission waits end here: the queue deadline or the operation's, after the first send the request's too. */
  queueDeadline: number;
  /** Set at the first send: all attempts and backoffs end here. */
  requestDeadline: number;
  /** When the request first asked for a slot: a wait for one counts toward its deadline. */
  queuedAt: number;
  failures: number;
  rateLimited: number;
}
const NO_TAGS: readonly string[] = Object.freeze([]);

/**
 * A read in flight, which identical reads join. Emptied once it ends: V8's young collector keeps
 * what a long-lived Map's discarded backing stores reach, and its promise holds a whole page.
 */
interface InFlight {
  promise?: Promise<HttpResponse>;
  mark: number;
  tags: readonly string[];
  /** The owner's signal: the shared request is cancelled with it. */
  signal?: AbortSignal;
}

/** Failed calls are logged once per cause per this interval: an outage is not a log flood. */
const FAILURE_LOG_INTERVAL_MS = 10_000;

export class Upstream {
  readonly name: UpstreamName;
  readonly cache: ResponseCache;
  readonly limiter: UpstreamLimiter;
  readonly traffic: TrafficControl;
  private readonly inflight = new Map<string, InFlight>();
  private readonly origin: string;
  private readonly basePath: string;
  private readonly logFailure: ReturnType<typeof throttledLogger>;
  private readonly records: RecordKeeper;
  /** The list pages this process cached (`list-reuse.ts`): forgotten when the cache is emptied. */
  readonly lists = new ListIndex();

  constructor(private readonly options: UpstreamOptions) {
    ({ name: this.name, cache: this.cache, limiter: this.limiter, traffic: this.traffic } = options);
    options.cache.follow({ invalidated: () => undefined, cleared: () => this.lists.clear() });
    this.records = new RecordKeeper(options.reuse, options.cache, options.shared);
    this.origin = options.baseUrl.origin;
    this.basePath = options.baseUrl.pathname.replace(/\/$/, '');
    this.logFailure = throttledLogger(options.log, FAILURE_LOG_INTERVAL_MS);
  }

  get breakerState(): BreakerState {
    return this.options.breaker.state;
  }

  /**
   * The request's target; refuses (`bad-request`, nothing sent) a path that URL parsing would
   * reshape. Built as strings: a URL object and its getters cost more than the rest of this.
   */
  url(path: string, query?: Record<string, QueryValue>): Target {
    const params = new URLSearchParams();
    if (query)
      for (const key in query) {
        const value = query[key];
        if (value === undefined || value === null) continue;
        params.append(key, Array.isArray(value) ? value.join(',') : String(value));
      }
    if (path !== '') checkPath(this.name, path);
    const pathname = this.basePath + path;
    const search = params.size > 0 ? `?${params.toString()}` : '';
    return { origin: this.origin, pathname, path: pathname + search, href: this.origin + pathname + search };
  }

  /** The URL and cache key of a call; an adapter that computed them passes them on to `freshHit` and `call`. */
  target(call: UpstreamCall, caller: Caller): CallTarget {
    const url = call.url !== undefined ? absolute(call.url) : this.url(call.path, call.query);
    const body = call.json ?? (typeof call.body === 'string' ? call.body : undefined);
    return { url, key: ResponseCache.key(caller.identity, call.method, url.href, body) };
  }

  /**
   * A fresh cached answer to this read, counted as a cache hit, or undefined when the read has to
   * go through `call`. Synchronous: an adapter can answer a warm read before it fetches a token.
   * `as`: the outcome reported, when the answer serves another read than `call` (a prefix of it).
   */
  freshHit(
    call: UpstreamCall,
    caller: Caller,
    target = this.target(call, caller),
    as: CacheResult = 'hit',
  ): HttpResponse | undefined {
    if (!call.cache) return undefined;
    const hit = this.options.cache.get(target.key);
    if (!hit?.fresh) return undefined;
    caller.usage.readTags(call.cache.tags);
    this.served(call, caller, hit.entry.freshUntil, as === 'hit' && hit.entry.harvested ? 'record' : as);
    return hit.entry.response;
  }

  /** Tells the observer a cache outcome (some decided by the adapter: a shadow count, a wasted combined list). */
  report(call: UpstreamCall, caller: Caller, result: CacheResult): void {
    this.options.observer?.cache?.({ upstream: this.name, operation: call.operation, caller }, result);
  }

  /** `target`: what `target(call, caller)` gave for this call (headers aside), if the caller has it. */
  async call(call: UpstreamCall, caller: Caller, target = this.target(call, caller)): Promise<HttpResponse> {
    const fresh = this.freshHit(call, caller, target);
    if (fresh) return fresh;
    if (!call.cache) return this.load(call, caller, target);
    caller.usage.readTags(call.cache.tags);
    const expired = this.options.cache.get(target.key)?.entry.response;
    // During a 429 pause and the ramp after it, an expired answer (kept up to max-stale) beats waiting.
    if (expired && this.options.traffic.holding()) return this.serveStale(expired, call, caller, 'stale');
    // With the account's budget running low, an answer a little past its TTL beats spending it.
    const kept = this.keptForBudget(target.key);
    if (kept) return this.serveStale(kept, call, caller, 'stale-budget');
    this.report(call, caller, 'miss');
    if (this.records.mode === 'shadow' && this.records.wouldAnswer(target.key, call.cache.tags))
      this.report(call, caller, 'record-shadow');
    if (!expired) return this.load(call, caller, target);
    // Stale if error: when the upstream fails (or its breaker is open), the expired answer, still
    // within CACHE_MAX_STALE_MS when the failure comes (the cache drops it then; a stalled upstream
    // can take a whole deadline to fail) and under this caller's own key, is served.
    try {
      const res = await this.load(call, caller, target);
      if (res.status < 500) return res;
      const still = this.options.cache.get(target.key)?.entry.response;
      return still ? this.serveStale(still, call, caller, 'stale') : res;
    } catch (e) {
      const still = this.options.cache.get(target.key)?.entry.response;
      if (still && e instanceof UpstreamError && e.kind === 'unavailable')
        return this.serveStale(still, call, caller, 'stale');
      throw e;
    }
  }

  private served(call: UpstreamCall, caller: Caller, freshUntil: number, as: CacheResult): void {
    caller.usage.readFreshUntil(freshUntil);
    caller.usage.cacheHit(this.name);
    this.report(call, caller, as);
  }

  /** An expired answer, counted as a stale hit (`extensions.cost`), so the field is marked stale. */
  private serveStale(response: HttpResponse, call: UpstreamCall, caller: Caller, result: CacheResult): HttpResponse {
    caller.usage.readFreshUntil(null);
    caller.usage.cacheHit(this.name, true);
    this.report(call, caller, result);
    return response;
  }

  /** The cached answer under `key` within the budget's max staleness, while the budget is below its share. */
  private keptForBudget(key: string): HttpResponse | undefined {
    const { below, maxStaleMs } = this.options.budgetStale;
    if (maxStaleMs === 0) return undefined;
    const now = Date.now();
    const hit = this.options.cache.get(key, now, maxStaleMs);
    return hit && this.options.traffic.leftShare(now) < below ? hit.entry.response : undefined;
  }

  /** A read the local cache could not answer fresh, or any write: the breaker, in-flight sharing, the wire. */
  private async load(call: UpstreamCall, caller: Caller, target: CallTarget): Promise<HttpResponse> {
    const { url, key } = target;
    const { cache } = this.options;
    // An open breaker fails the call before it asks Redis or waits for anything.
    const refused = this.options.breaker.refusal();
    if (refused) throw refused;
    // This operation's call budget is charged here, by its own caller, so that a read shared with
    // other requests never carries one request's budget error to another.
    if (!call.idempotent) {
      caller.usage.reserve(this.name);
      const res = await this.send(call, url, caller);
      if (call.harvest && res.status >= 200 && res.status < 300)
        this.harvest(() => call.harvest!(res), caller, res.bytes, Infinity);
      return res;
    }

    caller.usage.readFreshUntil(call.cache ? Date.now() + call.cache.ttlMs : null);
    // Identical reads in flight for the same credential share one upstream request, unless a
    // mutation invalidated their tags since that request started (it may hold pre-write data).
    const tags = call.cache?.tags ?? [];
    const pending = this.inflight.get(key);
    if (pending?.promise && !cache.changedSince(pending.mark, pending.tags)) {
      caller.usage.cacheHit(this.name);
      this.report(call, caller, 'shared');
      // If the request that owns the shared call is cancelled, the others go on with their own.
      const owner = pending.signal;
      return pending.promise.catch((e: unknown) => {
        if (owner?.aborted && !caller.signal?.aborted) return this.call(call, caller);
        throw e;
      });
    }
    caller.usage.reserve(this.name);
    const mark = cache.mark();
    const promise = this.fetch(call, url, caller, key, tags, mark);
    const entry: InFlight = { promise, mark, tags, signal: caller.signal };
    this.inflight.set(key, entry);
    try {
      return await promise;
    } finally {
      if (this.inflight.get(key) === entry) this.inflight.delete(key);
      entry.promise = entry.signal = undefined;
      entry.tags = NO_TAGS;
    }
  }

  /**
   * A local miss: asks the shared tier (when there is one), else sends the request and stores a
   * cacheable answer in both tiers. Neither tier stores an answer whose tags were invalidated since
   * `mark` (locally) or since the shared lookup (in Redis): it may hold pre-write data.
   */
  private async fetch(
    call: UpstreamCall,
    url: Target,
    caller: Caller,
    key: string,
    tags: readonly string[],
    mark: number,
  ): Promise<HttpResponse> {
    const { cache, shared } = this.options;
    // A wait for another replica's identical read counts toward this request's deadline, as a wait
    // for a connection slot does: else a read behind a stalled one pays that wait and a whole deadline.
    const askedAt = Date.now();
    const found = call.cache && shared ? await shared.lookup(key, tags, caller.signal) : undefined;
    if (found?.kind === 'hit') {
      // Another replica's copy: fresh only until its own time is up, not for a whole TTL from now.
      const { response, freshUntil, harvested } = found;
      this.served(call, caller, freshUntil, harvested ? 'record-redis' : 'redis');
      if (harvested) cache.keep(key, response, freshUntil, tags, mark);
      else cache.set(key, response, freshUntil - Date.now(), tags, mark);
      // Its records were shared by the replica that fetched it: kept here, locally.
      if (call.harvest) this.harvest(() => call.harvest!(response), caller, response.bytes, freshUntil, mark);
      return response;
    }
    let res: HttpResponse;
    try {
      res = await this.send(call, url, caller, askedAt);
    } catch (e) {
      found?.release();
      throw e;
    }
    if (call.cache && res.status >= 200 && res.status < 300) {
      const current = found ? await found.store(res, call.cache.ttlMs) : true;
      if (current) {
        cache.set(key, res, call.cache.ttlMs, tags, mark);
        const freshUntil = Date.now() + call.cache.ttlMs;
        if (call.harvest) this.harvest(() => call.harvest!(res), caller, res.bytes, freshUntil, mark, found?.mark);
      }
    } else {
      found?.release();
    }
    return res;
  }

  /**
   * Keeps the records an answer holds, in the background, under their own reads' keys (this
   * caller's identity) and tags. `mark`: taken before the answer's request was sent (a write's is
   * taken when its records are kept: after the adapter's invalidation, which follows the answer at
   * once); `sharedMark`: Redis's clock at its lookup there, when the records are to be shared.
   */
  private harvest(
    harvests: () => readonly Harvest<UpstreamCall>[],
    caller: Caller,
    bytes: number,
    freshUntil: number,
    mark?: number,
    sharedMark?: number,
  ): void {
    if (this.records.mode === 'off') return;
    setImmediate(() => {
      const since = mark ?? this.options.cache.mark();
      let found: readonly Harvest<UpstreamCall>[];
      try {
        found = harvests();
      } catch {
        return; // an answer the adapter cannot take apart: nothing harvested, the answer stands
      }
      const now = Date.now();
      // Each record's size is its share of the answer's, for the cache's bound: encoding every
      // record again added about a tenth to a cold EventGraph's gateway CPU.
      const share = Math.ceil(bytes / Math.max(1, found.length));
      const records: SharedRecord[] = [];
      for (const { call, body } of found) {
        if (!call.cache) continue;
        let key: string;
        try {
          key = this.target(call, caller).key;
        } catch {
          continue; // a path the upstream would not take as it is (see url-path.ts): not a record to keep
        }
        const response = { status: 200, headers: {}, body, bytes: share };
        const until = Math.min(freshUntil, now + call.cache.ttlMs);
        records.push({ key, tags: call.cache.tags, response, freshUntil: until });
      }
      this.records.keep(records, since, sharedMark);
    });
  }

  /**
   * Sends one request: each attempt waits for a scheduler slot, then for admission, then goes on
   * the wire; backoff between attempts happens outside the slot so it never blocks other requests.
   * Queue waits end at the queue deadline or the operation's, whichever comes first; from the
   * first send, all attempts and backoffs together end at the request deadline (never past the
   * operation's). `askedAt`: when the request began to wait (a shared-cache lookup), counted like
   * a queue wait.
   */
  private async send(call: UpstreamCall, url: Target, caller: Caller, askedAt = Date.now()): Promise<HttpResponse> {
    const { observer, traffic, breaker } = this.options;
    // An open breaker fails the call before it waits for anything; the half-open probe goes last.
    const refused = breaker.refusal();
    if (refused) throw refused;
    if (call.authorize) {
      // The wait for a token is the token call's own, not this request's.
      const asked = Date.now();
      call = { ...call, headers: { ...call.headers, ...(await call.authorize()) } };
      askedAt += Date.now() - asked;
    }
    const s: Sending = {
      call,
      url,
      caller,
      event: observer && { upstream: this.name, operation: call.operation, caller },
      priority: breaker.probeDue() ? 'background' : PRIORITY_OF[call.kind],
      endpoint: `${call.method} ${endpointOf(url)}`,
      queueDeadline: Math.min(traffic.deadline(), caller.usage.deadline),
      requestDeadline: Infinity,
      queuedAt: askedAt,
      failures: 0,
      rateLimited: 0,
    };
    try {
      for (let attempt = 0; ; attempt++) {
        const outcome = await this.attempt(s, attempt);
        // Retries wait in the queue no longer than the request's own deadline.
        s.queueDeadline = Math.min(s.queueDeadline, s.requestDeadline);
        const answer = await this.afterAttempt(s, attempt, outcome);
        if (answer === AGAIN) continue;
        if (answer.status >= 500) this.failed(call, answer.status);
        return answer;
      }
    } catch (e) {
      if (e instanceof UpstreamError && (e.kind === 'unavailable' || e.kind === 'outcome-unknown'))
        this.failed(call, e);
      throw e;
    }
  }

  /** One warn line per cause (DNS, refused, reset, TLS, timeout, 5xx) per interval; no URL, no credentials. */
  private failed(call: UpstreamCall, failure: UpstreamError | number): void {
    if (failure instanceof UpstreamError && (failure.breaker || cancelledByCaller(failure))) return;
    const cause = typeof failure === 'number' ? 'http-5xx' : failureCause(failure);
    const status = typeof failure === 'number' ? failure : failure.status;
    this.logFailure(cause, {
      level: 'warn',
      msg: 'upstream call failed',
      upstream: this.name,
      operation: call.operation,
      cause,
      ...(status !== undefined ? { status } : {}),
    });
  }

  /**
   * One attempt: a scheduler slot (waited for no longer than the request's deadline and the
   * operation's: higher priorities arriving all the time, each holding a slot of a stalled upstream,
   * must not hold this one past its own), admission, the wire. A fault of the wire comes back as its error.
   */
  private attempt(s: Sending, attempt: number): Promise<HttpResponse | UpstreamError> {
    const { limiter, observer, breaker, traffic } = this.options;
    const dequeued = observer?.queued?.({ ...s.event!, priority: s.priority });
    let started = false;
    let onWire = false;
    const slotDeadline = Math.min(
      s.queuedAt + this.options.requestDeadlineMs,
      s.requestDeadline,
      s.caller.usage.deadline,
    );
    const task = async () => {
      started = true;
      const slotAt = Date.now();
      let admission: Admission;
      try {
        admission = await this.admit(s);
      } finally {
        dequeued?.();
      }
      if (admission.place !== undefined) s.caller.usage.waited(this.name, admission.place);
      // The deadline runs from the first ask for a slot: a full queue in front of a stalled upstream
      // must not add a whole deadline on top. Waiting for the account (budget, 429 pause) is not counted.
      const start = s.queuedAt + (Date.now() - slotAt);
      // The breaker may have opened while this call waited: then it is refused and its point given back.
      return breaker
        .run(() => {
          if (s.requestDeadline === Infinity)
            s.requestDeadline = Math.min(start + this.options.requestDeadlineMs, s.caller.usage.deadline);
          s.caller.usage.request(this.name, attempt > 0 || s.call.repeat === true);
          onWire = true;
          return this.onWire(s, attempt, admission);
        })
        .catch((e: unknown) => {
          if (!onWire) traffic.release(admission);
          throw e;
        });
    };
    return limiter.schedule(s.priority, task, s.caller.client, slotDeadline).catch((e: unknown) => {
      if (!started) dequeued?.();
      // The scheduler answers running calls at shutdown: a write already on the wire then may
      // or may not have been applied; one still waiting certainly was not sent.
      if (!s.call.idempotent && onWire && e instanceof UpstreamError && e.kind === 'unavailable')
        throw outcomeUnknown(this.name, e);
      throw e;
    });
  }

  /**
   * Admission settles asynchronously: a 429 read meanwhile, or an admission that went stale
   * meanwhile (the event loop was slow to get here), gives its point back and asks again.
   */
  private async admit(s: Sending): Promise<Admission> {
    const { traffic } = this.options;
    for (;;) {
      const admission = await traffic.admit(s.priority, s.endpoint, s.queueDeadline, s.caller.signal, s.caller.client);
      if (traffic.pause.remainingMs() === 0 && Date.now() < admission.validUntil) return admission;
      traffic.release(admission);
    }
  }

  private async onWire(s: Sending, attempt: number, admission: Admission): Promise<HttpResponse | UpstreamError> {
    const { transport, observer, traffic } = this.options;
    const { call, caller } = s;
    // Observers may add headers of their own (tracing: W3C traceparent of this attempt's span).
    // The request id goes along, so that an upstream's logs can be matched with the gateway's.
    const headers =
      observer?.request || caller.requestId
        ? { ...call.headers, ...(caller.requestId ? { 'x-request-id': caller.requestId } : {}) }
        : call.headers;
    const done = observer?.request?.({ ...s.event!, method: call.method, attempt, headers: headers! });
    let settled: 'ok' | 'rate-limited' | 'cancelled' = 'cancelled';
    try {
      const res = await transport.send({
        method: call.method,
        origin: s.url.origin,
        path: s.url.path,
        headers,
        json: call.json,
        body: call.body,
        signal: caller.signal,
        deadline: s.requestDeadline,
      });
      settled = res.status === 429 ? 'rate-limited' : 'ok';
      if (res.status === 429) await this.pauseAfter429(res, call);
      done?.({ status: res.status });
      return res;
    } catch (e) {
      // A fault of the wire is no verdict on the rate limit: the ramp goes on.
      if (e instanceof UpstreamError) settled = 'ok';
      done?.({ error: e instanceof UpstreamError ? e.kind : 'error' });
      if (e instanceof UpstreamError) return e;
      throw e;
    } finally {
      traffic.settle(admission, settled);
    }
  }

  /** What an attempt's outcome means: the answer, an error thrown, or `AGAIN` after any backoff. */
  private async afterAttempt(
    s: Sending,
    attempt: number,
    outcome: HttpResponse | UpstreamError,
  ): Promise<HttpResponse | typeof AGAIN> {
    const { call, caller } = s;
    const { retry, observer } = this.options;
    if (outcome instanceof UpstreamError) {
      // A write that may have reached the upstream is never sent again: its outcome is unknown.
      if (!call.idempotent && outcome.kind === 'unavailable' && outcome.sent) throw outcomeUnknown(this.name, outcome);
      const retryable = call.idempotent && outcome.kind === 'unavailable' && !caller.signal?.aborted;
      if (!retryable || s.failures >= retry.retries) throw outcome;
      observer?.retry?.({ ...s.event!, attempt: attempt + 1, reason: 'unavailable' });
      if (!(await backoff(s.failures++, retry, s.requestDeadline))) throw outcome;
      return AGAIN;
    }
    // Not processed: the account is paused (onWire); send it again (writes too).
    if (outcome.status === 429) {
      if (s.rateLimited++ >= this.options.rateLimitRetries) throw this.rateLimited();
      return AGAIN;
    }
    const retryable = call.idempotent && RETRYABLE_STATUS.has(outcome.status);
    if (!retryable || s.failures >= retry.retries || Date.now() >= s.requestDeadline) return outcome;
    observer?.retry?.({ ...s.event!, attempt: attempt + 1, reason: String(outcome.status) });
    return (await backoff(s.failures++, retry, s.requestDeadline)) ? AGAIN : outcome;
  }

  private rateLimited(): UpstreamError {
    const retryAfter = Math.max(1, Math.ceil(this.options.traffic.pause.remainingMs() / 1000));
    return new UpstreamError(
      this.name,
      'rate-limited',
      `The ${this.name} service is rate limiting the gateway; retry in ${retryAfter} s.`,
      { status: 429, retryAfter },
    );
  }

  /** A 429 was not processed: pause the whole account (every replica) before anything else is sent. */
  private async pauseAfter429(res: HttpResponse, call: UpstreamCall): Promise<void> {
    const { log, observer, traffic } = this.options;
    const notice = readRateLimitNotice(res.headers, this.options.retryAfter);
    log({
      level: 'warn',
      msg: 'upstream answered 429: pausing the account',
      upstream: this.name,
      operation: call.operation,
      ...notice,
    });
    observer?.pause?.({ upstream: this.name, ms: notice.pauseMs });
    await traffic.pause.pause(notice.pauseMs);
  }
}

/**
 * A write that may have been applied: the request went out and no usable answer came back. A 2xx
 * status followed by a broken body means it was applied; anything else may or may not have been.
 */
function outcomeUnknown(upstream: UpstreamError['upstream'], cause: UpstreamError): UpstreamError {
  const applied = cause.status !== undefined && cause.status >= 200 && cause.status < 300;
  const message = applied
    ? `The ${upstream} service applied this write (it answered ${cause.status}) but its answer was cut; re-read the record to see the result, and do not send the write again.`
    : `The ${upstream} service may or may not have applied this write: it was sent but no answer came back. Re-read the record before retrying.`;
  return new UpstreamError(upstream, 'outcome-unknown', message, { status: cause.status, applied, sent: true, cause });
}

/** The endpoint a per-endpoint rule counts: the path with ids (uuids, numbers) as placeholders. */
export function endpointOf(url: { pathname: string }): string {
  return url.pathname.replace(ID_SEGMENT, '/:id');
}

/** A whole path segment that is a uuid or a number. */
const ID_SEGMENT = /\/(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+)(?=\/|$)/gi;

/**
 * Full jitter: a random delay up to the exponential bound spreads retries from many callers. False
 * at once, without waiting, when the delay would end past the request's deadline.
 */
async function backoff(attempt: number, policy: RetryPolicy, deadline: number): Promise<boolean> {
  const delay = Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  if (Date.now() + delay >= deadline) return false;
  await new Promise((resolve) => setTimeout(resolve, delay));
  return true;
}
