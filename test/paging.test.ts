import { describe, expect, it } from 'vitest';
import { planPages } from '../src/core/pages.js';
import {
  decodeCursor,
  encodeCursor,
  listKeyOf,
  resolveOffsetConnection,
  type OffsetListOptions,
} from '../src/graph/paging.js';

/** A list keyed `k` over pages of at most 50, `first`/`last` up to 500. */
const list = (
  fetchPage: OffsetListOptions<number>['fetchPage'],
  firstPageIndex: 0 | 1 = 0,
): Omit<OffsetListOptions<number>, 'args'> => ({
  listKey: 'k',
  maxPageSize: 500,
  upstreamMaxSize: 50,
  firstPageIndex,
  fetchPage,
});

describe('planPages: fewest upstream pages, then the smallest size', () => {
  it('covers a slice inside one page with one request', () => {
    expect(planPages(0, 10, 50)).toEqual([{ page: 0, size: 10, start: 0 }]);
    expect(planPages(17, 17, 50)).toEqual([{ page: 1, size: 17, start: 17 }]);
    expect(planPages(60, 17, 50)).toEqual([{ page: 3, size: 20, start: 60 }]);
  });

  it('uses ten pages for 500 rows and offsets them for one-based upstreams', () => {
    const plan = planPages(0, 500, 50, 1);
    expect(plan).toHaveLength(10);
    expect(plan[0]).toEqual({ page: 1, size: 50, start: 0 });
    expect(plan[9]).toEqual({ page: 10, size: 50, start: 450 });
  });

  it('always covers the whole slice', () => {
    for (let offset = 0; offset < 140; offset += 7) {
      for (const limit of [1, 13, 49, 50, 51, 99, 120]) {
        const plan = planPages(offset, limit, 50);
        const min = plan[0]!.start;
        const max = plan.at(-1)!.start + plan.at(-1)!.size;
        expect(min).toBeLessThanOrEqual(offset);
        expect(max).toBeGreaterThanOrEqual(offset + limit);
        expect(plan.length).toBeLessThanOrEqual(Math.ceil(limit / 50) + 1);
        expect(plan.every((p) => p.size <= 50)).toBe(true);
      }
    }
  });
});

describe('cursors', () => {
  const key = listKeyOf('entities', { kind: 'MODEL', first: 10 });

  it('round-trip and are tied to their list', () => {
    expect(decodeCursor(encodeCursor(key, 42), key, 'after')).toBe(42);
    const other = listKeyOf('entities', { kind: 'DATASET' });
    expect(() => decodeCursor(encodeCursor(key, 42), other, 'after')).toThrow(/not valid for this list/);
  });

  it('reject a tampered cursor as bad user input naming the argument', () => {
    const tampered = Buffer.from('v2:43:000000000000').toString('base64url');
    try {
      decodeCursor(tampered, key, 'after');
      expect.unreachable();
    } catch (e) {
      expect((e as { extensions: Record<string, unknown> }).extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        argument: 'after',
      });
    }
  });

  it('ignore paging arguments in the list key', () => {
    expect(listKeyOf('events', { first: 5, after: 'x', filter: { b: 1, a: 2 } })).toBe(
      listKeyOf('events', { filter: { a: 2, b: 1 } }),
    );
  });
});

describe('resolveOffsetConnection', () => {
  const rows = Array.from({ length: 123 }, (_, i) => i);
  const fetchPage = async (page: number, size: number) => ({
    items: rows.slice(page * size, page * size + size),
    total: rows.length,
  });

  it('returns exactly the slice asked for across pages, with working cursors', async () => {
    const calls: [number, number][] = [];
    const options = list(async (page, size) => {
      calls.push([page, size]);
      return fetchPage(page, size);
    });
    const first = await resolveOffsetConnection({ ...options, args: { first: 60 } });
    expect(first.nodes).toEqual(rows.slice(0, 60));
    expect(first.totalCount).toBe(123);
    expect(first.pageInfo.hasNextPage).toBe(true);
    expect(first.pageInfo.startCursor).toBe(first.edges[0]!.cursor);
    expect(first.pageInfo.endCursor).toBe(first.edges.at(-1)!.cursor);
    expect(first.edges.map((e) => e.node)).toEqual(first.nodes);
    expect(calls).toHaveLength(2);
    const next = await resolveOffsetConnection({ ...options, args: { first: 100, after: first.pageInfo.endCursor } });
    expect(next.nodes).toEqual(rows.slice(60));
    expect(next.pageInfo.hasNextPage).toBe(false);
  });

  it('refuses first beyond the maximum before fetching', async () => {
    let called = false;
    await expect(
      resolveOffsetConnection({
        ...list(async () => {
          called = true;
          return { items: [], total: 0 };
        }),
        args: { first: 501 },
      }),
    ).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argument: 'first' } });
    expect(called).toBe(false);
  });

  it('supports last without before by learning the total first', async () => {
    const c = await resolveOffsetConnection({ ...list(fetchPage), args: { last: 5 } });
    expect(c.nodes).toEqual(rows.slice(118));
    expect(c.pageInfo.hasPreviousPage).toBe(true);
  });
});

describe('resolveOffsetConnection over a short list', () => {
  it('fetches only the pages that can hold rows once the first page tells the total', async () => {
    const rows = Array.from({ length: 123 }, (_, i) => i);
    const calls: number[] = [];
    const c = await resolveOffsetConnection({
      ...list(async (page, size) => {
        calls.push(page);
        return { items: rows.slice((page - 1) * size, page * size), total: rows.length };
      }, 1),
      args: { first: 500 },
    });
    expect(c.nodes).toEqual(rows);
    expect(calls.sort()).toEqual([1, 2, 3]);
  });
});

describe('resolveOffsetConnection over an upstream that ignores its page size', () => {
  it('keeps each row once, in order, with cursors at their rows', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => i);
    // Every page answers twice the rows asked for, starting where the page starts.
    const c = await resolveOffsetConnection({
      ...list((page, size) => Promise.resolve({ items: rows.slice(page * size, page * size + 2 * size), total: 120 })),
      args: { first: 100 },
    });
    expect(c.nodes).toEqual(rows.slice(0, 100));
    expect(c.edges.map((e) => e.node)).toEqual(rows.slice(0, 100));
    expect(decodeCursor(c.edges[99]!.cursor, 'k', 'after')).toBe(99);
    expect(c.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(c.pageInfo.endCursor).toBe(c.edges[99]!.cursor);
  });
});
