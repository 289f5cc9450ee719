/**
 * Admission to one upstream account: before each request is sent it must be outside a 429 pause,
 * have its turn in the ramp after a pause (see ramp.ts), and get a point from the account budget.
 * Waiting requests line up in a priority queue (a Bottleneck with one slot, so the queue is served
 * in priority order: writes and single reads before bulk page fan-out) and each gives up at its
 * deadline with a `rate-limited` error saying when to retry.
 */
import Bottleneck from 'bottleneck';
import type { AccountBudget, BudgetStatus } from './budget.js';
import { UpstreamError, type UpstreamName } from './errors.js';
import { Priority, type PriorityName } from './concurrency-cap.js';
import type { PauseGate } from './pause.js';
import type { Ramp } from './ramp.js';

export interface TrafficOptions {
  upstream: UpstreamName;
  budget: AccountBudget;
  pause: PauseGate;
  ramp: Ramp;
  /** How long a request may wait for admission, from when it was first asked for. */
  deadlineMs: number;
}

/** A request's admission: send it before `validUntil` (else ask again); a probe must be settled. */
export interface Admission {
  validUntil: number;
  probe: boolean;
  /** Gives the budget point back (for an admission that went stale before it was sent). */
  refund?: () => void;
}

/** The account as last known, for `extensions.cost` and the `budget` field. */
export interface TrafficStatus extends BudgetStatus {
  /** Milliseconds left in a 429 pause (0 when none). */
  pausedForMs: number;
  /** The ramp after a pause is still under way. */
  ramping: boolean;
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

  /** Paused or ramping after a pause: reads with an expired cached answer are served from it. */
  holding(): boolean {
    return this.options.pause.remainingMs() > 0 || !this.options.ramp.open();
  }

  status(now = Date.now()): TrafficStatus {
    return {
      ...this.options.budget.status(now),
      pausedForMs: this.options.pause.remainingMs(now),
      ramping: !this.options.ramp.open(),
    };
  }

  /** The probe of a ramp came back, or was never sent. */
  settle(admission: Admission, outcome: 'ok' | 'rate-limited' | 'cancelled'): void {
    if (admission.probe) this.options.ramp.settle(outcome);
  }

  /** An admission that was never used (it went stale, or a 429 came meanwhile): its point and probe go back. */
  release(admission: Admission): void {
    admission.refund?.();
    this.settle(admission, 'cancelled');
  }

  /**
   * Resolves when a request to `endpoint` may be sent; throws `rate-limited` when it could not be
   * admitted before `deadline`.
   */
  async admit(priority: PriorityName, endpoint: string, deadline: number, signal?: AbortSignal): Promise<Admission> {
    // Fast path: with nobody in line, no pause and no ramp, take a point straight away. The budget's
    // take is atomic, so concurrent requests need no queue while the budget lasts; Bottleneck would
    // space them out by a timer tick each.
    if (this.waiting === 0 && this.options.pause.remainingMs() === 0 && this.options.ramp.open() && !signal?.aborted) {
      const answer = await this.options.budget.take(endpoint, Date.now());
      if (answer.ok) return { validUntil: answer.validUntil, probe: false, refund: answer.refund }; // a 429 seen meanwhile is checked again by the caller
    }
    this.waiting++;
    try {
      for (;;) {
        const turn = await this.gate.schedule({ priority: Priority[priority] }, () =>
          this.wait(endpoint, deadline, signal),
        );
        if ('validUntil' in turn) return turn;
        // Held back by its own endpoint's rule: wait outside the queue so other endpoints go on.
        await sleep(Math.max(0, turn.wakeAt - Date.now()));
      }
    } finally {
      this.waiting--;
    }
  }

  /** Admits, or says when to ask again for an endpoint-only wait; waits in line for account-wide ones. */
  private async wait(
    endpoint: string,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<Admission | { wakeAt: number }> {
    const { pause, budget, ramp, upstream } = this.options;
    for (;;) {
      if (signal?.aborted)
        throw new UpstreamError(upstream, 'unavailable', `The request to the ${upstream} service was cancelled.`);
      const now = Date.now();
      const paused = pause.remainingMs(now);
      if (paused > 0) {
        if (pause.endsAt > deadline) throw rateLimited(upstream, paused, 'pause');
        await sleep(paused);
        continue;
      }
      const turn = await ramp.turn(now);
      if (!turn.ok) {
        if (now + turn.waitMs > deadline) throw rateLimited(upstream, Math.max(turn.waitMs, 1_000), 'pause');
        await sleep(turn.waitMs);
        continue;
      }
      const admission = { probe: turn.probe };
      const answer = await budget.take(endpoint, Date.now());
      if (answer.ok) {
        // A 429 seen meanwhile (here or by another replica) still holds this request back.
        if (pause.remainingMs() > 0) {
          answer.refund?.();
          this.settle({ ...admission, validUntil: 0 }, 'cancelled');
          continue;
        }
        return { ...admission, validUntil: answer.validUntil, refund: answer.refund };
      }
      this.settle({ ...admission, validUntil: 0 }, 'cancelled');
      if (now + answer.waitMs > deadline) throw rateLimited(upstream, answer.waitMs, 'budget');
      // Wake when a point frees, a little spread so replicas do not all ask at the same instant.
      const wakeAt = now + answer.waitMs + Math.random() * 5;
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
