/**
 * The in-process scheduler in front of each upstream: a p-queue with a concurrency cap and
 * priorities, so a WordPress site is never flooded and single reads and writes overtake bulk page
 * fan-out. Account-wide budgets (shared between replicas) are layered on top by the traffic module.
 */
import { setMaxListeners } from 'node:events';
import PQueue from 'p-queue';
import { UpstreamError, type UpstreamName } from './errors.js';

/** Lower runs first (Bottleneck's 0..9 scale). */
export const Priority = {
  /** Mutations. */
  write: 2,
  /** Single-record reads (entity, event, link by id). */
  single: 4,
  /** Search and list pages a query asked for directly. */
  list: 5,
  /** Extra pages fetched to fill a `first` larger than one upstream page. */
  bulk: 7,
  /** Live-update polling: after everything a client is waiting for. */
  background: 9,
} as const;
export type PriorityName = keyof typeof Priority;

export interface LimiterOptions {
  upstream: UpstreamName;
  maxConcurrent: number;
}

/**
 * At most `maxConcurrent` tasks run at once; the others wait by priority (first come, first
 * served within one) and start synchronously as a slot frees. This is p-queue rather than
 * Bottleneck: Bottleneck spends a timer tick on every job it starts, so a burst of waiting reads
 * drained one tick at a time (measured with `npm run bench`, workload 1, whose 115 reads meet a cap
 * of 64: p50 418 ms with Bottleneck, 237 ms with p-queue).
 */
export class UpstreamLimiter {
  private readonly queue: PQueue;
  private readonly closing = new AbortController();

  constructor(private readonly options: LimiterOptions) {
    this.queue = new PQueue({ concurrency: options.maxConcurrent });
    // Every waiting task listens for the shutdown; hundreds may wait in a burst.
    setMaxListeners(0, this.closing.signal);
  }

  schedule<T>(priority: PriorityName, task: () => Promise<T>): Promise<T> {
    // p-queue runs higher numbers first; the scale above runs lower numbers first.
    return this.queue.add(task, { priority: -Priority[priority], signal: this.closing.signal });
  }

  /** Tasks running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.queue.pending, waiting: this.queue.size };
  }

  /** Every task still waiting or running is answered with an `unavailable` error at once. */
  async stop(): Promise<void> {
    const { upstream } = this.options;
    this.closing.abort(
      new UpstreamError(
        upstream,
        'unavailable',
        `The gateway is shutting down; the ${upstream} request was not completed.`,
      ),
    );
  }
}
