/**
 * Lists from lists: what this process knows of the list pages it has cached, so an adapter can cut
 * a page out of a longer cached one of the same list, and pack several lists into one request. A
 * list is named by its key: the cache key of its request without the page and the page size (so
 * the credential identity, the route, the filters and the order). The index holds no data, only
 * the page spans stored and the list's last known total; the answers themselves are read through
 * `Upstream.freshHit`, so freshness, tags and credentials are the record cache's. Local tier only:
 * a span another replica cached is not known here.
 */
import { LRUCache } from 'lru-cache';

/** A page of a list: its index (counted from `firstIndex`) and its size. */
export interface PageSpan {
  page: number;
  size: number;
}

interface ListFacts {
  /** Page spans cached, newest first. */
  spans: PageSpan[];
  total?: number;
  /** A row of the list cannot be told apart in a combined answer (see the adapter's split). */
  unsplittable?: boolean;
}

/** Lists remembered per process, and spans per list: a bound on memory, not on correctness. */
const MAX_LISTS = 20_000;
const SPANS_PER_LIST = 6;

export class ListIndex {
  private readonly lists = new LRUCache<string, ListFacts>({ max: MAX_LISTS });

  /** Forgets every list (the cache was emptied: a cold process knows nothing of its lists). */
  clear(): void {
    this.lists.clear();
  }

  /** A page of the list was stored in the cache; `total` is the list's length it gave. */
  stored(list: string, span: PageSpan, total: number): void {
    const facts = this.facts(list);
    facts.spans = [span, ...facts.spans.filter((s) => s.page !== span.page || s.size !== span.size)].slice(
      0,
      SPANS_PER_LIST,
    );
    facts.total = total;
  }

  /** The list holds a row a combined answer cannot attribute: never pack it with others. */
  markUnsplittable(list: string): void {
    this.facts(list).unsplittable = true;
  }

  /** What is known of the list's length and whether it can share a combined request. */
  known(list: string): { total?: number; unsplittable: boolean } {
    const facts = this.lists.get(list);
    return { total: facts?.total, unsplittable: facts?.unsplittable === true };
  }

  /** Cached spans whose first row is at or before the asked page's first row, largest first. */
  candidates(list: string, asked: PageSpan, firstIndex = 1): PageSpan[] {
    const start = (asked.page - firstIndex) * asked.size;
    const spans = this.lists.get(list)?.spans ?? [];
    return spans.filter((s) => (s.page - firstIndex) * s.size <= start).sort((a, b) => b.size - a.size);
  }

  private facts(list: string): ListFacts {
    let facts = this.lists.get(list);
    if (!facts) this.lists.set(list, (facts = { spans: [] }));
    return facts;
  }
}

/**
 * The rows of the asked page cut from a cached page holding `rows` of a list of `total`, or
 * undefined when the cached page does not cover it: it must hold every row of the asked page, or
 * reach the list's end.
 */
export function slicePage<T>(
  rows: readonly T[],
  total: number,
  cached: PageSpan,
  asked: PageSpan,
  firstIndex = 1,
): T[] | undefined {
  const from = (cached.page - firstIndex) * cached.size;
  const start = (asked.page - firstIndex) * asked.size;
  const end = start + asked.size;
  const reach = from + rows.length;
  if (start < from || (end > reach && reach < total)) return undefined;
  return rows.slice(start - from, end - from);
}
