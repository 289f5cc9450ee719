/**
 * The account budget: every request the gateway sends to an upstream account takes one point from
 * each of the account's fixed-window rules (minute, hour, optionally per endpoint), windows aligned
 * to the epoch as the platform aligns them, each rule capped at `margin` of its published limit.
 *
 * With Redis the counters are shared by every replica (rate-limiter-flexible's RateLimiterRedis, one
 * key per rule and window). Rules are taken one after the other and a rule that refuses gives back
 * the points already taken from the earlier ones, so a refusal never eats budget (unlike
 * RateLimiterUnion, which consumes from every limiter even when one rejects).
 *
 * Without Redis, or while it is unreachable, a replica counts locally against its configured share
 * of each rule. What a replica sends is always counted locally too, so a fallback in mid-window
 * starts from the right number; what it sent during an outage is added to the shared counters when
 * Redis is back; and if Redis lost its data (FLUSHDB, a restart without persistence: noticed
 * because a marker key changed or vanished, on every take and by a poll) every replica adds its own
 * counts of the current windows back, which rebuilds the shared totals (possibly a little high: the
 * safe side). No replica takes points for a short grace after the loss, so all of them, idle ones
 * included, have restored their counts before anyone counts on the totals again.
 */
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RedisLink } from './redis.js';
import type { TrafficLogger } from './traffic-log.js';
import type { RateRule } from '../traffic-config.js';

export interface BudgetOptions {
  upstream: string;
  rules: readonly RateRule[];
  /** Fraction of each published limit the gateway allows itself. */
  margin: number;
  /** Fraction of each (margined) limit one replica allows itself while Redis is unreachable. */
  localShare: number;
  redis?: RedisLink;
  log?: TrafficLogger;
}

/** `validUntil`: the point counts in windows that end then; a request not on the wire by then asks again. */
export type BudgetAnswer = { ok: true; shared: boolean; validUntil: number } | { ok: false; waitMs: number; rule: string; perEndpoint: boolean };

/**
 * Points are not handed out in a window's last milliseconds: the request would land in the next
 * one. Admission runs concurrently, so on a loaded event loop tens of ms can pass between a point
 * and the socket write; 30 ms is nothing against the platform's minute and hour windows.
 */
const GUARD_MS = 30;
/** How often each replica checks the marker, and how long everyone holds back after a loss. */
const SYNC_POLL_MS = 200;
const LOSS_GRACE_MS = 2 * SYNC_POLL_MS + 100;

interface Rule extends RateRule {
  /** What the gateway allows itself per window. */
  allowed: number;
  shared?: RateLimiterRedis;
}

export class AccountBudget {
  private readonly rules: Rule[];
  /** Requests this replica sent, per rule key and window: `rule|endpoint|window` → count. */
  private readonly sent = new Map<string, number>();
  /** Sent while Redis was away: added to the shared counters once it is back. */
  private readonly unsynced = new Map<string, number>();
  private sharedMode: boolean | undefined;
  /** After a failed or timed-out command, count locally for a moment instead of waiting on Redis again. */
  private redisSuspectUntil = 0;
  /** The marker of the Redis data set this replica's shared counts live in. */
  private epoch?: string;
  /** After a loss of the shared counters: no shared points before then. */
  private holdUntil = 0;
  private syncing?: Promise<void>;
  private readonly poll?: NodeJS.Timeout;

  constructor(private readonly options: BudgetOptions) {
    this.rules = options.rules.map((rule) => {
      const allowed = Math.max(1, Math.floor(rule.limit * options.margin));
      const shared = options.redis
        ? new RateLimiterRedis({
            storeClient: options.redis.client,
            keyPrefix: options.redis.key('budget', options.upstream, rule.name),
            points: allowed,
            // Whole seconds, at least one window: each key names its window, so expiry only cleans up.
            duration: Math.ceil(rule.windowMs / 1000) + 1,
            rejectIfRedisNotReady: true,
          })
        : undefined;
      return { ...rule, allowed, shared };
    });
    const redis = options.redis;
    if (redis && this.rules.length > 0) {
      this.poll = setInterval(() => {
        if (redis.ready) this.sync(Date.now()).catch(() => undefined);
      }, SYNC_POLL_MS);
      this.poll.unref();
    }
  }

  close(): void {
    if (this.poll) clearInterval(this.poll);
  }

  get hasRules(): boolean {
    return this.rules.length > 0;
  }

  /** Takes one point from every rule for a request to `endpoint`, or says how long to wait. */
  async take(endpoint: string, now = Date.now()): Promise<BudgetAnswer> {
    if (this.rules.length === 0) return { ok: true, shared: false, validUntil: Infinity };
    const closing = this.rules.find((r) => windowEnd(r, now) - now < GUARD_MS);
    if (closing) return { ok: false, waitMs: windowEnd(closing, now) - now, rule: closing.name, perEndpoint: false };
    if (this.options.redis?.ready && Date.now() >= this.redisSuspectUntil) {
      try {
        const answer = await this.takeShared(endpoint, now);
        this.noteMode(true);
        return answer;
      } catch {
        // Redis went away or hangs (command timeout): count locally instead, for a second at least.
        this.redisSuspectUntil = Date.now() + 1_000;
      }
    }
    this.noteMode(false);
    return this.takeLocal(endpoint, now);
  }

