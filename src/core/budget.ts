/**
 * The account budget: every request the gateway sends to an upstream account takes one point from
 * each of the account's fixed-window rules (minute, hour, optionally per endpoint), windows aligned
 * to the epoch as the platform aligns them, each rule capped at `margin` of its published limit.
 *
 * With Redis the counters are shared by every replica: one key per rule and window, taken by one
 * Lua script that checks every rule and counts in all of them or none, so a refusal never eats
 * budget and a take is one round trip. The script also checks a marker of the data set: if Redis
 * lost its data (FLUSHDB, a restart without persistence) the marker is gone, the take counts
 * nothing, and every replica (idle ones through a poll) adds its own counts of the current windows
 * back, which rebuilds the shared totals (possibly a little high: the safe side). No replica takes
 * points for a short grace after the loss, so all of them have restored their counts before anyone
 * counts on the totals again. A take is counted locally before it is sent, so a take in flight when
 * the data went is restored too.
 *
 * Without Redis, or while it is unreachable, a replica counts locally against its configured share
 * of each rule. What a replica sends is always counted locally too, so a fallback in mid-window
 * starts from the right number, and what it sent during an outage is added to the shared counters
 * when Redis is back.
 */
import type { Redis } from 'ioredis';
import type { RedisLink } from './redis.js';
import type { TrafficLogger } from './traffic-log.js';
import type { RateRule } from '../config/traffic.js';

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

/**
 * KEYS[1] the marker, KEYS[2..] one counter per rule; ARGV[1] the marker this replica counts in,
 * then per rule its allowance and the counter's time to live. Returns -1 when the marker differs
 * (the data set was lost or replaced), the 1-based index of the first rule that is spent, or 0
 * after counting one point in every rule.
 */
const TAKE_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
for i = 2, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') >= tonumber(ARGV[2 * i - 2]) then return i - 1 end
end
for i = 2, #KEYS do
  if redis.call('INCR', KEYS[i]) == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[2 * i - 1]) end
end
return 0`;

/** KEYS counters; ARGV per counter the points to add and its time to live. */
const ADD_SCRIPT = `
for i = 1, #KEYS do
  local n = tonumber(ARGV[2 * i - 1])
  if redis.call('INCRBY', KEYS[i], n) == n then redis.call('PEXPIRE', KEYS[i], ARGV[2 * i]) end
