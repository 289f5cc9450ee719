/**
 * Admission to one upstream account: before each request is sent it must be outside a 429 pause,
 * have its turn in the ramp after a pause (see ramp.ts), and get a point from the account budget.
 * Waiting requests line up by priority (writes and single reads before bulk page fan-out), callers
 * served in turn inside each priority (weighted fair queuing, see fair-queue.ts; across replicas
 * sharing Redis, the budget gives each point to the caller whose turn it is, see budget-redis.ts),
 * and each gives up as soon as it cannot be admitted before its deadline, with a `rate-limited`
 * error saying when to retry. A caller over its cap on the budget (fair-share.ts) waits, or fails,
 * alone.
 */
import type { AccountBudget, BudgetStatus, Claim } from './budget.js';
import { cancelled, shuttingDown, UpstreamError, type UpstreamName } from './errors.js';
import { Priority, type PriorityName } from './concurrency-cap.js';
import { FairQueue } from './fair-queue.js';
import type { FairShareConfig } from '../config/traffic.js';
import { CallerShares } from './fair-share.js';
import type { PauseGate } from './pause.js';
import type { Ramp } from './ramp.js';

export interface TrafficOptions {
  upstream: UpstreamName;
  budget: AccountBudget;
  pause: PauseGate;
  ramp: Ramp;
  /** How long a request may wait for admission, from when it was first asked for. */
  deadlineMs: number;
  /** Callers' weights and caps. */
  fairShare: FairShareConfig;
  /** The time and the timers the line is served by (tests pass a clock they move; default: the real one). */
  clock?: Clock;
}

/** What the line waits with: the time, and a timer that can be called off. */
export interface Clock {
  now(): number;
  /** Calls `fn` in `ms`; the returned function calls it off. */
  timer(ms: number, fn: () => void): () => void;
}

const REAL_CLOCK: Clock = {
  now: () => Date.now(),
  timer: (ms, fn) => {
    // A wait computed from a moment already past is no wait (Node warns of a negative timeout).
    const t = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(t);
  },
};

/** A request's admission: send it before `validUntil` (else ask again); a probe must be settled. */
export interface Admission {
  validUntil: number;
  probe: boolean;
  /** Gives the budget point back (for an admission that went stale before it was sent). */
  refund?: () => void;
  /** Its place in line when it joined (1: next); absent when it did not wait. */
  place?: number;
}

/** The account as last known, for `extensions.cost` and the `budget` field. */
export interface TrafficStatus extends BudgetStatus {
  /** Milliseconds left in a 429 pause (0 when none). */
  pausedForMs: number;
  /** The ramp after a pause is still under way. */
  ramping: boolean;
}

/** A request in line for admission. */
interface Waiter {
  priority: number;
  endpoint: string;
  client: string;
  deadline: number;
  signal?: AbortSignal;
  resolve: (admission: Admission) => void;
  reject: (error: unknown) => void;
}

export class TrafficControl {
  /** Requests in line: by priority, callers in turn inside each (see fair-queue.ts). */
  private readonly line: FairQueue<Waiter>;
  /** Set aside until their own endpoint's rule or their caller's cap frees a point. */
  private aside = 0;
  private pumping = false;
  /** Until when the pump waits, and why: a request whose deadline comes first fails on arrival. */
  private hold?: { until: number; reason: 'pause' | 'budget' };
  private stopped = false;
  /** Ends the pump's wait for a budget point early (a new caller heads the line). */
  private wake?: () => void;
  /** When the point the pump waits for frees: its next take counts the pacing from then (see `countedAt`). */
  private dueAt?: number;
  readonly shares: CallerShares;
  private readonly clock: Clock;

  constructor(readonly options: TrafficOptions) {
    this.clock = options.clock ?? REAL_CLOCK;
    this.shares = new CallerShares(options.fairShare, options.budget);
    this.line = new FairQueue(this.shares.weightOf);
  }

  /** Requests waiting for admission now; background work holds back while any are. */
  get queued(): number {
    return this.line.size + this.aside;
  }

  get pause(): PauseGate {
    return this.options.pause;
  }

  get budget(): AccountBudget {
    return this.options.budget;
  }

