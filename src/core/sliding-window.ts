/**
 * The counting behind the account budget: requests counted in small time buckets, and a sum over
 * every bucket that touches the last `spanMs`. The sum can only over-count (a bucket that reaches
 * into the span counts whole), never under-count, which is what makes the budget safe in every
 * sliding span and not only in clock windows (see docs/traffic.md). A rule uses 50
 * buckets per window, so over-counting costs at most 2% of its throughput and memory stays fixed.
 * The same bucket index (`floor(t / bucketMs)`) is used locally and in Redis, so counts can move
 * between the two.
 */
import type { RateRule } from '../config/traffic.js';

const BUCKETS_PER_WINDOW = 50;

/** A rule with what the gateway allows itself and how it counts it. */
export interface CountedRule extends RateRule {
  /** At most this many requests in any span of `spanMs` (margin × limit). */
  allowed: number;
  bucketMs: number;
  /** The rule's window plus the guard band. */
  spanMs: number;
  /** The gateway's own pacing of an account rule (fair-share.ts), not a rule of the platform. */
  pacing?: boolean;
}

/**
 * The default guard: 5% of the window, at least 250 ms (an event-loop stall of a loaded process
 * between admission and arrival; less let busy replicas overrun a short window, see
 * docs/decisions/budget-algorithm.md), at most 1 s (the platform's minute and hour rules).
 */
export function countedRule(rule: RateRule, margin: number, guardMs?: number): CountedRule {
  const guard = guardMs ?? Math.min(1_000, Math.max(250, Math.round(rule.windowMs * 0.05)));
  return {
    ...rule,
    allowed: Math.max(1, Math.floor(rule.limit * margin)),
    bucketMs: Math.max(1, Math.ceil(rule.windowMs / BUCKETS_PER_WINDOW)),
    spanMs: rule.windowMs + guard,
  };
}

/**
 * When a take at `now` counts for `rule`: at `now`, except that a pacing rule counts a take that
 * was due earlier (`dueAt`: when the point it waited for freed) at that time, up to a quarter of
 * its span back. A loop late for its point then loses no pace, so the pace can be the rule's even
 * one; a platform's rule is always counted when the request goes (its guard band is for stalls).
 */
export function countedAt(rule: Pick<CountedRule, 'pacing' | 'spanMs'>, now: number, dueAt = now): number {
  return rule.pacing ? Math.max(Math.min(now, dueAt), now - Math.floor(rule.spanMs / 4)) : now;
}

export class SlidingCounter {
  private readonly buckets = new Map<number, number>();

  constructor(private readonly rule: Pick<CountedRule, 'bucketMs' | 'spanMs'>) {}

  add(now: number, n = 1): void {
    this.addToBucket(Math.floor(now / this.rule.bucketMs), n);
  }

  addToBucket(bucket: number, n: number): void {
    const left = (this.buckets.get(bucket) ?? 0) + n;
    if (left > 0) this.buckets.set(bucket, left);
    else this.buckets.delete(bucket);
  }

  /** Requests counted in the span that ends at `now`. */
  sum(now: number): number {
    const first = Math.floor((now - this.rule.spanMs) / this.rule.bucketMs);
    let total = 0;
    for (const [bucket, n] of this.buckets) {
      if (bucket >= first) total += n;
      else this.buckets.delete(bucket);
    }
    return total;
  }

  /** Milliseconds from `now` until the sum is at most `target` (0 when it already is). */
  msUntilAtMost(now: number, target: number): number {
    let excess = this.sum(now) - target;
    if (excess <= 0) return 0;
    for (const bucket of [...this.buckets.keys()].sort((a, b) => a - b)) {
      excess -= this.buckets.get(bucket)!;
      // A bucket stops counting once the span's first live bucket is past it.
      if (excess <= 0) return Math.max(1, (bucket + 1) * this.rule.bucketMs + this.rule.spanMs - now);
    }
    return this.rule.spanMs;
  }

  /** Live buckets and their counts (to move them into Redis). */
  entries(now: number): [number, number][] {
    this.sum(now);
    return [...this.buckets];
  }

  get empty(): boolean {
    return this.buckets.size === 0;
  }
}
