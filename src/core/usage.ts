/**
 * What one GraphQL operation cost each upstream: requests actually sent and answers served from the
 * shared cache. Shown to clients in `extensions.upstream` so they can see a query's price against
 * the account's rate limit.
 */
import { UpstreamError, type UpstreamName } from './errors.js';

export interface UpstreamUsage {
  requests: number;
  cacheHits: number;
  /** Answers served from an expired cache entry while the upstream was paused by a 429. */
  staleHits: number;
}

export interface UsageLimits {
  /** Upstream calls (not counting retries, cache hits or shared in-flight reads) per upstream per operation. */
  maxCallsPerUpstream?: number;
}

export class UsageTracker {
  private readonly byUpstream = new Map<UpstreamName, UpstreamUsage>();
  private readonly calls = new Map<UpstreamName, number>();
  /** The earliest time a read this operation used goes stale; null once a read was not cacheable. */
  private readsFreshUntil: number | null = Number.POSITIVE_INFINITY;
  private readonly read = new Set<string>();

  constructor(private readonly limits: UsageLimits = {}) {}

  /**
   * Takes one call from this operation's budget for `upstream`, before the call is queued; past the
   * budget the field that asked fails with `budget-exceeded` and the rest of the operation goes on.
   */
  reserve(upstream: UpstreamName): void {
    const used = (this.calls.get(upstream) ?? 0) + 1;
    const max = this.limits.maxCallsPerUpstream;
    if (max !== undefined && used > max) {
      throw new UpstreamError(upstream, 'budget-exceeded', `This operation reached its budget of ${max} ${upstream} requests; ask for less in one operation.`);
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

  /** True when an answer came from an expired cache entry (during a 429 pause). */
  get stale(): boolean {
    return [...this.byUpstream.values()].some((u) => u.staleHits > 0);
  }

  private entry(upstream: UpstreamName): UpstreamUsage {
    let u = this.byUpstream.get(upstream);
    if (!u) {
      u = { requests: 0, cacheHits: 0, staleHits: 0 };
      this.byUpstream.set(upstream, u);
    }
    return u;
  }

  request(upstream: UpstreamName): void {
    this.entry(upstream).requests++;
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

  /** Every upstream that was touched, for `extensions.upstream`. */
  toJSON(): Partial<Record<UpstreamName, UpstreamUsage>> {
    return Object.fromEntries([...this.byUpstream].map(([k, v]) => [k, { ...v }]));
  }
}
