/**
 * Counting a budget the way a platform may: over every span of a rule's length, not clock windows
 * (the bench's replicas workload, the chaos run and the traffic tests share it).
 */

/** Most timestamps in any interval of `windowMs`: every span, whatever phase a platform counts in. */
export function maxInAnySpan(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}
