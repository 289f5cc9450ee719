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
  /** Pages cached, by page size (a handful of sizes, the newest pages of each). */
  sizes: Map<number, Set<number>>;
  total?: number;
  /** A row of the list cannot be told apart in a combined answer (see the adapter's split). */
  unsplittable?: boolean;
}

/**
 * Bounds on memory, not on correctness. Pages are kept per size, not as a few spans in all: a list
 * read page by page would otherwise forget the pages a smaller one could be cut from.
 */
const MAX_LISTS = 20_000;
const SIZES_PER_LIST = 6;
const PAGES_PER_SIZE = 1_024;

export class ListIndex {
  private readonly lists = new LRUCache<string, ListFacts>({ max: MAX_LISTS });

  /** Forgets every list (the cache was emptied: a cold process knows nothing of its lists). */
  clear(): void {
    this.lists.clear();
  }

  /** A page of the list was stored in the cache; `total` is the list's length it gave. */
  stored(list: string, span: PageSpan, total: number): void {
    const facts = this.facts(list);
    const { sizes } = facts;
    let pages = sizes.get(span.size);
    if (!pages) {
      if (sizes.size >= SIZES_PER_LIST) sizes.delete(sizes.keys().next().value!);
      sizes.set(span.size, (pages = new Set()));
    }
    pages.delete(span.page);
    pages.add(span.page);
    if (pages.size > PAGES_PER_SIZE) pages.delete(pages.values().next().value!);
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

  /** Per cached page size, the cached page holding the asked page's first row; largest first. */
  candidates(list: string, asked: PageSpan, firstIndex = 1): PageSpan[] {
    const start = (asked.page - firstIndex) * asked.size;
    const spans: PageSpan[] = [];
    for (const [size, pages] of this.lists.get(list)?.sizes ?? []) {
      const page = Math.floor(start / size) + firstIndex;
      if (pages.has(page)) spans.push({ page, size });
    }
    return spans.sort((a, b) => b.size - a.size);
  }

  private facts(list: string): ListFacts {
    let facts = this.lists.get(list);
    if (!facts) this.lists.set(list, (facts = { sizes: new Map() }));
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