end
return 0`;

type BudgetRedis = Redis & {
  budgetTake(numKeys: number, ...args: (string | number)[]): Promise<number>;
  budgetAdd(numKeys: number, ...args: (string | number)[]): Promise<number>;
};

interface Rule extends RateRule {
  /** What the gateway allows itself per window. */
  allowed: number;
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
    this.rules = options.rules.map((rule) => ({ ...rule, allowed: Math.max(1, Math.floor(rule.limit * options.margin)) }));
    const redis = options.redis;
    if (redis && this.rules.length > 0) {
      // Both budgets of a process share one connection; the scripts are the same, so define once.
      const client = redis.client as unknown as Partial<BudgetRedis>;
      if (!client.budgetTake) redis.client.defineCommand('budgetTake', { lua: TAKE_SCRIPT });
      if (!client.budgetAdd) redis.client.defineCommand('budgetAdd', { lua: ADD_SCRIPT });
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

  private get client(): BudgetRedis {
    return this.options.redis!.client as BudgetRedis;
  }

  private counterKey(rule: Rule, scopeAndWindow: string): string {
    return this.options.redis!.key('budget', this.options.upstream, rule.name, scopeAndWindow);
  }

  private async takeShared(endpoint: string, now: number): Promise<BudgetAnswer> {
    if (this.epoch === undefined || this.unsynced.size > 0) await this.sync(now);
    if (this.holdUntil > now) return { ok: false, waitMs: this.holdUntil - now, rule: 'resync', perEndpoint: false };
    const keys = this.rules.map((rule) => windowKey(rule, endpoint, now));
    const args: (string | number)[] = [this.markerKey(), ...this.rules.map((rule, i) => this.counterKey(rule, keys[i]!)), this.epoch!];
    for (const rule of this.rules) args.push(rule.allowed, rule.windowMs + 1_000);
    // Counted before it is sent: if the data set is lost while this take is on its way, the
    // replica's restore includes it (at worst it is counted twice: the safe side). A timeout keeps
    // the count too, since the script may have run.
    this.rules.forEach((rule, i) => this.count(rule, keys[i]!));
    const result = await this.client.budgetTake(this.rules.length + 1, ...args);
    if (result === 0) return { ok: true, shared: true, validUntil: this.validUntil(now) };
    this.rules.forEach((rule, i) => this.uncount(rule, keys[i]!));
    if (result < 0) {
      await this.sync(now);
      return { ok: false, waitMs: Math.max(1, this.holdUntil - now), rule: 'resync', perEndpoint: false };
    }
    const rule = this.rules[result - 1]!;
    return { ok: false, waitMs: windowEnd(rule, now) - now, rule: rule.name, perEndpoint: rule.perEndpoint };
  }

  private markerKey(): string {
    return this.options.redis!.key('budget', this.options.upstream, 'epoch');
  }

  /** One sync at a time (takes and the poll). */
  private sync(now: number): Promise<void> {
    this.syncing ??= this.syncShared(now).finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  /**
   * If the data set changed (the marker is gone or different), add this replica's counts of the
   * current windows back and hold back for the grace; otherwise add what was sent while Redis was
   * away.
   */
  private async syncShared(now: number): Promise<void> {
    // SET … NX GET (Redis ≥ 7): the marker there, or ours if there was none, in one round trip.
    // It expires after a day so unused prefixes do not linger; its expiry looks like lost data,
    // which only over-counts the current windows once.
    const fresh = `${Math.random().toString(36).slice(2)}.${now}`;
    const found = await this.client.set(this.markerKey(), fresh, 'EX', 86_400, 'NX', 'GET');
    const epoch = found ?? fresh;
    if (epoch === this.epoch && this.unsynced.size === 0) return;
    const lost = this.epoch !== undefined && epoch !== this.epoch;
    // After a loss, and when joining a data set another replica started less than the grace ago
    // (it may have just noticed a loss), wait until every replica has restored its counts. The
    // first replica on an empty Redis starts at once.
    if (lost || (this.epoch === undefined && found !== null)) {
      this.holdUntil = Math.max(this.holdUntil, (Number(epoch.split('.')[1]) || now) + LOSS_GRACE_MS);
    }
    // A snapshot: counts taken locally while this runs stay pending for the next sync.
    const toAdd = [...(lost ? this.sent : this.unsynced)];
    const keys: string[] = [];
    const args: number[] = [];
    const at = Date.now();
    for (const [k, count] of toAdd) {
      const [name, scope, window] = k.split('|');
      const rule = this.rules.find((r) => r.name === name);
      if (!rule || count <= 0 || (Number(window) + 1) * rule.windowMs <= at) continue;
      keys.push(this.counterKey(rule, `${scope}|${window}`));
      args.push(count, rule.windowMs + 1_000);
    }
    if (keys.length > 0) await this.client.budgetAdd(keys.length, ...keys, ...args);
    // Only once the counts are in: if adding them failed, the next sync finds the marker changed
    // (or the outage's counts still pending) and adds them then.
    this.epoch = epoch;
    for (const [k, count] of toAdd) {
      const left = (this.unsynced.get(k) ?? 0) - count;
      if (left > 0) this.unsynced.set(k, left);
      else this.unsynced.delete(k);
    }
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

  private uncount(rule: Rule, key: string): void {
    const k = `${rule.name}|${key}`;
    const n = (this.sent.get(k) ?? 0) - 1;
    if (n > 0) this.sent.set(k, n);
    else this.sent.delete(k);
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
