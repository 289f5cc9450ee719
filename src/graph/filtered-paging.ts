/**
 * A Relay connection over an offset-paged upstream list that the gateway filters itself, where the
 * upstream cannot: from the cursor's position on it reads upstream pages of the largest size, keeps
 * the rows that pass, and stops once it has seen a match beyond a full page (`hasNextPage`), the
 * list ends, or `maxPages` pages were read. Cursors hold positions in the upstream's list, so the
 * next page starts where this one stopped and no row is read twice: a scan cut short by `maxPages`
 * (even with an empty page) ends with `hasNextPage` true, as the rest of the list is unread, and an
 * `endCursor` at the last row read; that next page may then be empty. `totalCount` is known only
 * when the read started at the top and reached the end; else null. Forward only: `last` and
 * `before` would have to read the list from its end.
 */
import { badInput } from './errors.js';
import {
  decodeCursor,
  OffsetConnection,
  validateConnectionArgs,
  type Connection,
  type OffsetListOptions,
} from './paging.js';

export interface FilteredListOptions<T> extends Omit<OffsetListOptions<T>, 'exclude'> {
  /** Most upstream pages one page may read. */
  maxPages: (items: number) => number;
  /** The filter's argument, for the refusal of `last`/`before`. */
  argument: string;
  keep: (item: T) => boolean;
}

export async function resolveFilteredConnection<T>(o: FilteredListOptions<T>): Promise<Connection<T>> {
  validateConnectionArgs(o.args, o.maxPageSize, o.listKey);
  if (o.args.last != null || o.args.before != null)
    throw badInput(
      `A list filtered by "${o.argument}" pages forward only: use "first" and "after".`,
      o.args.last != null ? 'last' : 'before',
    );
  const start = o.args.after ? decodeCursor(o.args.after, o.listKey, 'after') + 1 : 0;
  const limit = o.args.first ?? o.defaultPageSize ?? 20;
  const size = o.upstreamMaxSize;
  const nodes: T[] = [];
  const positions: number[] = [];
  let row = start; // the next upstream row to read
  let total = Number.POSITIVE_INFINITY;
  let more = false; // a match beyond the page was seen
  // A full page reads on until a further match, so that `hasNextPage` is not a guess.
  for (let read = 0; read < o.maxPages(limit) && row < total && !more; read++) {
    const base = Math.floor(row / size) * size;
    const page = await o.fetchPage(base / size + o.firstPageIndex, size, read === 0 ? 'page' : 'more-pages');
    total = page.total;
    const rows = Math.min(page.items.length, size);
    for (let i = row - base; i < rows && !more; i++) {
      const item = page.items[i];
      if (item === undefined || !o.keep(item)) continue;
      if (nodes.length === limit) {
        more = true;
      } else {
        nodes.push(item);
        positions.push(base + i);
      }
    }
    // A short page ends the list, whatever the total said.
    row = rows < size ? Number.POSITIVE_INFINITY : base + rows;
  }
  const ended = !more && row >= total;
  const last = positions.at(-1) ?? null;
  const readTo = Math.min(row, total) - 1;
  return new OffsetConnection(nodes, start === 0 && ended ? nodes.length : null, o.listKey, start, {
    positions,
    hasNext: !ended,
    // After a full page, the next starts after its last node; after a cut-short one, after the last row read.
    end: more || ended ? last : readTo >= 0 ? readTo : null,
  });
}
