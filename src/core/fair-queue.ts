/**
 * Waiting work of many callers, served in turn. Lanes by priority (lower first); inside a lane,
 * start-time fair queuing over callers: each item gets a virtual finish tag (its caller's previous
 * tag, or the lane's virtual time if later, plus 1 / weight) and the caller whose head item has
 * the smallest tag goes next. A caller with weight 2 is served twice as often as one with weight 1
 * while both wait; a caller that was idle starts at the lane's current time, so it gains no credit
 * for its silence and loses nothing to a caller with a long backlog. One caller alone is plain FIFO.
 */

interface Entry<T> {
  item: T;
  finish: number;
}

interface Flow<T> {
  entries: Entry<T>[];
  /** The finish tag of this caller's newest item. */
  last: number;
}

interface Lane<T> {
  /** The start tag of the last item served: where a caller that was idle starts again. */
  time: number;
  flows: Map<string, Flow<T>>;
}

export class FairQueue<T> {
  private readonly lanes: Lane<T>[];
  private count = 0;

  /** `weightOf`: a caller's weight (> 0); 1 unless configured. */
  constructor(
    private readonly weightOf: (key: string) => number = () => 1,
    lanes = 10,
  ) {
    this.lanes = Array.from({ length: lanes }, () => ({ time: 0, flows: new Map() }));
  }

  get size(): number {
    return this.count;
  }

  /** Adds `item` for caller `key` at `priority`; answers how many waiting items go before it. */
  push(priority: number, key: string, item: T): number {
    const lane = this.lanes[priority]!;
    let flow = lane.flows.get(key);
    if (!flow) {
      flow = { entries: [], last: lane.time };
      lane.flows.set(key, flow);
    }
    const finish = Math.max(flow.last, lane.time) + 1 / this.weight(key);
    flow.last = finish;
    flow.entries.push({ item, finish });
    this.count++;
    return this.ahead(priority, key, finish) + flow.entries.length - 1;
  }

  /** The item that goes next, left in place (see `take`). */
  peek(): T | undefined {
    return this.head()?.entry.item;
  }

  /** Removes and returns the item that goes next. */
  shift(): T | undefined {
    const head = this.head();
    if (!head) return undefined;
    const { lane, key, flow } = head;
    const entry = flow.entries.shift()!;
    lane.time = entry.finish - 1 / this.weight(key);
    if (flow.entries.length === 0) lane.flows.delete(key);
    this.count--;
    return entry.item;
  }

  /** Removes `item` (waiting for caller `key` at `priority`); false when it is not in line. */
  delete(priority: number, key: string, item: T): boolean {
    const lane = this.lanes[priority]!;
    const flow = lane.flows.get(key);
    const at = flow ? flow.entries.findIndex((e) => e.item === item) : -1;
    if (at < 0) return false;
    const [entry] = flow!.entries.splice(at, 1);
    // Served at its turn (the head of its caller): the lane's time moves on as in `shift`.
    if (at === 0) lane.time = Math.max(lane.time, entry!.finish - 1 / this.weight(key));
    if (flow!.entries.length === 0) lane.flows.delete(key);
    this.count--;
    return true;
  }

  /** Removes every waiting item `drop` is true of, and returns them. */
  remove(drop: (item: T) => boolean): T[] {
    const removed: T[] = [];
    for (const lane of this.lanes)
      for (const [key, flow] of lane.flows) {
        const kept: Entry<T>[] = [];
        for (const e of flow.entries) {
          if (drop(e.item)) removed.push(e.item);
          else kept.push(e);
        }
        if (kept.length === flow.entries.length) continue;
        if (kept.length === 0) lane.flows.delete(key);
        else flow.entries = kept;
      }
    this.count -= removed.length;
    return removed;
  }

  /** Waiting items of caller `key`, all lanes. */
  waitingOf(key: string): number {
    let n = 0;
    for (const lane of this.lanes) n += lane.flows.get(key)?.entries.length ?? 0;
    return n;
  }

  private weight(key: string): number {
    const w = this.weightOf(key);
    return w > 0 && Number.isFinite(w) ? w : 1;
  }

  private head(): { lane: Lane<T>; key: string; flow: Flow<T>; entry: Entry<T> } | undefined {
    for (const lane of this.lanes) {
      if (lane.flows.size === 0) continue;
      let best: { key: string; flow: Flow<T>; entry: Entry<T> } | undefined;
      for (const [key, flow] of lane.flows) {
        const entry = flow.entries[0]!;
        if (!best || entry.finish < best.entry.finish) best = { key, flow, entry };
      }
      return { lane, ...best! };
    }
    return undefined;
  }

  /** Items of the other callers that would be served before a tag of `finish` at `priority`. */
  private ahead(priority: number, key: string, finish: number): number {
    let n = 0;
    for (let p = 0; p < priority; p++) for (const flow of this.lanes[p]!.flows.values()) n += flow.entries.length;
    for (const [other, flow] of this.lanes[priority]!.flows) if (other !== key) n += countBelow(flow.entries, finish);
    return n;
  }
}

/** Entries (sorted by finish) with a finish tag at most `finish` (a tie may go either way). */
function countBelow(entries: readonly { finish: number }[], finish: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid]!.finish <= finish) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
