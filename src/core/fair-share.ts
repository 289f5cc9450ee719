/**
 * Each caller's share of an upstream account: its weight in the fair queues (fair-queue.ts), an
 * optional cap on its share of the account budget, and what it spent lately (for `extensions.cost`
 * and metrics). A caller is a fair-share key: the token's client id, else the principal's id.
 * Counts are this process's: with several replicas a cap holds per replica.
 */
import type { CallerPolicy, FairShareConfig } from '../config/traffic.js';
import { countedRule, SlidingCounter, type CountedRule } from './sliding-window.js';

export function policyOf(config: FairShareConfig, key: string): CallerPolicy {
  return config.callers.get(key) ?? config.callers.get('*') ?? {};
}

/** The pacing rules `smooth` adds: each account-wide rule over about 1/smooth of its span, with no guard. */
export function pacingRules(account: readonly CountedRule[], smooth: number): CountedRule[] {
  if (smooth <= 1) return [];
  return account.map((r) => {
    // The rule's even pace (allowed / span), never faster: a faster pace lets a backlog run ahead
    // until the rule itself is spent, and then every span repeats that run and the gap after it,
    // in which a newcomer waits. A loop that was late for its point catches up instead (see
    // `countedAt`).
    const allowed = Math.max(1, Math.round(r.allowed / smooth));
    const spanMs = Math.max(1, Math.ceil((r.spanMs * allowed) / r.allowed));
    const rule = { name: `${r.name}/${smooth}`, limit: allowed, windowMs: spanMs, perEndpoint: false };
    return { ...countedRule(rule, 1, 0), pacing: true };
  });
}

/** `key`'s counter, made on first use; past 4096 keys, those idle at `now` are forgotten first. */
function counterOf(
  counters: Map<string, SlidingCounter>,
  key: string,
  rule: Pick<CountedRule, 'bucketMs' | 'spanMs'>,
  now: number,
): SlidingCounter {
  let counter = counters.get(key);
  if (!counter) {
    if (counters.size >= 4096) for (const [k, c] of counters) if (c.sum(now) === 0) counters.delete(k);
    counters.set(key, (counter = new SlidingCounter(rule)));
  }
  return counter;
}

/** What one caller spent of the account: its share of the shortest rule's span. */
export interface CallerShare {
  /** Fraction of the shortest account-wide rule this caller spent in its last span (this replica). */
  share: number;
  /** Its cap (1: none). */
  cap: number;
}

/** Per-caller counts of admissions to one upstream, over its shortest account-wide rule. */
export class CallerShares {
  private readonly counters = new Map<string, SlidingCounter>();

  constructor(
    private readonly config: FairShareConfig,
    /** The shortest account-wide rule; undefined: no account rules, nothing to share. */
    private readonly rule: CountedRule | undefined,
  ) {}

  weightOf = (key: string): number => policyOf(this.config, key).weight ?? 1;

  record(key: string, now: number, n = 1): void {
    if (this.rule) counterOf(this.counters, key, this.rule, now).add(now, n);
  }

  of(key: string, now = Date.now()): CallerShare {
    const cap = policyOf(this.config, key).share ?? 1;
    if (!this.rule) return { share: 0, cap };
    return { share: (this.counters.get(key)?.sum(now) ?? 0) / this.rule.allowed, cap };
  }

  /** Milliseconds until `key` may take another point under its cap (0: now). */
  capWaitMs(key: string, now: number): number {
    const cap = policyOf(this.config, key).share;
    const counter = this.counters.get(key);
    if (cap === undefined || cap >= 1 || !this.rule || !counter) return 0;
    const limit = Math.max(1, Math.floor(this.rule.allowed * cap));
    return counter.msUntilAtMost(now, limit - 1);
  }

  /** Points spent per caller in the last span, largest first (for metrics). */
  spent(now = Date.now()): [string, number][] {
    return [...this.counters]
      .map(([key, c]) => [key, c.sum(now)] as [string, number])
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1]);
  }
}

const MINUTE = { bucketMs: 1_200, spanMs: 60_000 };

/** Each caller's operations in the last minute, against its `rpm` (this process's count). */
export class OperationRates {
  private readonly counters = new Map<string, SlidingCounter>();

  constructor(private readonly config: FairShareConfig) {}

  /** Counts one operation of `key`, or answers how many ms until it may start one (nothing counted). */
  take(key: string, now = Date.now()): number {
    const limit = policyOf(this.config, key).perMinute;
    if (limit === undefined) return 0;
    const counter = counterOf(this.counters, key, MINUTE, now);
    if (counter.sum(now) >= limit) return counter.msUntilAtMost(now, limit - 1);
    counter.add(now);
    return 0;
  }
}
