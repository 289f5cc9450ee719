/**
 * Budget-aware polling for live updates (docs/api-conventions.md#subscriptions): a poller per
 * credential identity and resource reads the resource again each round, and a fingerprint that
 * differs from the last one is a change. A Redis lease (SET NX PX, renewed each round) picks the one
 * replica that polls, and the last fingerprint is kept beside it, so a poller that moves to another
 * replica neither misses a change nor reports a false one. Without Redis (or while it is away) each
 * replica polls for its own subscribers. Each caller holds at most so many streams, and its streams
 * together cause at most so many polls a minute: each of its n streams polls at most every
 * n ÷ that rate, and a round is charged to (read for) the caller whose stream asks for it soonest.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { RateRule, UpstreamTrafficConfig } from '../config/traffic.js';
import type { UpstreamName } from '../core/errors.js';
import type { RedisLink } from '../core/redis.js';
import type { TrafficControl } from '../core/traffic.js';

export interface Watch {
  upstream: UpstreamName;
  /** Who reads: a hash of the credential, so one poller serves all subscribers sharing it. */
  identity: string;
  /** What is read, e.g. `event:42`. */
  resource: string;
  /** Asked for; kept within the configured bounds. */
  intervalMs: number;
  /** Whose stream asks (its fair-share key): a round is charged to the caller whose stream asks soonest. */
  caller: string;
  /** Reads the resource for `caller` (charged to its share) and returns its fingerprint (anything that changes when it changes). */
  read(caller: string): Promise<string>;
  /** Called (on the polling replica) when the fingerprint changed; `previous` is the last one. */
  changed(current: string, previous: string): void | Promise<void>;
}

export interface PollingOptions {
  redis?: RedisLink;
  traffic: Record<UpstreamName, TrafficControl>;
  budgets: Record<UpstreamName, UpstreamTrafficConfig>;
  /** Fraction of an upstream's per-minute budget polls may take, per replica. */
  share: number;
  minIntervalMs: number;
  maxIntervalMs: number;
  /** Streams one caller may hold open on this replica. */
  maxStreamsPerCaller: number;
  /** Polls one caller's streams may cause a minute on this replica, all together. */
  pollsPerMinutePerCaller: number;
  log?: (message: string) => void;
}

interface Poller {
  key: string;
  watch: Watch;
  /** Each stream's asked interval, and whose it is. */
  intervals: Map<symbol, { ms: number; caller: string }>;
  timer?: NodeJS.Timeout;
  /** When its timer fires (Infinity during a round), and when its last round ended. */
  dueAt: number;
  lastAt?: number;
  stopped: boolean;
  lastLocal?: string;
}

