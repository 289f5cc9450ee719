/**
 * Waiting work of many callers, served in turn. Lanes by priority (lower first); inside a lane,
 * start-time fair queuing over callers: each caller's first waiting item has a virtual finish tag
 * (the finish of the caller's item served last, or the lane's virtual time if later, plus
 * 1 / weight) and the caller whose first item has the smallest tag goes next. A caller with weight
 * 2 is served twice as often as one with weight 1 while both wait; a caller that was idle starts at
 * the lane's current time, so it gains no credit for its silence and loses nothing to a caller with
 * a long backlog. Only service moves a caller's tag on: an item that leaves unserved (expired,
 * cancelled, set aside) costs its caller no turn, so two backlogged callers share by weight whatever
 * their arrival rates and however much of their backlog expires. One caller alone is plain FIFO.
 */

interface Flow<T> {
  items: T[];
  /** The finish tag of this caller's first waiting item. */
  finish: number;
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
      flow = { items: [], finish: lane.time + 1 / this.weight(key) };
      lane.flows.set(key, flow);
    }
    flow.items.push(item);
    this.count++;
    // Its tag once the items before it are served: one 1 / weight each.
    const finish = flow.finish + (flow.items.length - 1) / this.weight(key);
    return this.ahead(priority, key, finish) + flow.items.length - 1;
  }

  /** The item that goes next, left in place (see `take`). */
  peek(): T | undefined {
    return this.head()?.flow.items[0];
  }

  /** Removes and returns the item that goes next. */
  shift(): T | undefined {
    const head = this.head();
    if (!head) return undefined;
    const item = head.flow.items[0]!;
    this.served(head.lane, head.key, head.flow);
    return item;
  }

  /**
   * Removes `item` (waiting for caller `key` at `priority`); false when it is not in line. `served`:
   * it leaves because it got its turn (the caller's tag moves on, as in `shift`), not unserved.
   */
  delete(priority: number, key: string, item: T, served = false): boolean {
    const lane = this.lanes[priority]!;
    const flow = lane.flows.get(key);
    const at = flow ? flow.items.indexOf(item) : -1;
    if (at < 0) return false;
    if (served && at === 0) {
      this.served(lane, key, flow!);
      return true;
    }
    flow!.items.splice(at, 1);
    if (flow!.items.length === 0) lane.flows.delete(key);
    this.count--;
    return true;
  }

  /** Removes every waiting item `drop` is true of (unserved), and returns them. */
  remove(drop: (item: T) => boolean): T[] {
    const removed: T[] = [];
    for (const lane of this.lanes)
      for (const [key, flow] of lane.flows) {
        const kept: T[] = [];
        for (const item of flow.items) (drop(item) ? removed : kept).push(item);
        if (kept.length === flow.items.length) continue;
        if (kept.length === 0) lane.flows.delete(key);
        else flow.items = kept;
      }
    this.count -= removed.length;
    return removed;
  }

  /** Waiting items of caller `key`, all lanes. */
  waitingOf(key: string): number {
    let n = 0;
    for (const lane of this.lanes) n += lane.flows.get(key)?.items.length ?? 0;
    return n;
  }

  /** The first item of `key`'s flow got its turn: the lane's time and the caller's tag move on. */
  private served(lane: Lane<T>, key: string, flow: Flow<T>): void {
    const step = 1 / this.weight(key);
    flow.items.shift();
    lane.time = Math.max(lane.time, flow.finish - step);
    flow.finish += step;
    if (flow.items.length === 0) lane.flows.delete(key);
    this.count--;
  }

  private weight(key: string): number {
    const w = this.weightOf(key);
    return w > 0 && Number.isFinite(w) ? w : 1;
  }

  private head(): { lane: Lane<T>; key: string; flow: Flow<T> } | undefined {
    for (const lane of this.lanes) {
      if (lane.flows.size === 0) continue;
      let best: { key: string; flow: Flow<T> } | undefined;
      for (const [key, flow] of lane.flows) if (!best || flow.finish < best.flow.finish) best = { key, flow };
      return { lane, ...best! };
    }
    return undefined;
  }

  /** Items of the other callers that would be served before a tag of `finish` at `priority`. */
  private ahead(priority: number, key: string, finish: number): number {
    let n = 0;
    for (let p = 0; p < priority; p++) for (const flow of this.lanes[p]!.flows.values()) n += flow.items.length;
    for (const [other, flow] of this.lanes[priority]!.flows) {
      if (other === key || flow.finish > finish) continue;
      // Its items' tags: its first's, then one 1 / weight each (a tie may go either way).
      n += Math.min(flow.items.length, Math.floor((finish - flow.finish) * this.weight(other) + 1e-9) + 1);
    }
    return n;
  }
}
