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
    const lane = this.lane(priority);
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
    return this.head()?.item;
  }

  /** Removes and returns the item that goes next. */
  shift(): T | undefined {
    const head = this.head();
    if (head) this.served(head.lane, head.key, head.flow);
    return head?.item;
  }

  /**
   * Removes `item` (waiting for caller `key` at `priority`); false when it is not in line. `served`:
   * it leaves because it got its turn (the caller's tag moves on, as in `shift`), not unserved.
   */
  delete(priority: number, key: string, item: T, served = false): boolean {
    const lane = this.lane(priority);
    const flow = lane.flows.get(key);
    const at = flow ? flow.items.indexOf(item) : -1;
    if (!flow || at < 0) return false;
    if (served && at === 0) {
      this.served(lane, key, flow);
      return true;
    }
    flow.items.splice(at, 1);
    if (flow.items.length === 0) lane.flows.delete(key);
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

  private lane(priority: number): Lane<T> {
    const lane = this.lanes[priority];
    if (!lane) throw new RangeError(`priority ${priority} is not one of the ${this.lanes.length} lanes`);
    return lane;
  }

  /** The first lane's caller with the earliest tag, and its first item (a flow is never empty). */
  private head(): { lane: Lane<T>; key: string; flow: Flow<T>; item: T } | undefined {
    for (const lane of this.lanes) {
      let best: { lane: Lane<T>; key: string; flow: Flow<T>; item: T } | undefined;
      for (const [key, flow] of lane.flows) {
        const item = flow.items[0];
        if (item !== undefined && (!best || flow.finish < best.flow.finish)) best = { lane, key, flow, item };
      }
      if (best) return best;
    }
    return undefined;
  }

  /** Items of the other callers that would be served before a tag of `finish` at `priority`. */
  private ahead(priority: number, key: string, finish: number): number {
    let n = 0;
    for (const lane of this.lanes.slice(0, priority)) for (const flow of lane.flows.values()) n += flow.items.length;
    for (const [other, flow] of this.lane(priority).flows) {
      if (other === key || flow.finish > finish) continue;
      // Its items' tags: its first's, then one 1 / weight each (a tie may go either way).
      n += Math.min(flow.items.length, Math.floor((finish - flow.finish) * this.weight(other) + 1e-9) + 1);
    }
    return n;
  }
}
