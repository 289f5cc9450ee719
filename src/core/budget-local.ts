/**
 * The account budget of one process: each request takes one point from every rule, counted in
 * sliding spans (see sliding-window.ts), so that in any interval of a rule's window (plus the
 * guard band) at most margin × limit requests are admitted, whatever phase the platform's windows
 * have; and one from its caller's caps on every account-wide rule (fair-share.ts), held the same
 * way. Also the bookkeeping the Redis-backed budget keeps of its own sends (`LocalCounts`).
 */
import { countedAt, SlidingCounter, type CountedRule } from './sliding-window.js';
import type { BudgetAnswer, Cap, RuleStatus } from './budget-types.js';

/** One counter a take counts in: a rule for one scope, and the most that scope may spend of it. */
export interface Slot {
  rule: CountedRule;
  /** `*` (account-wide rules), the endpoint (per-endpoint rules) or a cap's scope (`caller:…`, `group:…`). */
  scope: string;
  limit: number;
  /** A cap of the caller's, not a rule of the account: refusing it holds back that caller alone. */
  cap: boolean;
}

/** The most a cap lets its scope spend of a rule in any of its spans. */
export function capLimit(rule: CountedRule, share: number): number {
  return Math.max(1, Math.floor(rule.allowed * share));
}

/**
 * The slots of one take to `endpoint`: the caps first (on every account-wide rule of the platform,
 * not the pacing), so that a capped caller is told it is its cap, then every rule.
 */
export function slotsOf(rules: readonly CountedRule[], endpoint: string, caps: readonly Cap[] = []): Slot[] {
  const capped = rules.filter((r) => !r.perEndpoint && !r.pacing);
  return [
    ...caps.flatMap((c) => capped.map((rule) => ({ rule, scope: c.scope, limit: capLimit(rule, c.share), cap: true }))),
    ...rules.map((rule) => ({ rule, scope: rule.perEndpoint ? endpoint : '*', limit: rule.allowed, cap: false })),
  ];
}

/** Counters per rule and scope (`*` for account-wide rules, the endpoint for per-endpoint ones, a cap's scope). */
export class LocalCounts {
  private readonly counters = new Map<string, { rule: CountedRule; scope: string; counter: SlidingCounter }>();

  counter(rule: CountedRule, scope: string): SlidingCounter {
    const key = `${rule.name}|${scope}`;
    let c = this.counters.get(key);
    if (!c) {
      if (this.counters.size > 4096) this.prune();
      c = { rule, scope, counter: new SlidingCounter(rule) };
      this.counters.set(key, c);
    }
    return c.counter;
  }

  /** `dueAt`: when the take was due (see `countedAt`). */
  record(slots: readonly Slot[], now: number, n = 1, dueAt?: number): void {
    for (const { rule, scope } of slots) this.counter(rule, scope).add(countedAt(rule, now, dueAt), n);
  }

  /**
   * The first slot whose count is at its limit, as a refusal with the wait until a point frees;
   * `limitOf` gives each slot's limit now and, optionally, when it will rise.
   */
  check(
    slots: readonly Slot[],
    now: number,
    limitOf: (slot: Slot) => { limit: number; risesInMs?: number },
    dueAt?: number,
  ): BudgetAnswer | undefined {
    for (const slot of slots) {
      const { rule } = slot;
      const { limit, risesInMs } = limitOf(slot);
      const counter = this.counter(rule, slot.scope);
      const at = countedAt(rule, now, dueAt);
      if (counter.sum(at) < limit) continue;
      const frees = limit > 0 ? counter.msUntilAtMost(at, limit - 1) - (now - at) : Infinity;
      const waitMs = Math.max(1, Math.min(frees, risesInMs ?? Infinity, rule.spanMs));
      return { ok: false, waitMs, rule: rule.name, perEndpoint: rule.perEndpoint, share: slot.cap };
    }
    return undefined;
  }

  /** The counter of `rule` for `scope` if there is one (none is made: a look is not a count). */
  peek(rule: CountedRule, scope: string): SlidingCounter | undefined {
    return this.counters.get(`${rule.name}|${scope}`)?.counter;
  }

  /** Each scope's count of `rule` in the span that ends at `now`. */
  sums(rule: CountedRule, now: number): [string, number][] {
    const out: [string, number][] = [];
    for (const c of this.counters.values()) if (c.rule === rule) out.push([c.scope, c.counter.sum(now)]);
    return out.filter(([, n]) => n > 0);
  }

  /** Every live bucket, per rule and scope. */
  *entries(now: number): Generator<{ rule: CountedRule; scope: string; bucket: number; count: number }> {
    for (const { rule, scope, counter } of this.counters.values()) {
      for (const [bucket, count] of counter.entries(now)) yield { rule, scope, bucket, count };
    }
  }

  /** Removes what `entries` returned (a snapshot that has been written elsewhere). */
  subtract(items: Iterable<{ rule: CountedRule; scope: string; bucket: number; count: number }>): void {
    for (const { rule, scope, bucket, count } of items) this.counter(rule, scope).addToBucket(bucket, -count);
  }

  get empty(): boolean {
    for (const { counter } of this.counters.values()) if (!counter.empty) return false;
    return true;
  }

  clear(): void {
    this.counters.clear();
  }

  private prune(): void {
    const now = Date.now();
    for (const [key, { counter }] of this.counters) if (counter.sum(now) === 0) this.counters.delete(key);
  }
}

/** How long an admission stays good: half the guard band, the other half covers the trip upstream. */
export function validityMs(rules: readonly CountedRule[]): number {
  return Math.max(10, Math.min(...rules.filter((r) => !r.pacing).map((r) => (r.spanMs - r.windowMs) / 2)));
}

export class LocalBudget {
  private readonly counts = new LocalCounts();
  private readonly validMs: number;

  constructor(readonly rules: readonly CountedRule[]) {
    this.validMs = validityMs(rules);
  }

  /** `dueAt`: when the point this take waited for freed (see `countedAt`). */
  take(endpoint: string, now: number, caps?: readonly Cap[], dueAt?: number): BudgetAnswer {
    const slots = slotsOf(this.rules, endpoint, caps);
    const refusal = this.counts.check(slots, now, (slot) => ({ limit: slot.limit }), dueAt);
    if (refusal) return refusal;
    this.counts.record(slots, now, 1, dueAt);
    return {
      ok: true,
      shared: false,
      validUntil: now + this.validMs,
      refund: () => this.counts.record(slots, now, -1, dueAt),
    };
  }

  sentHere(rule: CountedRule, now: number): [string, number][] {
    return this.counts.sums(rule, now);
  }

  /** An account-wide rule as counted here (for `scope`, a cap's, with `limit`: what is left of it). */
  statusOf(rule: CountedRule, now: number, scope = '*', limit = rule.allowed): RuleStatus {
    const counter = this.counts.peek(rule, scope);
    const remaining = Math.max(0, limit - (counter?.sum(now) ?? 0));
    return ruleStatus(rule, remaining, remaining > 0 || !counter ? 0 : counter.msUntilAtMost(now, limit - 1));
  }
}

/** What a status reports about one rule. */
export function ruleStatus(rule: CountedRule, remaining: number, nextSlotInMs: number): RuleStatus {
  const { name, limit, allowed, windowMs } = rule;
  return { rule: name, limit, allowed, windowMs, remaining, nextSlotInMs };
}