  private async takeShared(endpoint: string, now: number): Promise<BudgetAnswer> {
    await this.sync(now);
    if (this.holdUntil > now) return { ok: false, waitMs: this.holdUntil - now, rule: 'resync', perEndpoint: false };
    const taken: { rule: Rule; key: string }[] = [];
    try {
      for (const rule of this.rules) {
        const key = windowKey(rule, endpoint, now);
        try {
          await rule.shared!.consume(key, 1);
        } catch (e) {
          if (!(e instanceof RateLimiterRes)) throw e;
          await Promise.all(taken.map((t) => t.rule.shared!.reward(t.key, 1)));
          taken.length = 0;
          return { ok: false, waitMs: windowEnd(rule, now) - now, rule: rule.name, perEndpoint: rule.perEndpoint };
        }
        taken.push({ rule, key });
      }
    } catch (e) {
      // Best effort: give back what was taken before Redis failed, then let the caller fall back.
      await Promise.allSettled(taken.map((t) => t.rule.shared!.reward(t.key, 1)));
      throw e;
    }
    for (const { rule, key } of taken) this.count(rule, key);
    return { ok: true, shared: true, validUntil: this.validUntil(now) };
  }

  /** One sync at a time (takes and the poll). */
  private sync(now: number): Promise<void> {
    this.syncing ??= this.syncShared(now).finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  /**
   * Before counting in Redis: if its data set changed (the marker is gone or different), add this
   * replica's counts of the current windows back and hold back for the grace; otherwise add what was
   * sent while Redis was away.
   */
  private async syncShared(now: number): Promise<void> {
    const redis = this.options.redis!;
    const markerKey = redis.key('budget', this.options.upstream, 'epoch');
    // SET … NX GET (Redis ≥ 7): the marker there, or ours if there was none, in one round trip.
    // It expires after a day so unused prefixes do not linger; its expiry looks like lost data,
    // which only over-counts the current windows once.
    const fresh = `${Math.random().toString(36).slice(2)}.${now}`;
    const epoch = (await redis.client.set(markerKey, fresh, 'EX', 86_400, 'NX', 'GET')) ?? fresh;
    const lost = this.epoch !== undefined && epoch !== this.epoch;
    this.epoch = epoch;
    if (lost) this.holdUntil = Math.max(this.holdUntil, (Number(epoch.split('.')[1]) || now) + LOSS_GRACE_MS);
    const toAdd = lost ? this.sent : this.unsynced;
    if (toAdd.size === 0) return;
    const adds: Promise<unknown>[] = [];
    for (const [k, count] of toAdd) {
      const [name, scope, window] = k.split('|');
      const rule = this.rules.find((r) => r.name === name);
      if (!rule || (Number(window) + 1) * rule.windowMs <= now) continue;
      adds.push(rule.shared!.penalty(`${scope}|${window}`, count));
    }
    await Promise.all(adds);
    this.unsynced.clear();
    if (lost) this.options.log?.({ level: 'warn', msg: 'shared budget counters were lost; restored this replica\'s counts', upstream: this.options.upstream });
  }

  private takeLocal(endpoint: string, now: number): BudgetAnswer {
    const share = this.options.redis ? this.options.localShare : 1;
    for (const rule of this.rules) {
      const key = windowKey(rule, endpoint, now);
      const limit = Math.max(1, Math.floor(rule.allowed * share));
      if ((this.sent.get(`${rule.name}|${key}`) ?? 0) >= limit) return { ok: false, waitMs: windowEnd(rule, now) - now, rule: rule.name, perEndpoint: rule.perEndpoint };
    }
    for (const rule of this.rules) this.count(rule, windowKey(rule, endpoint, now), !!this.options.redis);
    return { ok: true, shared: false, validUntil: this.validUntil(now) };
  }

  private validUntil(now: number): number {
    return Math.min(...this.rules.map((r) => windowEnd(r, now))) - GUARD_MS / 2;
  }

  private count(rule: Rule, key: string, unsynced = false): void {
    const k = `${rule.name}|${key}`;
    this.sent.set(k, (this.sent.get(k) ?? 0) + 1);
    if (unsynced) this.unsynced.set(k, (this.unsynced.get(k) ?? 0) + 1);
    if (this.sent.size > 4096) this.prune();
  }

  /** Forget windows that are over. */
  private prune(now = Date.now()): void {
    for (const k of this.sent.keys()) {
      const [name, , window] = k.split('|');
      const rule = this.rules.find((r) => r.name === name);
      if (!rule || (Number(window) + 1) * rule.windowMs <= now) {
        this.sent.delete(k);
        this.unsynced.delete(k);
      }
    }
  }

  private noteMode(shared: boolean): void {
    if (this.sharedMode === shared || !this.options.redis) {
      this.sharedMode = shared;
      return;
    }
    this.sharedMode = shared;
    this.options.log?.({
      level: shared ? 'info' : 'warn',
      msg: shared ? 'account budget: shared through redis' : 'account budget: redis unreachable, using the local share',
      upstream: this.options.upstream,
    });
  }
}

function windowKey(rule: RateRule, endpoint: string, now: number): string {
  return `${rule.perEndpoint ? endpoint : '*'}|${Math.floor(now / rule.windowMs)}`;
}

function windowEnd(rule: RateRule, now: number): number {
  return (Math.floor(now / rule.windowMs) + 1) * rule.windowMs;
}
