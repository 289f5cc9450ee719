/**
 * The in-process scheduler in front of each upstream: a concurrency cap with priorities, so a
 * WordPress site is never flooded and single reads and writes overtake bulk page fan-out.
 * Account-wide budgets (shared between replicas) are layered on top by the traffic module.
 */
import { shuttingDown, UpstreamError, type UpstreamName } from './errors.js';
import { FairQueue } from './fair-queue.js';

/** Lanes of the fair queue, lower first (0..9); `PRIORITY_OF` (upstream-pipeline.ts) says which call takes which. */
export const Priority = { write: 2, single: 4, list: 5, bulk: 7, background: 9 } as const;
export type PriorityName = keyof typeof Priority;

export interface LimiterOptions {
  upstream: UpstreamName;
  maxConcurrent: number;
  /** A caller's weight in the fair queue (see fair-queue.ts); 1 for every caller unless given. */
  weightOf?: (client: string) => number;
}

/**
 * At most `maxConcurrent` tasks run at once; the others wait by priority, callers served in turn
 * within one (see fair-queue.ts), and start synchronously as a slot frees. A queue of its own rather
 * than a library (why, and when to revisit: docs/decisions/own-scheduler.md): a library scheduler
 * starts jobs on a timer tick or holds a listener per task, where here each task is one small record
 * in a fair queue, and shutdown walks the records.
 */
export class UpstreamLimiter {
  /** Lanes by `Priority` value (lower runs first), callers in turn inside each. */
  private readonly queue: FairQueue<Job>;
  private readonly running = new Set<Job>();
  private stopped?: UpstreamError;

  constructor(private readonly options: LimiterOptions) {
    this.queue = new FairQueue(options.weightOf);
  }

  /**
   * `client`: the caller's fair-share key (one shared turn when absent). A task still waiting at
   * `deadline` is given up: it fails as a timeout, never started.
   */
  schedule<T>(priority: PriorityName, task: () => Promise<T>, client = '', deadline = Infinity): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    return new Promise<T>((resolve, reject) => {
      const job: Job = { task, resolve: resolve as (v: unknown) => void, reject };
      if (this.running.size < this.options.maxConcurrent) return this.start(job);
      const lane = Priority[priority];
      this.queue.push(lane, client, job);
      if (deadline === Infinity) return;
      job.timer = setTimeout(
        () => {
          if (!this.queue.delete(lane, client, job)) return;
          const { upstream } = this.options;
          job.reject?.(
            new UpstreamError(upstream, 'unavailable', `The ${upstream} service did not answer in time.`, {
              sent: false,
            }),
          );
          job.task = job.resolve = job.reject = job.timer = undefined;
        },
        Math.max(0, deadline - Date.now()),
      );
    });
  }

  private start(job: Job): void {
    const task = job.task;
    this.running.add(job);
    clearTimeout(job.timer);
    job.task = job.timer = undefined;
    let result: Promise<unknown>;
    try {
      if (!task) throw new Error('A job started twice.');
      result = task();
    } catch (e) {
      result = Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    // A job answered at shutdown has no settle functions left: its late outcome goes nowhere.
    result.then(
      (v) => this.done(job, v, true),
      (e: unknown) => this.done(job, e, false),
    );
  }

  private done(job: Job, outcome: unknown, ok: boolean): void {
    if (ok) job.resolve?.(outcome);
    else job.reject?.(outcome);
    // A job answered at shutdown is no longer counted.
    if (!this.running.delete(job)) return;
    job.resolve = job.reject = undefined;
    const next = this.running.size < this.options.maxConcurrent ? this.queue.shift() : undefined;
    if (next) this.start(next);
  }

  /** Tasks running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running.size, waiting: this.queue.size };
  }

  /** Every task still waiting or running is answered with an `unavailable` error at once. */
  async stop(): Promise<void> {
    const { upstream } = this.options;
    this.stopped = shuttingDown(upstream);
    const jobs = [...this.running, ...this.queue.remove(() => true)];
    this.running.clear();
    for (const job of jobs) {
      clearTimeout(job.timer);
      job.reject?.(this.stopped);
      job.task = job.resolve = job.reject = job.timer = undefined;
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
  /** Gives the wait up at its deadline. */
  timer?: NodeJS.Timeout;
}