  deadline(now = this.clock.now()): number {
    return now + this.options.deadlineMs;
  }

  /** Paused or ramping after a pause: reads with an expired cached answer are served from it. */
  holding(): boolean {
    return this.options.pause.remainingMs() > 0 || !this.options.ramp.open();
  }

  /**
   * The least share left across the account's rules (1 without rules), from the counts the `budget`
   * field reports: this replica's own, or with Redis the shared ones as last seen (no round trip).
   */
  leftShare(now = this.clock.now()): number {
    let least = 1;
    for (const r of this.options.budget.status(now).rules) least = Math.min(least, r.remaining / r.allowed);
    return least;
  }

  status(now = this.clock.now()): TrafficStatus {
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
   * Resolves when a request to `endpoint` for caller `client` may be sent; throws `rate-limited`
   * when it could not be admitted before `deadline`.
   */
  async admit(
    priority: PriorityName,
    endpoint: string,
    deadline: number,
    signal?: AbortSignal,
    client = '',
  ): Promise<Admission> {
    // Fast path: with nobody in line, no pause and no ramp, take a point straight away. The budget's
    // take is atomic, so concurrent requests need no queue while the budget lasts.
    const now = this.clock.now();
    if (
      this.line.size === 0 &&
      this.options.pause.remainingMs(now) === 0 &&
      this.options.ramp.open() &&
      !signal?.aborted &&
      this.shares.capWaitMs(client, now) === 0
    ) {
      const answer = await this.options.budget.take(endpoint, now, this.claim(client, Priority[priority]));
      if (answer.ok) return { validUntil: answer.validUntil, probe: false, refund: answer.refund }; // a 429 seen meanwhile is checked again by the caller
    }
    // The line is held (a pause, the ramp, a spent budget) past this request's deadline: fail now.
    const hold = this.hold;
    if (hold && hold.until > deadline && hold.until > now)
      throw rateLimited(this.options.upstream, hold.until - now, hold.reason);
    return new Promise<Admission>((resolve, reject) => {
      const waiter: Waiter = { priority: Priority[priority], endpoint, client, deadline, signal, resolve, reject };
      const place = this.line.push(waiter.priority, client, waiter);
      const admitted = waiter.resolve;
      waiter.resolve = (a) => admitted({ ...a, place: place + 1 });
      // Its turn now: ask for it at once, so that across replicas its claim is in before the next point frees.
      if (this.line.peek() === waiter) this.wake?.();
      void this.pump();
    });
  }

  private claim(client: string, priority: number): Claim {
    return { caller: client, weight: this.shares.weightOf(client), priority, caps: this.shares.capsOf(client) };
  }

  /** Waiters that left the line unserved: a caller with nothing left waiting gives up its turn across replicas. */
  private left(waiters: readonly Waiter[]): readonly Waiter[] {
    for (const client of new Set(waiters.map((w) => w.client)))
      if (this.line.waitingOf(client) === 0) this.options.budget.release(client);
    return waiters;
  }

  /**
   * Serves the line, one admission at a time: waits out a pause and the ramp, then gives the next
   * point of the budget to the request whose caller's turn it is. A request its own endpoint's
   * rule or its caller's cap holds back waits outside the line, so the others go on.
   */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.line.size > 0 && !this.stopped) await this.step();
    } finally {
      this.pumping = false;
    }
  }

  private async step(): Promise<void> {
    const { pause, budget, ramp } = this.options;
    const now = this.clock.now();
    this.dropCancelled();
    const paused = pause.remainingMs(now);
    if (paused > 0) {
      this.expire(pause.endsAt, paused, 'pause');
      return this.sleep(paused);
    }
    const turn = await ramp.turn(now);
    if (!turn.ok) {
      this.expire(now + turn.waitMs, Math.max(turn.waitMs, 1_000), 'pause');
      return this.sleep(turn.waitMs);
    }
    const admission = { probe: turn.probe, validUntil: 0 };
    const waiter = this.line.peek();
    const capWait = waiter ? this.shares.capWaitMs(waiter.client, now) : 0;
    if (!waiter || capWait > 0) {
      this.settle(admission, 'cancelled');
      if (waiter && this.line.delete(waiter.priority, waiter.client, waiter))
        this.setAside(waiter, now + capWait, capWait, 'share');
      return;
    }
    const askedAt = this.clock.now();
    const dueAt = this.dueAt;
    this.dueAt = undefined;
    const answer = await budget.take(waiter.endpoint, askedAt, this.claim(waiter.client, waiter.priority), dueAt);
    if (answer.ok && pause.remainingMs() > 0) {
      // A 429 seen meanwhile (here or by another replica) still holds this request back.
      answer.refund?.();
      this.settle(admission, 'cancelled');
      return;
    }
    if (answer.ok) {
      // The point was taken for this waiter's endpoint: it goes to this waiter, even if another
      // joined the line ahead of it meanwhile (that one is next).
      if (!this.line.delete(waiter.priority, waiter.client, waiter, true))
        return this.release({ ...admission, refund: answer.refund });
      waiter.resolve({ validUntil: answer.validUntil, probe: admission.probe, refund: answer.refund });
      return;
    }
    this.settle(admission, 'cancelled');
    if (answer.perEndpoint || answer.share) {
      // Held back by its own endpoint's rule, or its caller's cap: wait outside the line so the others go on.
      if (this.line.delete(waiter.priority, waiter.client, waiter))
        this.setAside(waiter, now + answer.waitMs, answer.waitMs, answer.share ? 'share' : 'budget');
      return;
    }
    this.expire(now + answer.waitMs, answer.waitMs, 'budget');
    // Another caller headed the line while this one asked (the wake in `admit` found no wait to
    // end): ask for it at once, so that across replicas its claim is in before the point frees.
    if (this.line.peek() !== waiter) return;
    this.dueAt = askedAt + answer.waitMs;
    // Wake when a point frees (counted from the ask: a slow round trip to Redis must not delay the
    // next one), a little spread so replicas do not all ask at the same instant.
    await new Promise<void>((resolve) => {
      const cancel = this.clock.timer(askedAt + answer.waitMs - this.clock.now() + Math.random() * 5, resolve);
      this.wake = () => {
        cancel();
        resolve();
      };
    });
    this.wake = undefined;
  }

  /** Everyone in line who cannot be served before `readyAt` fails now, saying when to come back. */
  private expire(readyAt: number, waitMs: number, reason: 'pause' | 'budget'): void {
    this.hold = { until: readyAt, reason };
    const error = rateLimited(this.options.upstream, waitMs, reason);
    for (const w of this.left(this.line.remove((w) => w.deadline < readyAt))) w.reject(error);
  }

  private dropCancelled(): void {
    for (const w of this.left(this.line.remove((w) => w.signal?.aborted === true)))
      w.reject(cancelled(this.options.upstream));
  }

  /** Out of line until `wakeAt` (then in line again at the back of its caller's turn), or failed now. */
  private setAside(waiter: Waiter, wakeAt: number, waitMs: number, reason: 'budget' | 'share'): void {
    this.left([waiter]);
    if (wakeAt > waiter.deadline) return waiter.reject(rateLimited(this.options.upstream, waitMs, reason));
    this.aside++;
    this.clock.timer(Math.max(0, wakeAt - this.clock.now()) + Math.random() * 5, () => {
      this.aside--;
      if (this.stopped) return waiter.reject(cancelled(this.options.upstream));
      this.line.push(waiter.priority, waiter.client, waiter);
      void this.pump();
    });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.clock.timer(ms, resolve));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.options.pause.close();
    const error = shuttingDown(this.options.upstream);
    for (const w of this.left(this.line.remove(() => true))) w.reject(error);
    this.options.budget.close();
  }
}

function rateLimited(upstream: UpstreamName, waitMs: number, reason: 'pause' | 'budget' | 'share'): UpstreamError {
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  const what =
    reason === 'pause'
      ? `The ${upstream} service asked the gateway to slow down`
      : reason === 'share'
        ? `Your share of the gateway's request budget for the ${upstream} service is spent for now`
        : `The gateway's request budget for the ${upstream} service is spent for now`;
  return new UpstreamError(upstream, 'rate-limited', `${what}; retry in ${retryAfter} s.`, { retryAfter });
}
