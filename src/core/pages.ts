/**
 * Which upstream pages cover a slice of a list. Upstreams page by (page number, page size) with a
 * size cap (`UPSTREAM_PAGE_SIZE` on both APIs here); a GraphQL client asks for an arbitrary (offset, limit). The plan
 * uses the fewest upstream requests, and among plans with that count the smallest page size, so
 * no request fetches more rows than it has to.
 */

/** The largest page both upstreams return (a larger size is clamped to it). */
export const UPSTREAM_PAGE_SIZE = 50;
export interface PagePlan {
  /** Upstream page index, counted from `firstIndex`. */
  page: number;
  size: number;
  /** Offset of the page's first row in the whole list. */
  start: number;
}

export function planPages(offset: number, limit: number, maxSize: number, firstIndex = 0): PagePlan[] {
  if (!Number.isInteger(offset) || offset < 0) throw new RangeError('offset must be a non-negative integer');
  if (!Number.isInteger(maxSize) || maxSize < 1) throw new RangeError('maxSize must be a positive integer');
  const want = Math.max(1, limit); // a zero-length slice still needs one row's request for the total
  // The common case (the start of a list, one page): what the search below finds first.
  if (offset === 0 && want <= maxSize) return [{ page: firstIndex, size: want, start: 0 }];
  const end = offset + want; // exclusive
  for (let count = Math.ceil(want / maxSize); ; count++) {
    for (let size = Math.ceil(want / count); size <= maxSize; size++) {
      const first = Math.floor(offset / size);
      const last = Math.floor((end - 1) / size);
      if (last - first + 1 === count) {
        return Array.from({ length: count }, (_, i) => ({
          page: first + i + firstIndex,
          size,
          start: (first + i) * size,
        }));
      }
    }
  }
}
