/**
 * Relay connections over offset-paged upstreams. Cursors are opaque: a version, the offset and a
 * short hash of the list's own arguments, so a cursor that belongs to a different list (other
 * filters, another field) is refused as BAD_USER_INPUT instead of silently paging something else.
 * The hash is computed once per list, not per edge: a cursor then costs one base64 encoding.
 */
import { badInput } from './errors.js';
import { planPages } from '../core/pages.js';
import { canonicalJson } from '../core/canonical-json.js';
import type { PageKind } from '../core/upstream-pipeline.js';

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  nodes: T[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  /** Null when the gateway filters the list itself and has not read all of it. */
  totalCount: number | null;
}

/** Where the rows of a list the gateway filters itself sit in the upstream's list (`filtered-paging.ts`). */
export interface ScanPositions {
  /** The upstream position of each node. */
  positions: number[];
  hasNext: boolean;
  /** The position the next page starts after; null when nothing was read. */
  end: number | null;
}

export interface FetchedPage<T> {
  items: T[];
  total: number;
}

export interface OffsetListOptions<T> {
  args: ConnectionArgs;
  /** Identifies the list (its filters), so cursors only work on the list they came from. */
  listKey: string;
  /** Largest `first`/`last` accepted. */
  maxPageSize: number;
  defaultPageSize?: number;
  /** The upstream's page size cap. */
  upstreamMaxSize: number;
  /** 0 for zero-based upstream pages, 1 for one-based. */
  firstPageIndex: 0 | 1;
  fetchPage: (page: number, size: number, kind: PageKind) => Promise<FetchedPage<T>>;
  /** At most `size` rows (told apart by `has`) the gateway leaves out, as the upstream cannot (`fetchExcluding`). */
  exclude?: { size: number; has: (item: T) => boolean };
}

export function encodeCursor(listKey: string, offset: number, hash = listHash(listKey)): string {
  return Buffer.from(`v2:${offset}:${hash}`).toString('base64url');
}

export function decodeCursor(cursor: string, listKey: string, argName: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^v2:(\d{1,9}):([0-9a-f]{12})$/.exec(text);
  if (!m || listHash(listKey) !== m[2]) {
    throw badInput(`The cursor given in "${argName}" is not valid for this list.`, argName);
  }
  return Number(m[1]);
}

/**
 * 48 bits of two FNV-1a hashes: enough to tell lists apart, far cheaper than a digest per list (a
 * traversal has one list per node). Not a secret: a cursor only has to fail on the wrong list.
 */
