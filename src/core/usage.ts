/**
 * What one GraphQL operation costs each upstream: the estimate made before it ran, the requests it
 * actually sent, the answers served from the shared cache, and the account budget after it. Shown
 * to clients in `extensions.cost` and the `budget` field so they can pace themselves. Also carries
 * the operation's own limits: its call budget per upstream and its deadline.
 */
import { UpstreamError, type UpstreamName } from './errors.js';
import type { CallerShare } from './fair-share.js';
import type { TrafficStatus } from './traffic.js';
import { recordOf } from './records.js';

export interface UpstreamUsage {
  requests: number;
  cacheHits: number;
  /** Answers served from an expired cache entry while the upstream was paused by a 429 (or ramping after it). */
  staleHits: number;
  /** Of `requests`, the ones that repeated a failed call (a retry): they come on top of the estimate. */
  retries: number;
}

export interface UpstreamCost extends UpstreamUsage {
  /** Upstream calls the operation was estimated to need before it ran: an upper bound (see cost-report.ts). */
  estimated: number;
  /** The account budget as last known after the operation (no extra Redis round trip). */
  throttleStatus: TrafficStatus;
  /** Answered whole from the response cache: nothing was executed or sent upstream. */
  cached: boolean;
  /** The caller's part of the account (see `CallerCost`); absent when the caller is not known. */
  caller?: CallerCost;
}

/** The caller's fair share of one upstream account, as of this operation. */
export interface CallerCost {
  /** Fraction of the account's shortest rule this caller spent in its last span (this replica's count). */
  share: number;
  /** Its cap on that fraction, when it has one. */
  cap?: number;
  /** The worst place in line one of this operation's calls had (1: next); 0 when none waited. */
  place: number;
}

export interface UsageLimits {
  /** Upstream calls (not counting retries, cache hits or shared in-flight reads) per upstream per operation. */
  maxCallsPerUpstream?: number;
  /** Epoch ms by which the operation's upstream calls must be done (queue waits included). */
  deadline?: number;
  /** The account status of each upstream, for the cost report. */
  status?: (upstream: UpstreamName) => TrafficStatus;
  /** The caller's share of each upstream account, for the cost report. */
  share?: (upstream: UpstreamName) => CallerShare;
  /** Calls an operation makes before its first one to `upstream` (a token read when none is held): 0 or more. */
  setupCalls?: (upstream: UpstreamName) => number;
}

const UPSTREAMS: UpstreamName[] = ['governance', 'calendar'];
type PerUpstream<T> = Record<UpstreamName, T>;

export class UsageTracker {
  private readonly byUpstream = new Map<UpstreamName, UpstreamUsage>();
  private readonly calls = new Map<UpstreamName, number>();
  /** The estimate made before execution (see operation-cost.ts). */
  estimate: Partial<Record<UpstreamName, number>> = {};
  /** One snapshot of the account status per state of the operation, so the field and the extension agree. */
  private statusSnapshot?: PerUpstream<TrafficStatus>;
  /** The earliest time a read this operation used goes stale; null once a read was not cacheable. */
  private readsFreshUntil: number | null = Number.POSITIVE_INFINITY;
  private readonly read = new Set<string>();
  /** Worst place in line per upstream (see `waited`). */
  private readonly places = new Map<UpstreamName, number>();

  constructor(private readonly limits: UsageLimits = {}) {}

  setupCalls(upstream: UpstreamName): number {
    return this.limits.setupCalls?.(upstream) ?? 0;
  }

  /** Infinity: none. */
  get deadline(): number {
    return this.limits.deadline ?? Infinity;
  }

  /**
   * Takes one call from this operation's budget for `upstream`, before the call is queued; past the
   * budget the field that asked fails with `budget-exceeded` and the rest of the operation goes on.
   */
  reserve(upstream: UpstreamName): void {
    const used = (this.calls.get(upstream) ?? 0) + 1;
    const max = this.limits.maxCallsPerUpstream;
    if (max !== undefined && used > max) {
      throw new UpstreamError(
        upstream,
        'budget-exceeded',
        `This operation reached its budget of ${max} ${upstream} requests; ask for less in one operation.`,
      );
    }
    this.calls.set(upstream, used);
  }

