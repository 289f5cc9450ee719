/**
 * The account budget of one process: each request takes one point from every rule, counted in
 * sliding spans (see sliding-window.ts), so that in any interval of a rule's window (plus the
 * guard band) at most margin × limit requests are admitted, whatever phase the platform's windows
 * have. Also the bookkeeping the Redis-backed budget keeps of its own sends (`LocalCounts`).
 */
import { countedAt, SlidingCounter, type CountedRule } from './sliding-window.js';
import type { BudgetAnswer, RuleStatus } from './budget-types.js';

/** Counters per rule and scope (`*` for account-wide rules, the endpoint for per-endpoint ones). */
export class LocalCounts {
  private readonly counters = new Map<string, { rule: CountedRule; scope: string; counter: SlidingCounter }>();

  constructor(readonly rules: readonly CountedRule[]) {}

  static scope(rule: CountedRule, endpoint: string): string {
    return rule.perEndpoint ? endpoint : '*';
  }

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
  record(endpoint: string, now: number, n = 1, dueAt?: number): void {
    for (const rule of this.rules)
      this.counter(rule, LocalCounts.scope(rule, endpoint)).add(countedAt(rule, now, dueAt), n);
  }

  /**
   * The first rule whose count for `endpoint` is at its limit, as a refusal with the wait until a
   * point frees; `limitOf` gives each rule's limit now and, optionally, when it will rise.
   */
  check(
    endpoint: string,
    now: number,
    limitOf: (rule: CountedRule, scope: string) => { limit: number; risesInMs?: number },
    dueAt?: number,
  ): BudgetAnswer | undefined {
    for (const rule of this.rules) {
      const scope = LocalCounts.scope(rule, endpoint);
      const { limit, risesInMs } = limitOf(rule, scope);
      const counter = this.counter(rule, scope);
      const at = countedAt(rule, now, dueAt);
      if (counter.sum(at) < limit) continue;
      const frees = limit > 0 ? counter.msUntilAtMost(at, limit - 1) - (now - at) : Infinity;
      const waitMs = Math.max(1, Math.min(frees, risesInMs ?? Infinity, rule.spanMs));
      return { ok: false, waitMs, rule: rule.name, perEndpoint: rule.perEndpoint };
    }
    return undefined;
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
  private readonly counts: LocalCounts;
  private readonly validMs: number;

  constructor(readonly rules: readonly CountedRule[]) {
    this.counts = new LocalCounts(rules);
    this.validMs = validityMs(rules);
  }

  /** `dueAt`: when the point this take waited for freed (see `countedAt`). */
  take(endpoint: string, now: number, dueAt?: number): BudgetAnswer {
    const refusal = this.counts.check(endpoint, now, (rule) => ({ limit: rule.allowed }), dueAt);
    if (refusal) return refusal;
    this.counts.record(endpoint, now, 1, dueAt);
    return {
      ok: true,
      shared: false,
      validUntil: now + this.validMs,
      refund: () => this.counts.record(endpoint, now, -1, dueAt),
    };
  }

  /** An account-wide rule as counted here. */
  statusOf(rule: CountedRule, now: number): RuleStatus {
    const counter = this.counts.counter(rule, '*');
    const remaining = Math.max(0, rule.allowed - counter.sum(now));
    return ruleStatus(rule, remaining, remaining > 0 ? 0 : counter.msUntilAtMost(now, rule.allowed - 1));
  }
}

/** What a status reports about one rule. */
export function ruleStatus(rule: CountedRule, remaining: number, nextSlotInMs: number): RuleStatus {
  const { name, limit, allowed, windowMs } = rule;
  return { rule: name, limit, allowed, windowMs, remaining, nextSlotInMs };
}