function listHash(listKey: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < listKey.length; i++) {
    const c = listKey.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return ((a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0')).slice(0, 12);
}

/** Validates paging arguments; throws BAD_USER_INPUT before any upstream call. */
export function validateConnectionArgs(args: ConnectionArgs, maxPageSize: number, listKey: string): void {
  for (const name of ['first', 'last'] as const) {
    const v = args[name];
    if (v !== undefined && v !== null && (v < 0 || v > maxPageSize)) {
      throw badInput(`"${name}" must be between 0 and ${maxPageSize} (got ${v}).`, name);
    }
  }
  if (args.first != null && args.last != null) throw badInput('Give either "first" or "last", not both.', 'last');
  if (args.after) decodeCursor(args.after, listKey, 'after');
  if (args.before) decodeCursor(args.before, listKey, 'before');
}

export async function resolveOffsetConnection<T>(options: OffsetListOptions<T>): Promise<Connection<T>> {
  const { args, listKey, maxPageSize } = options;
  validateConnectionArgs(args, maxPageSize, listKey);
  const defaultSize = options.defaultPageSize ?? 20;
  const afterOffset = args.after ? decodeCursor(args.after, listKey, 'after') + 1 : 0;
  const beforeOffset = args.before ? decodeCursor(args.before, listKey, 'before') : undefined;

  let offset = afterOffset;
  let limit = args.first ?? defaultSize;
  if (beforeOffset !== undefined) limit = Math.min(limit, Math.max(0, beforeOffset - afterOffset));
  if (args.last != null) {
    let end = beforeOffset;
    if (end === undefined) {
      // Counting from the end needs the total first.
      const probe = await options.fetchPage(options.firstPageIndex, 1, 'page');
      end = probe.total;
    }
    offset = Math.max(afterOffset, end - args.last);
    limit = end - offset;
  }
  if (options.exclude?.size)
    return fetchExcluding(
      options,
      options.exclude,
      offset,
      limit,
      args.last != null ? afterOffset : undefined,
      beforeOffset,
    );
  const { rows, total } = await fetchRows(options, offset, limit);
  return new OffsetConnection(rows, total, options.listKey, offset);
}

/**
 * A slice of the list without the excluded rows, still `limit` long where the list has the rows:
 * the window read is `limit` plus the most rows the exclusion can remove (before the slice when it
 * counts from the end, after it otherwise), and ends before the `before` cursor's row. Cursors are
 * positions in the upstream's list, so the next page starts after the last row shown; `totalCount`
 * leaves out the excluded rows the window held (an excluded row outside it cannot be seen without
 * reading the whole list).
 */
async function fetchExcluding<T>(
  options: OffsetListOptions<T>,
  { size, has }: NonNullable<OffsetListOptions<T>['exclude']>,
  offset: number,
  limit: number,
  /** Counting from the end (`last`): the lowest position the window may start at. */
  floor: number | undefined,
  /** The `before` cursor's position: the window ends before it. */
  before = Number.POSITIVE_INFINITY,
): Promise<Connection<T>> {
  const start = floor === undefined ? offset : Math.max(floor, offset - size);
  const width = Math.max(0, Math.min(offset - start + limit + (floor === undefined ? size : 0), before - start));
  const { rows, total } = await fetchRows(options, start, width);
  const kept = rows.map((row, i) => ({ row, at: start + i })).filter(({ row }) => !has(row));
  const from = floor === undefined ? 0 : Math.max(0, kept.length - limit);
  const shown = kept.slice(from, from + limit);
  // A kept row before the first shown one (counting from the end) is a previous page too.
  return new OffsetConnection(
    shown.map((k) => k.row),
    total - (rows.length - kept.length),
    options.listKey,
    from > 0 ? (shown[0]?.at ?? start) : start,
    {
      positions: shown.map((k) => k.at),
      hasNext: from + shown.length < kept.length || start + rows.length < total,
      end: shown.at(-1)?.at ?? null,
    },
  );
}

/** The rows from `offset` on, at most `limit`, and the list's total. */
async function fetchRows<T>(
  options: OffsetListOptions<T>,
  offset: number,
  limit: number,
): Promise<{ rows: T[]; total: number }> {
  const planned = planPages(offset, limit, options.upstreamMaxSize, options.firstPageIndex);
  // The first page tells the list's total; the rest are fetched together, and only those that can
  // hold rows: `first: 500` over a 200-row list costs 4 upstream pages, not 10.
  const [first, ...more] = planned;
  if (!first) return { rows: [], total: 0 }; // planPages plans one page at least
  const head = await options.fetchPage(first.page, first.size, 'page');
  const total = head.total;
  const plan = [first, ...more.filter((p) => p.start < total)];
  const pages = [
    head,
    ...(await Promise.all(plan.slice(1).map((p) => options.fetchPage(p.page, p.size, 'more-pages')))),
  ];
  // The rows from `offset` on, in order, as far as the pages hold them (the last one may be short).
  const nodes: T[] = [];
  for (const [i, { start, size }] of plan.entries()) {
    const items = pages[i]?.items ?? [];
    // Never more than the page size: an upstream that sent more would repeat the next page's rows.
    nodes.push(...items.slice(Math.max(0, offset - start), Math.min(items.length, size, offset + limit - start)));
  }
  return { rows: nodes, total };
}

/**
 * A connection whose cursors are made only when a query selects them: most ask for `nodes`, which
 * the relay plugin resolves through `edges` too. A class, not an object literal with getters: V8
 * puts part of each such literal in the old generation (old space grows with every one, not with
 * class instances), and from there it kept every page of the request reachable for the
 * young-generation collector until the next full collection (test/young-garbage.test.ts).
 */
export class OffsetConnection<T> implements Connection<T> {
  // Private fields: a spread or JSON of a connection shows its data, not its bookkeeping.
  #edges?: Edge<T>[];
  #hash?: string;
  readonly #listKey: string;
  readonly scan?: ScanPositions;

  constructor(
    readonly nodes: T[],
    readonly totalCount: number | null,
    listKey: string,
    readonly offset: number,
    /** For a list the gateway filters: the nodes' upstream positions (their cursors) and what follows. */
    scan?: ScanPositions,
  ) {
    this.#listKey = listKey;
    this.scan = scan;
  }

  get edges(): Edge<T>[] {
    return (this.#edges ??= this.nodes.map((node, i) => new Edge(node, i, this)));
  }

  get pageInfo(): Connection<T>['pageInfo'] {
    return new PageInfo(this);
  }

  cursorAt(i: number): string {
    return this.cursorOf(this.scan?.positions[i] ?? this.offset + i);
  }

  cursorOf(position: number): string {
    return encodeCursor(this.#listKey, position, (this.#hash ??= listHash(this.#listKey)));
  }
}

/** Cursors, like an edge's, are encoded when read. */
class PageInfo {
  readonly #connection: OffsetConnection<unknown>;

  constructor(connection: OffsetConnection<unknown>) {
    this.#connection = connection;
  }

  get hasNextPage(): boolean {
    const { offset, nodes, totalCount, scan } = this.#connection;
    return scan ? scan.hasNext : offset + nodes.length < (totalCount ?? 0);
  }

  get hasPreviousPage(): boolean {
    return this.#connection.offset > 0;
  }

  get startCursor(): string | null {
    return this.#connection.nodes.length > 0 ? this.#connection.cursorAt(0) : null;
  }

  get endCursor(): string | null {
    const { nodes, scan } = this.#connection;
    if (scan) return scan.end === null ? null : this.#connection.cursorOf(scan.end);
    return nodes.length > 0 ? this.#connection.cursorAt(nodes.length - 1) : null;
  }
}

/** An edge whose cursor is encoded when read. */
class Edge<T> {
  readonly #index: number;
  readonly #connection: { cursorAt(i: number): string };

  constructor(
    readonly node: T,
    index: number,
    connection: { cursorAt(i: number): string },
  ) {
    this.#index = index;
    this.#connection = connection;
  }

  get cursor(): string {
    return this.#connection.cursorAt(this.#index);
  }
}

/** A stable list key from a field name and its non-paging arguments. */
export function listKeyOf(field: string, args: Record<string, unknown>): string {
  const { first: _f, after: _a, last: _l, before: _b, ...rest } = args;
  return `${field}:${canonicalJson(rest, (_key, value) => value ?? undefined)}`;
}
