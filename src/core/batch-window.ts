/**
 * Collects requests of the same group that arrive within a short window, across the operations of
 * a process, and hands them to `run` together. A DataLoader batches within one operation's tick;
 * this window also joins concurrent operations (of the same credential: the group says so).
 */
export class BatchWindow<T, R> {
  private readonly open = new Map<string, { items: T[]; done: Promise<R[]> }>();
  /** When each group last sent, for the shadow count (`wouldJoin`). */
  private readonly lastSent = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly run: (items: T[]) => Promise<R[]>,
  ) {}

  /** Joins the group's open batch, or opens one that runs after the window; answers this item's result. */
  async add(group: string, item: T): Promise<R> {
    let batch = this.open.get(group);
    if (!batch) {
      const items: T[] = [];
      const done = new Promise<void>((resolve) => setTimeout(resolve, this.windowMs)).then(() => {
        this.open.delete(group);
        return this.run(items);
      });
      this.open.set(group, (batch = { items, done }));
    }
    const index = batch.items.push(item) - 1;
    return (await batch.done)[index]!;
  }

  /**
   * Without waiting: whether a request of this group went out within the window before this one
   * (so it would have joined a batch), and notes this one's time.
   */
  wouldJoin(group: string, now = Date.now()): boolean {
    const last = this.lastSent.get(group);
    this.lastSent.set(group, now);
    if (this.lastSent.size > 10_000) this.lastSent.clear(); // only the last window matters
    return last !== undefined && now - last < this.windowMs;
  }
}