const RENEW_LEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return redis.call('set', KEYS[1], ARGV[1], 'nx', 'px', ARGV[2]) and 1 or 0`;
const RELEASE_LEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;
const SEEN_TTL_MS = 3_600_000;

/** The smallest per-minute allowance of an upstream's account-wide rules; Infinity without rules. */
export function perMinuteAllowance(rules: readonly RateRule[], margin: number): number {
  const account = rules.filter((r) => !r.perEndpoint);
  if (account.length === 0) return Number.POSITIVE_INFINITY;
  return Math.min(...account.map((r) => (r.limit * margin * 60_000) / r.windowMs));
}

export class LivePolling {
  private readonly replica = randomUUID();
  private readonly pollers = new Map<string, Poller>();
  private readonly recentPolls: Record<UpstreamName, number[]> = { governance: [], calendar: [] };
  /**
   * Rounds polled, rounds skipped to leave the budget to ordinary requests (`yielded`) or because
   * another replica holds the lease (`leasedElsewhere`), and changes found.
   */
  private readonly counters = { polls: 0, yielded: 0, leasedElsewhere: 0, changes: 0 };
  /** Streams open per caller. */
  private readonly streams = new Map<string, number>();

  constructor(private readonly options: PollingOptions) {}

  /**
   * Counts a stream of `caller` and returns the function that ends it (once), or undefined when the
   * caller already holds the most it may.
   */
  openStream(caller: string): (() => void) | undefined {
    const open = this.streams.get(caller) ?? 0;
    if (open >= this.options.maxStreamsPerCaller) return undefined;
    this.streams.set(caller, open + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.streams.get(caller) ?? 1) - 1;
      if (left > 0) this.streams.set(caller, left);
      else this.streams.delete(caller);
    };
  }

  get maxStreamsPerCaller(): number {
    return this.options.maxStreamsPerCaller;
  }

  /** Starts (or joins) the poller of `watch`; the returned function leaves it. */
  watch(watch: Watch): () => void {
    const key = `${watch.upstream}:${watch.identity}:${watch.resource}`;
    let poller = this.pollers.get(key);
    if (!poller) {
      poller = { key, watch, intervals: new Map(), stopped: false, dueAt: 0 };
      this.pollers.set(key, poller);
      this.schedule(poller, 0);
    }
    const ticket = Symbol(key);
    const { minIntervalMs, maxIntervalMs } = this.options;
    poller.intervals.set(ticket, {
      ms: Math.min(maxIntervalMs, Math.max(minIntervalMs, watch.intervalMs)),
      caller: watch.caller,
    });
    const p = poller;
    // A stream that asks sooner than the poller's next round brings that round forward.
    const soonest = p.lastAt === undefined ? undefined : p.lastAt + this.next(p).interval;
    if (soonest !== undefined && soonest < p.dueAt && Number.isFinite(p.dueAt)) {
      clearTimeout(p.timer);
      this.schedule(p, Math.max(0, soonest - Date.now()));
    }
    return () => {
      p.intervals.delete(ticket);
      // stop() never rejects: its one Redis command is best effort (RedisLink.bestEffort).
      if (p.intervals.size === 0) void this.stop(p);
    };
  }

  /** The counters, and `active`: pollers running now. */
  stats() {
    return { ...this.counters, active: this.pollers.size };
  }

  async close(): Promise<void> {
    await Promise.all([...this.pollers.values()].map((p) => this.stop(p)));
  }

  private schedule(p: Poller, delayMs: number): void {
    if (p.stopped) return;
    p.dueAt = Date.now() + delayMs;
    p.timer = setTimeout(() => void this.round(p), delayMs);
    p.timer.unref?.();
  }

  private async stop(p: Poller): Promise<void> {
    if (p.stopped) return;
    p.stopped = true;
    clearTimeout(p.timer);
    this.pollers.delete(p.key);
    const redis = this.options.redis;
    if (redis?.ready)
      await redis.bestEffort(
        'poll lease release',
        redis.client.eval(RELEASE_LEASE, 1, redis.key('live', 'lease', p.key), this.replica),
      );
  }

  /**
   * When `p` polls next, and for whom: each stream's interval, stretched so that its caller's
   * streams together stay within the caller's polls a minute; the soonest wins.
   */
  private next(p: Poller): { interval: number; caller: string } {
    let best = { interval: Infinity, caller: p.watch.caller };
    for (const { ms, caller } of p.intervals.values()) {
      const share = (60_000 * (this.streams.get(caller) ?? 1)) / this.options.pollsPerMinutePerCaller;
      const interval = Math.min(this.options.maxIntervalMs, Math.max(ms, share));
      if (interval < best.interval) best = { interval, caller };
    }
    return best;
  }

  private async round(p: Poller): Promise<void> {
    const { interval, caller } = this.next(p);
    // In a round, no timer is set: a stream that joins meanwhile is counted when it ends.
    p.dueAt = Infinity;
    try {
      if (!(await this.holdLease(p, interval))) {
        this.counters.leasedElsewhere++;
        return;
      }
      // Its last stream left while the lease was asked for: a stopped poller sends nothing.
      if (p.stopped) return;
      if (!this.mayPoll(p.watch.upstream)) {
        this.counters.yielded++;
        return;
      }
      this.counters.polls++;
      const current = await p.watch.read(caller);
      if (p.stopped) return;
      const previous = await this.swapSeen(p, current);
      if (previous !== undefined && previous !== current) {
        this.counters.changes++;
        await p.watch.changed(current, previous);
      }
    } catch (error) {
      // A failed poll (rate limited, upstream down) is tried again next round.
      this.options.log?.(
        `live poll of ${p.watch.resource} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      p.lastAt = Date.now();
      this.schedule(p, this.next(p).interval);
    }
  }

  /** Whether this replica is the one that polls `p` (always, without a reachable Redis). */
  private async holdLease(p: Poller, interval: number): Promise<boolean> {
    const redis = this.options.redis;
    if (!redis?.ready) return true;
    try {
      const ttl = Math.max(5_000, interval * 3);
      return (
        (await redis.client.eval(RENEW_LEASE, 1, redis.key('live', 'lease', p.key), this.replica, String(ttl))) === 1
      );
    } catch {
      // Redis went away meanwhile: as without Redis, this replica polls (a duplicate poll, never a missed one).
      return true;
    }
  }

  /**
   * Polls yield to ordinary requests: never while any wait for admission or a 429 pause holds the
   * upstream, and never beyond the configured share of its per-minute budget.
   */
  private mayPoll(upstream: UpstreamName): boolean {
    const traffic = this.options.traffic[upstream];
    if (traffic.queued > 0 || traffic.pause.remainingMs() > 0) return false;
    const budget = this.options.budgets[upstream];
    const cap = Math.floor(perMinuteAllowance(budget.rules, budget.margin) * this.options.share);
    if (cap === Number.POSITIVE_INFINITY) return true;
    const now = Date.now();
    const recent = this.recentPolls[upstream].filter((t) => t > now - 60_000);
    this.recentPolls[upstream] = recent;
    if (recent.length >= cap) return false;
    recent.push(now);
    return true;
  }

  /** Stores the new fingerprint and returns the previous one (shared through Redis when there). */
  private async swapSeen(p: Poller, current: string): Promise<string | undefined> {
    const redis = this.options.redis;
    if (redis?.ready) {
      try {
        const previous = await redis.client.set(redis.key('live', 'seen', p.key), current, 'PX', SEEN_TTL_MS, 'GET');
        return previous ?? undefined;
      } catch {
        // fall through to the local fingerprint
      }
    }
    const previous = p.lastLocal;
    p.lastLocal = current;
    return previous;
  }
}

/** A short, stable fingerprint of a value (its JSON). */
export function fingerprint(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(value ?? null))
    .digest('base64url')
    .slice(0, 22);
}
