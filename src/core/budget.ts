/**
 * The account budget of one upstream: before a request goes on the wire it takes one point from
 * every rule of the account (minute, hour, per endpoint, or any `limit/duration` rule), and no rule
 * ever admits more than margin × limit requests in any span of its window plus a guard band,
 * whatever phase the platform counts its windows in (see sliding-window.ts and docs/traffic.md).
 * Without Redis the counts are this process's (budget-local.ts); with Redis they are shared by all
 * replicas (budget-redis.ts), and a replica that loses Redis spends only its share of what is left.
 */
import type { RateRule } from '../config/traffic.js';
import { capLimit, LocalBudget } from './budget-local.js';
import { SharedBudget } from './budget-redis.js';
import type { RedisLink } from './redis.js';
import { countedRule, type CountedRule } from './sliding-window.js';
import type { TrafficLogger } from './traffic-log.js';

export interface BudgetOptions {
  upstream: string;
  rules: readonly RateRule[];
  /** Fraction of each published limit the gateway allows itself. */
  margin: number;
  /** Guard band added to each rule's span (default: 5% of its window, from 250 ms to 1 s). */
  guardMs?: number;
  /** Share of each rule while Redis is away, for a replica that never saw the shared counts. */
  localShare: number;
  /** Rules of the gateway's own over the account-wide ones (fair-share pacing); counted, never reported. */
  pacing?: (account: readonly CountedRule[]) => CountedRule[];
  redis?: RedisLink;
  log?: TrafficLogger;
}

export type { BudgetAnswer, BudgetStatus, Cap, Claim, RuleStatus } from './budget-types.js';
import type { BudgetAnswer, BudgetStatus, Cap, Claim } from './budget-types.js';

export class AccountBudget {
  readonly rules: readonly CountedRule[];
  /** The account-wide rules (the others count per endpoint), and the one with the shortest span. */
  readonly account: readonly CountedRule[];
  readonly shortest?: CountedRule;
  private readonly local?: LocalBudget;
  private readonly shared?: SharedBudget;
  private sharedMode: boolean | undefined;
  /** After a failed or timed-out command, count offline for a moment instead of waiting on Redis again. */
  private redisSuspectUntil = 0;

  constructor(private readonly options: BudgetOptions) {
    this.rules = options.rules.map((rule) => countedRule(rule, options.margin, options.guardMs));
    this.account = this.rules.filter((r) => !r.perEndpoint);
    this.shortest = this.account.reduce<CountedRule | undefined>(
      (a, b) => (a && a.spanMs <= b.spanMs ? a : b),
      undefined,
    );
    if (this.rules.length === 0) return;
    const counted = [...this.rules, ...(options.pacing?.(this.account) ?? [])];
    if (options.redis)
      this.shared = new SharedBudget({
        upstream: options.upstream,
        rules: counted,
        redis: options.redis,
        localShare: options.localShare,
        log: options.log,
      });
    else this.local = new LocalBudget(counted);
  }

  close(): void {
    this.shared?.close();
  }

  /**
   * Takes one point from every rule for a request to `endpoint`, or says how long to wait. With
   * Redis, `claim`'s caller gets it only in its turn among the callers waiting on every replica.
   * `dueAt`: when the point a waiting request was told to wait for freed (the pacing catches up).
   */
  async take(endpoint: string, now = Date.now(), claim?: Claim, dueAt?: number): Promise<BudgetAnswer> {
    const { local, shared } = this;
    if (local) return local.take(endpoint, now, claim?.caps, dueAt);
    if (!shared) return { ok: true, shared: false, validUntil: Infinity }; // no rules
    if (this.options.redis?.ready && Date.now() >= this.redisSuspectUntil) {
      try {
        const answer = await shared.take(endpoint, now, claim, dueAt);
        this.noteMode(true);
        return answer;
      } catch {
        // Redis went away or hangs (command timeout): count offline instead, for a second at least.
        this.redisSuspectUntil = Date.now() + 1_000;
      }
    }
    this.noteMode(false);
    return shared.takeOffline(endpoint, now, claim?.caps);
  }

  /** `caller` has nothing waiting on this replica any more: it no longer holds a turn across replicas. */
  release(caller: string): void {
    this.shared?.release(caller);
  }

  /** Milliseconds until `caps` let their caller take a point (0: now, or not known), from the last known counts. */
  capWaitMs(caps: readonly Cap[], now = Date.now()): number {
    let wait = 0;
    for (const cap of caps)
      for (const rule of this.account) {
        const status = this.half?.statusOf(rule, now, cap.scope, capLimit(rule, cap.share));
        if (status && status.remaining === 0) wait = Math.max(wait, status.nextSlotInMs);
      }
    return wait;
  }

  /** The largest fraction of an account-wide rule `scope` (a cap's) spent in that rule's span, as last known. */
  spent(scope: string, now = Date.now()): number {
    let most = 0;
    for (const rule of this.account) {
      const status = this.half?.statusOf(rule, now, scope);
      if (status) most = Math.max(most, (rule.allowed - status.remaining) / rule.allowed);
    }
    return most;
  }

  /** Points of the shortest account-wide rule this replica sent in its span, by scope (callers' caps included). */
  sentHere(now = Date.now()): [string, number][] {
    return this.shortest && this.half ? this.half.sentHere(this.shortest, now) : [];
  }

  /** The account-wide rules from the last known counts (never a Redis round trip). */
  status(now = Date.now()): BudgetStatus {
    // No account rules without a local or shared half: nothing to map.
    const half = this.half;
    const rules = half ? this.account.map((rule) => half.statusOf(rule, now)) : [];
    return { shared: this.shared !== undefined && this.sharedMode !== false, rules };
  }

  private get half(): LocalBudget | SharedBudget | undefined {
    return this.shared ?? this.local;
  }

  private noteMode(shared: boolean): void {
    const was = this.sharedMode;
    // Points taken before the first connection is made are counted offline, without a warning.
    if (!shared && was === undefined && this.options.redis?.connecting) return;
    this.sharedMode = shared;
    if (was === shared || (was === undefined && shared)) return;
    this.options.log?.({
      level: shared ? 'info' : 'warn',
      msg: shared
        ? 'account budget: shared through redis'
        : "account budget: redis unreachable, spending this replica's local share of what is left",
      upstream: this.options.upstream,
    });
  }
}
