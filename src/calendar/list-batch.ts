/**
 * Events of several venues (or several organizers) in one request: `GET /events?venue=1,2,3` lists
 * the union (OR), in the same start-date order, up to 50 rows. A combined answer is split per list
 * only when the split is exact: it holds the whole union (its total is no more than its rows) and
 * every row names one of the asked records (a password-protected event is listed with `venue` and
 * `organizer` blanked to `[]`, so it cannot be attributed). Each list then holds its rows in the
 * upstream's order: what its own request answers (why the order among equal start dates is no
 * obstacle: docs/decisions/batched-event-lists.md). Otherwise its lists go out one by one.
 */
import { BatchWindow } from '../core/batch-window.js';
import type { ListIndex } from '../core/list-reuse.js';
import { UPSTREAM_PAGE_SIZE } from '../core/pages.js';
import type { QueryValue } from '../core/upstream-pipeline.js';
import { venueList } from './normalize.js';
import type { WireEvent } from './wire.js';

/** The records whose events can share a request (the events filter's parameter names). */
export type BatchDimension = 'venue' | 'organizer';

/** One list waiting to share a request. */
export interface ListAsk {
  /** The venue or organizer whose events it lists. */
  id: number;
  /** Its key in the list index. */
  list: string;
  /** Its request's query (without the page). */
  query: Record<string, QueryValue>;
  /** Sends one request for these lists and stores each list split from it; false if it could not be split. */
  combine: (asks: ListAsk[]) => Promise<boolean>;
}

/** The dimension a list of events can be combined along: exactly one venue (else one organizer) fixed. */
export function batchDimension(query: Record<string, QueryValue>): BatchDimension | undefined {
  for (const dim of ['venue', 'organizer'] as const) {
    const v = query[dim];
    if (Array.isArray(v) && v.length === 1 && typeof v[0] === 'number') return dim;
  }
  return undefined;
}

/** The venues or organizers an event names. */
export function ownersOf(event: WireEvent, dim: BatchDimension): number[] {
  return dim === 'venue' ? venueList(event.venue).map((v) => v.id) : event.organizer.map((o) => o.id);
}

/** Each asked id's rows, in the answer's order, or undefined when the split would not be exact. */
export function splitEvents(
  page: { items: WireEvent[]; total: number },
  dim: BatchDimension,
  ids: readonly number[],
): Map<number, WireEvent[]> | undefined {
  if (page.total > page.items.length) return undefined;
  const lists = new Map(ids.map((id) => [id, [] as WireEvent[]]));
  for (const event of page.items) {
    const owners = ownersOf(event, dim).filter((id) => lists.has(id));
    if (owners.length === 0) return undefined;
    for (const id of owners) lists.get(id)!.push(event);
  }
  return lists;
}

/**
 * Groups a window's lists so that known totals fit one combined page. A list whose total is not
 * known yet goes alone (its answer teaches the index), as does one known to hold a row no split can
 * attribute or longer than a page: a guess would cost a wasted request whenever it is wrong (on
 * the seed, the union of a page's venues' events is above 50), so a cold operation sends exactly
 * one request per list, and only what earlier answers taught is packed.
 */
function pack(asks: readonly ListAsk[], index: ListIndex): ListAsk[][] {
  const groups: ListAsk[][] = [];
  let current: ListAsk[] = [];
  let rows = 0;
  for (const ask of asks) {
    const { total, unsplittable } = index.known(ask.list);
    if (total === undefined || unsplittable || total > UPSTREAM_PAGE_SIZE) {
      groups.push([ask]);
      continue;
    }
    if (rows + total > UPSTREAM_PAGE_SIZE) {
      groups.push(current);
      current = [];
      rows = 0;
    }
    current.push(ask);
    rows += total;
  }
  if (current.length) groups.push(current);
  return groups;
}

/**
 * What became of a list in its window: stored from a combined request (`split`), left to its own
 * request (`alone`), or the list whose operation sent a combined request that could not be split
 * after all (`resend`, a total that changed since it was learnt): its own request then repeats a
 * call that failed to answer it, and counts as a retry, so the operation's calls stay within its
 * estimate, retries aside, as after any failed call.
 */
export type BatchOutcome = 'split' | 'alone' | 'resend';

/** The process's batcher of event lists. */
export function eventListBatcher(index: ListIndex, windowMs: number): BatchWindow<ListAsk, BatchOutcome> {
  return new BatchWindow<ListAsk, BatchOutcome>(windowMs, async (asks) => {
    const outcomes = new Map<ListAsk, BatchOutcome>();
    await Promise.all(
      pack(asks, index).map(async (group) => {
        const tried = new Set(group.map((a) => a.id)).size > 1;
        const ok = tried && (await group[0]!.combine(group).catch(() => false));
        for (const ask of group) outcomes.set(ask, ok ? 'split' : tried && ask === group[0] ? 'resend' : 'alone');
      }),
    );
    return asks.map((a) => outcomes.get(a)!);
  });
}