  /**
   * A read this operation used: fresh until `freshUntil` (epoch ms), or `null` when it may not be
   * cached at all (no TTL, a password read, a stale answer). HTTP caching derives max-age from it.
   */
  readFreshUntil(freshUntil: number | null): void {
    if (freshUntil === null || this.readsFreshUntil === null) this.readsFreshUntil = null;
    else this.readsFreshUntil = Math.min(this.readsFreshUntil, freshUntil);
  }

  /** Seconds every read of this operation stays fresh (Infinity when it read nothing); null when one may not be cached. */
  freshForSeconds(now = Date.now()): number | null {
    if (this.readsFreshUntil === null) return null;
    if (this.readsFreshUntil === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
    return Math.max(0, Math.floor((this.readsFreshUntil - now) / 1000));
  }

  /** Epoch ms until which every read stays fresh (Infinity: it read nothing; null: one may not be cached). */
  get freshUntil(): number | null {
    return this.readsFreshUntil;
  }

  /** True when an answer came from an expired cache entry (during a 429 pause). */
  get stale(): boolean {
    return [...this.byUpstream.values()].some((u) => u.staleHits > 0);
  }

  private entry(upstream: UpstreamName): UpstreamUsage {
    let u = this.byUpstream.get(upstream);
    if (!u) {
      u = { requests: 0, cacheHits: 0, staleHits: 0, retries: 0 };
      this.byUpstream.set(upstream, u);
    }
    return u;
  }

  request(upstream: UpstreamName, retry = false): void {
    const u = this.entry(upstream);
    u.requests++;
    if (retry) u.retries++;
    this.statusSnapshot = undefined;
  }

  /** A call of this operation waited for admission at `place` in line (1: next). */
  waited(upstream: UpstreamName, place: number): void {
    this.places.set(upstream, Math.max(place, this.places.get(upstream) ?? 0));
  }

  cacheHit(upstream: UpstreamName, stale = false): void {
    const u = this.entry(upstream);
    u.cacheHits++;
    if (stale) u.staleHits++;
  }

  /** Records the cache tags of an upstream answer this operation used (from the wire or a cache). */
  readTags(tags: readonly string[]): void {
    for (const t of tags) this.read.add(t);
  }

  /**
   * The tags of every upstream resource the operation's answer read, lists included: what a
   * whole-response cache or an HTTP validator must be invalidated by (the same tags as the
   * response cache's, see `core/cache.ts`).
   */
  get tags(): ReadonlySet<string> {
    return this.read;
  }

  get(upstream: UpstreamName): UpstreamUsage {
    return { ...this.entry(upstream) };
  }

  /** Every upstream that was touched (for the request log). */
  toJSON(): Partial<Record<UpstreamName, UpstreamUsage>> {
    return Object.fromEntries([...this.byUpstream].map(([k, v]) => [k, { ...v }]));
  }

  /** The account status of every upstream, from the last known counts. */
  accountStatus(): PerUpstream<TrafficStatus> {
    const status = this.limits.status ?? (() => ({ shared: false, rules: [], pausedForMs: 0, ramping: false }));
    this.statusSnapshot ??= recordOf(UPSTREAMS, status);
    return this.statusSnapshot;
  }

  /**
   * Per upstream, the estimate, what was sent and served from cache, and the account as last known;
   * `cached` for an answer served whole from the response cache (nothing executed). The `budget`
   * field shows them all; `extensions.cost` those of the upstreams used (cost-report.ts).
   */
  costs(cached = false): PerUpstream<UpstreamCost> {
    const status = this.accountStatus();
    return recordOf(UPSTREAMS, (u) => ({
      estimated: this.estimate[u] ?? 0,
      ...this.get(u),
      throttleStatus: status[u],
      cached,
      ...this.callerCost(u),
    }));
  }

  private callerCost(upstream: UpstreamName): { caller?: CallerCost } {
    const mine = this.limits.share?.(upstream);
    if (!mine) return {};
    const caller: CallerCost = { share: Math.round(mine.share * 1000) / 1000, place: this.places.get(upstream) ?? 0 };
    if (mine.cap < 1) caller.cap = mine.cap;
    return { caller };
  }
}
