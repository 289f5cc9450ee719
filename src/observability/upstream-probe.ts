/**
 * What /ready says about an upstream: one cheap request (a HEAD of the API root, no credentials)
 * through the upstream's own pipeline, so it counts in the account budget and honours a 429
 * pause, and its outcome cached for a few seconds (`observability.readyProbeTtlMs`) so that frequent probes
 * by an orchestrator cost the account almost nothing. Concurrent /ready calls share one probe.
 *
 * `up`: any answer below 500. `down`: a 5xx, a refused or reset connection, no answer in time.
 * `paused`: the account is in a 429 pause (nothing is sent then; the upstream is there).
 */
import { failureCause, isUpstreamError, type FailureCause } from '../core/errors.js';
import type { BreakerState } from '../core/breaker.js';
import type { Upstream } from '../core/upstream-pipeline.js';
import { UsageTracker } from '../core/usage.js';

export type UpstreamState = 'up' | 'down' | 'paused';

export interface UpstreamReport {
  state: UpstreamState;
  /** ISO time of the probe this report comes from. */
  checkedAt: string;
  /** The probe's HTTP status, when one came. */
  status?: number;
  /** `down`: why (DNS, refused, reset, TLS, timeout, 5xx), never the URL. */
  cause?: FailureCause;
  /** The upstream's circuit breaker: `open` and `half-open` fail calls at once. */
  breaker?: BreakerState;
}

export class UpstreamProbe {
  private last?: { at: number; report: UpstreamReport };
  private running?: Promise<UpstreamReport>;

  constructor(
    private readonly upstream: Upstream,
    private readonly ttlMs: number,
    private readonly timeoutMs: number,
  ) {}

  /** The last probe's outcome, with the circuit breaker's state now. */
  async report(): Promise<UpstreamReport> {
    const fresh = this.last && Date.now() - this.last.at < this.ttlMs ? this.last.report : undefined;
    const report = fresh ?? (await (this.running ??= this.probe().finally(() => (this.running = undefined))));
    return { ...report, breaker: this.upstream.breakerState };
  }

  private async probe(): Promise<UpstreamReport> {
    const at = Date.now();
    const done = (state: UpstreamState, status?: number, cause?: FailureCause) => {
      const report: UpstreamReport = {
        state,
        checkedAt: new Date(at).toISOString(),
        ...(status !== undefined ? { status } : {}),
        ...(cause !== undefined ? { cause } : {}),
      };
      this.last = { at, report };
      return report;
    };
    if (this.upstream.traffic.pause.remainingMs() > 0) return done('paused');
    try {
      // Not idempotent for the pipeline: a probe is never retried, one answer is the answer.
      const res = await this.upstream.call(
        { method: 'HEAD', path: '/', idempotent: false, kind: 'read', operation: 'ready.probe' },
        { identity: 'readiness', usage: new UsageTracker(), signal: AbortSignal.timeout(this.timeoutMs) },
      );
      return res.status < 500 ? done('up', res.status) : done('down', res.status, 'http-5xx');
    } catch (e) {
      if (isUpstreamError(e) && e.kind === 'rate-limited') return done('paused', e.status);
      return done('down', isUpstreamError(e) ? e.status : undefined, failureCause(e));
    }
  }
}
