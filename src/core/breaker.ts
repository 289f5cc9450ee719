/**
 * A circuit breaker per upstream (cockatiel's, see docs/decisions/circuit-breaker.md). It counts
 * what says the upstream is unwell: a timeout, a connection fault, a 5xx. A 4xx is an answer, and a
 * 429 already pauses the account. After `threshold` such failures in a row it opens: calls fail at
 * once (`unavailable` with a `retryAfter`) instead of each waiting out a timeout. Once `openMs` has
 * passed, one call goes through as the probe (the pipeline runs it at the lowest priority, through
 * the account budget like any call) while the others still fail at once; its success closes the
 * breaker, its failure opens it again.
 *
 * With Redis, a replica that opens its breaker says so on a channel and the others open theirs from
 * the same moment, so N replicas do not each pay the timeouts (cockatiel rebuilds a breaker from a
 * saved state for this). Losing such a message only costs the other replica its own threshold.
 */
import {
  BrokenCircuitError,
  CircuitState,
  ConsecutiveBreaker,
  IsolatedCircuitError,
  circuitBreaker,
  handleWhenResult,
  type CircuitBreakerPolicy,
} from 'cockatiel';
import { cancelledByCaller, UpstreamError, type UpstreamName } from './errors.js';
import type { HttpResponse } from './http.js';
import type { RedisLink } from './redis.js';
import type { TrafficLogger } from './traffic-log.js';
import { ownJson } from './records.js';

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerOptions {
  upstream: UpstreamName;
  /** Unwell answers in a row that open the breaker; 0 turns it off. */
  threshold: number;
  /** How long it stays open before one probe may go. */
  openMs: number;
  redis?: RedisLink;
  log?: TrafficLogger;
  /** Told every change (metrics). */
  onChange?: (state: BreakerState) => void;
}

type Outcome = HttpResponse | UpstreamError;

/** What the breaker counts against the upstream; a request its own caller cancelled is no verdict. */
export function unwell(outcome: Outcome): boolean {
  if (outcome instanceof UpstreamError)
    return outcome.kind === 'unavailable' && !outcome.breaker && !cancelledByCaller(outcome);
  return outcome.status >= 500;
}

export class UpstreamBreaker {
  private policy?: CircuitBreakerPolicy;
  private openedAt = 0;
  private readonly channel?: string;
  /** This replica's id on the channel (its own messages come back to it). */
  private readonly self = Math.random().toString(36).slice(2);

  constructor(private readonly options: BreakerOptions) {
    if (options.threshold <= 0) return;
    this.policy = this.build();
    const { redis } = options;
    if (!redis) return;
    this.channel = redis.key('breaker-channel', options.upstream);
    redis.subscribe(this.channel, (message) => this.heard(message));
  }

  get state(): BreakerState {
    const s = this.policy?.state;
    if (s === CircuitState.HalfOpen) return 'half-open';
    return s === CircuitState.Open || s === CircuitState.Isolated ? 'open' : 'closed';
  }

  /** True when the next call through `run` will be the half-open probe. */
  probeDue(): boolean {
    return this.policy?.state === CircuitState.Open && Date.now() >= this.openedAt + this.options.openMs;
  }

  /** The error to fail a call with at once, or undefined when it may go (closed, or the probe is due). */
  refusal(): UpstreamError | undefined {
    if (!this.policy || this.policy.state === CircuitState.Closed || this.probeDue()) return undefined;
    const retryAfter = Math.max(1, Math.ceil((this.openedAt + this.options.openMs - Date.now()) / 1000));
    const { upstream } = this.options;
    return new UpstreamError(
      upstream,
      'unavailable',
      `The ${upstream} service is failing; the gateway stopped calling it for now. Retry in ${retryAfter} s.`,
      { retryAfter, sent: false, breaker: true },
    );
  }

  /**
   * Runs one attempt on the wire through the breaker; refused at once (thrown) when it is open or
   * another call is the probe. Check and entry are one synchronous step, so only one probe goes.
   */
  run(attempt: () => Promise<Outcome>): Promise<Outcome> {
    if (!this.policy) return attempt();
    const refused = this.refusal();
    if (refused) return Promise.reject(refused);
    return this.policy.execute(attempt).catch((e: unknown) => {
      if (e instanceof BrokenCircuitError || e instanceof IsolatedCircuitError) throw this.refusal() ?? e;
      throw e;
    });
  }

  /** `openedAt`: rebuilt open, from another replica's news. */
  private build(openedAt?: number): CircuitBreakerPolicy {
    const { threshold, openMs } = this.options;
    const policy = circuitBreaker(
      handleWhenResult((r) => unwell(r as Outcome)),
      {
        halfOpenAfter: openMs,
        breaker: new ConsecutiveBreaker(threshold),
        initialState:
          openedAt === undefined
            ? undefined
            : { ownState: { value: CircuitState.Open, openedAt, attemptNo: 1 }, breakerState: threshold },
      },
    );
    policy.onStateChange((s) => this.changed(s, 'local'));
    return policy;
  }

  private changed(s: CircuitState, source: 'local' | 'shared'): void {
    const { redis } = this.options;
    if (s === CircuitState.Open && source === 'local') {
      this.openedAt = Date.now();
      const news = JSON.stringify({ from: this.self, openedAt: this.openedAt });
      if (redis?.ready && this.channel)
        void redis.bestEffort('breaker publish', redis.client.publish(this.channel, news));
    }
    const state = this.state;
    this.options.log?.({
      level: state === 'closed' ? 'info' : 'warn',
      msg: `circuit breaker ${state}`,
      upstream: this.options.upstream,
      ...(state === 'open' ? { retryAfterMs: this.options.openMs, source } : {}),
    });
    this.options.onChange?.(state);
  }

  /** Another replica opened its breaker: open this one from the same moment, unless already open. */
  private heard(message: string): void {
    let news: { from?: string; openedAt?: number };
    try {
      news = ownJson<typeof news>(message);
    } catch {
      return;
    }
    if (news.from === this.self || typeof news.openedAt !== 'number' || this.state !== 'closed') return;
    const openedAt = Math.min(news.openedAt, Date.now());
    this.policy = this.build(openedAt);
    this.openedAt = openedAt;
    this.changed(CircuitState.Open, 'shared');
  }
}
