/**
 * Admission to one upstream account: before each request is sent it must be outside a 429 pause and
 * get a point from the account budget. Waiting requests line up in a priority queue (a Bottleneck
 * with one slot, so the queue is served in priority order: writes and single reads before bulk page
 * fan-out) and each gives up at its deadline with a `rate-limited` error saying when to retry.
 */
import Bottleneck from 'bottleneck';
import type { AccountBudget } from './budget.js';
import { UpstreamError, type UpstreamName } from './errors.js';
import { Priority, type PriorityName } from './concurrency-cap.js';
import type { PauseGate } from './pause.js';

export interface TrafficOptions {
  upstream: UpstreamName;
  budget: AccountBudget;
  pause: PauseGate;
  /** How long a request may wait for admission, from when it was first asked for. */
  deadlineMs: number;
}

export class TrafficControl {
  private readonly gate = new Bottleneck({ maxConcurrent: 1 });
  /** Requests in line at the gate; while any are, newcomers line up too, so priorities hold. */
  private waiting = 0;

  constructor(readonly options: TrafficOptions) {}

  /** Requests waiting for admission now; background work holds back while any are. */
  get queued(): number {
    return this.waiting;
  }

  get pause(): PauseGate {
    return this.options.pause;
  }

  get budget(): AccountBudget {
    return this.options.budget;
  }

  deadline(now = Date.now()): number {
    return now + this.options.deadlineMs;
  }

  /**
   * Resolves when a request to `endpoint` may be sent, with the time by which it must be on the
   * wire (else it asks again: its point was counted in a window that is over); throws
   * `rate-limited` past `deadline`.
   */
  async admit(priority: PriorityName, endpoint: string, deadline: number, signal?: AbortSignal): Promise<number> {
    // Fast path: with nobody in line and no pause, take a point straight away. The budget's take is
    // atomic, so concurrent requests need no queue while the budget lasts; Bottleneck would space
    // them out by a timer tick each.
    if (this.waiting === 0 && this.options.pause.remainingMs() === 0 && !signal?.aborted) {
      const answer = await this.options.budget.take(endpoint, Date.now());
      if (answer.ok) return answer.validUntil; // a 429 seen meanwhile is checked again by the caller
    }
    this.waiting++;
    try {
      for (;;) {
        const turn = await this.gate.schedule({ priority: Priority[priority] }, () => this.wait(endpoint, deadline, signal));
        if ('admittedUntil' in turn) return turn.admittedUntil;
        // Held back by its own endpoint's rule: wait outside the queue so other endpoints go on.
        await sleep(Math.max(0, turn.wakeAt - Date.now()));
      }
    } finally {
      this.waiting--;
    }
  }

  /** Admits, or says when to ask again for an endpoint-only wait; waits in line for account-wide ones. */
  private async wait(endpoint: string, deadline: number, signal?: AbortSignal): Promise<{ admittedUntil: number } | { wakeAt: number }> {
    const { pause, budget, upstream } = this.options;
    for (;;) {
      if (signal?.aborted) throw new UpstreamError(upstream, 'unavailable', `The request to the ${upstream} service was cancelled.`);
      const now = Date.now();
      const paused = pause.remainingMs(now);
      if (paused > 0) {
        if (pause.endsAt > deadline) throw rateLimited(upstream, paused, 'pause');
        await sleep(paused);
        continue;
      }
      const answer = await budget.take(endpoint, now);
      if (answer.ok) {
        // A 429 seen meanwhile (here or by another replica) still holds this request back.
        const late = pause.remainingMs();
        if (late > 0) {
          if (pause.endsAt > deadline) throw rateLimited(upstream, late, 'pause');
          await sleep(late);
        }
        return { admittedUntil: answer.validUntil };
      }
      if (now + answer.waitMs > deadline) throw rateLimited(upstream, answer.waitMs, 'budget');
      // Wake at the window's end, a little spread so replicas do not all ask at the same instant.
      const wakeAt = now + answer.waitMs + Math.random() * 20;
      if (answer.perEndpoint) return { wakeAt };
      await sleep(wakeAt - Date.now());
    }
  }

  async stop(): Promise<void> {
    this.options.pause.close();
    this.options.budget.close();
    await this.gate.stop({ dropWaitingJobs: true });
  }
}

function rateLimited(upstream: UpstreamName, waitMs: number, reason: 'pause' | 'budget'): UpstreamError {
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  const what =
    reason === 'pause'
      ? `The ${upstream} service asked the gateway to slow down`
      : `The gateway's request budget for the ${upstream} service is spent for now`;
  return new UpstreamError(upstream, 'rate-limited', `${what}; retry in ${retryAfter} s.`, { retryAfter });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
