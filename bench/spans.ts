/**
 * Counting a budget the way a platform may: over every span of a rule's length, not clock windows
 * (the bench's replicas workload, the chaos run and the traffic tests share it).
 */

/** The busiest interval of `windowMs`: how many timestamps it holds and the first of them. */
export function busiestSpan(times: number[], windowMs: number): { count: number; from: number } {
  const sorted = [...times].sort((a, b) => a - b);
  let best = { count: 0, from: NaN };
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++;
    if (i - j + 1 > best.count) best = { count: i - j + 1, from: sorted[j]! };
  }
  return best;
}

/** Most timestamps in any interval of `windowMs`: every span, whatever phase a platform counts in. */
export function maxInAnySpan(times: number[], windowMs: number): number {
  return busiestSpan(times, windowMs).count;
}
