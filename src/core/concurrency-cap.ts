/**
 * The in-process scheduler in front of each upstream: a concurrency cap with priorities, so a WordPress site is never flooded and single reads and writes overtake bulk page
 * fan-out. Account-wide budgets (shared between replicas) are layered on top by the traffic module.
 */
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
 * At most `maxConcurrent` tasks run at once; the others wait by priority (first come, first served
 * within one) and start synchronously as a slot frees. A queue of its own rather than a library:
 * Bottleneck spends a timer tick on every job it starts, so reads over the cap drain one tick at a
 * time, and p-queue adds an abort listener per task for the shutdown signal
 * (docs/decisions/own-scheduler.md). Here each task is one small record in one of five FIFO lanes,
 * and shutdown walks the records.
 */
export class UpstreamLimiter {
  /** One FIFO per priority, indexed by `Priority` value (lower runs first). */
  private readonly lanes: Job[][] = Array.from({ length: 10 }, () => []);
  private readonly running = new Set<Job>();
  private waitingCount = 0;
  private stopped?: UpstreamError;

  constructor(private readonly options: LimiterOptions) {}

  schedule<T>(priority: PriorityName, task: () => Promise<T>): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    return new Promise<T>((resolve, reject) => {
      const job: Job = { task, resolve: resolve as (v: unknown) => void, reject };
      if (this.running.size < this.options.maxConcurrent) this.start(job);
      else {
        this.lanes[Priority[priority]]!.push(job);
        this.waitingCount++;
      }
    });
  }

  private start(job: Job): void {
    this.running.add(job);
    const done = () => {
      // A job answered at shutdown is no longer counted.
      if (!this.running.delete(job)) return;
      job.resolve = job.reject = undefined;
      this.next();
    };
    let result: Promise<unknown>;
    const task = job.task!;
    job.task = undefined;
    try {
      result = task();
    } catch (e) {
      result = Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    // A job answered at shutdown has no settle functions left: its late outcome goes nowhere.
    result.then(
      (v) => {
        job.resolve?.(v);
        done();
      },
      (e: unknown) => {
        job.reject?.(e);
        done();
      },
    );
  }

  private next(): void {
    if (this.waitingCount === 0 || this.running.size >= this.options.maxConcurrent) return;
    for (const lane of this.lanes) {
      const job = lane.shift();
      if (job) {
        this.waitingCount--;
        this.start(job);
        return;
      }
    }
  }

  /** Tasks running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running.size, waiting: this.waitingCount };
  }

  /** Every task still waiting or running is answered with an `unavailable` error at once. */
  async stop(): Promise<void> {
    const { upstream } = this.options;
    const error = new UpstreamError(
      upstream,
      'unavailable',
      `The gateway is shutting down; the ${upstream} request was not completed.`,
    );
    this.stopped = error;
    const jobs = [...this.running, ...this.lanes.flat()];
    this.running.clear();
    for (const lane of this.lanes) lane.length = 0;
    this.waitingCount = 0;
    for (const job of jobs) {
      job.reject?.(error);
      job.task = job.resolve = job.reject = undefined;
    }
  }
}

/**
 * Emptied as it goes: the task once started, the settle functions once settled. `running` and the
 * lanes live as long as the gateway, and V8 leaves their entries in the backing stores they
 * discard (a Set growing or shrinking, an array growing) until the next full collection; its
 * young collector keeps whatever those reach. A finished job holding its `resolve` would keep its
 * promise's result, a whole upstream page, so every young collection would copy and promote it.
 */
interface Job {
  task?: () => Promise<unknown>;
  resolve?: (value: unknown) => void;
  reject?: (error: unknown) => void;
}
