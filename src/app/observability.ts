/**
 * Puts the gateway's observability together from the configuration: Prometheus metrics, the JSON
 * request log, OpenTelemetry (only when an OTLP endpoint is set) and the /metrics and /ready
 * endpoints. `gateway.ts` hands `upstream` to the upstream pipeline and `plugins` to Yoga.
 */
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config/config.js';
import type { Context } from '../graph/context.js';
import { combineObservers, type UpstreamObserver } from '../core/observer.js';
import { useMetricsEndpoint } from '../http/plugins/use-metrics-endpoint.js';
import { useOperationEvents } from '../http/plugins/use-operation-events.js';
import type { OperationListener } from '../observability/operation-record.js';
import { useReadiness } from '../http/plugins/use-readiness.js';
import { requestLogger, type LogSink } from '../observability/logging.js';
import { createMetrics, registerCallerBudget, type GatewayMetrics } from '../observability/metrics.js';
import { redisPing, type ReadinessSources } from '../observability/readiness.js';
import { UpstreamProbe, type UpstreamReport } from '../observability/upstream-probe.js';
import type { Upstream } from '../core/upstream-pipeline.js';
import { createTracing, type Tracing } from '../observability/tracing.js';
import { createAuditTrail, type AuditTrail } from '../observability/audit.js';

export interface ObservabilityOptions {
  config: Config;
  /** Where request log lines go (default: stdout). */
  logSink?: LogSink;
  /** Where audit lines go instead of AUDIT_SINK, and the clock of their times (tests). */
  audit?: { sink: (line: string) => void; clock?: () => number };
  /** The upstreams /ready probes (built after observability, hence a function). */
  upstreams?: () => { governance: Upstream; calendar: Upstream };
}

export interface Observability {
  metrics?: GatewayMetrics;
  tracing?: Tracing;
  /** The audit trail of mutation attempts (AUDIT_SINK), when on. */
  audit?: AuditTrail;
  upstream?: UpstreamObserver;
  plugins: Plugin<Context>[];
  /** The log line and metrics of requests answered before Yoga (response cache hits). */
  edgeListeners: OperationListener[];
  /** Each upstream's probe report, as /ready has it (the start line names them). */
  upstreamReports(): Promise<Record<string, UpstreamReport>>;
  close(): Promise<void>;
}

export function createObservability({
  config,
  logSink,
  audit: auditTo,
  upstreams,
}: ObservabilityOptions): Observability {
  const o = config.observability;
  const metrics = o.metrics ? createMetrics() : undefined;
  if (metrics)
    registerCallerBudget(metrics.registry, () => {
      const u = upstreams?.();
      return u ? (['governance', 'calendar'] as const).map((name) => [name, u[name].traffic.shares.spent()]) : [];
    });
  const tracing = o.otlpEndpoint ? createTracing({ endpoint: o.otlpEndpoint, serviceName: o.serviceName }) : undefined;
  const logger = requestLogger(config.logLevel, logSink);
  const audit = createAuditTrail({
    sink: o.auditSink,
    write: auditTo?.sink,
    clock: auditTo?.clock,
    also: tracing && ((e) => tracing.audit(e)),
  });
  const redis = config.redisUrl ? redisPing(config.redisUrl) : undefined;

  let probes: Record<'governance' | 'calendar', UpstreamProbe> | undefined;
  const readiness = (): ReadinessSources => {
    const u = upstreams?.();
    if (u && !probes) {
      probes = {
        governance: new UpstreamProbe(u.governance, o.readyProbeTtlMs, o.readyTimeoutMs),
        calendar: new UpstreamProbe(u.calendar, o.readyProbeTtlMs, o.readyTimeoutMs),
      };
    }
    return {
      upstreams: probes ?? {},
      checks: redis ? { redis: redis.check } : {},
      requires: o.readyRequires,
    };
  };

  const listeners = [metrics?.operations, tracing?.operations, logger].filter(
    (l): l is OperationListener => l !== undefined,
  );
  const plugins: Plugin<Context>[] = [useReadiness(readiness, o.readyTimeoutMs) as Plugin<Context>];
  if (metrics) plugins.push(useMetricsEndpoint(metrics.registry) as Plugin<Context>);
  if (listeners.length > 0) plugins.push(useOperationEvents(listeners));

  return {
    metrics,
    tracing,
    audit,
    upstream: combineObservers(metrics?.upstream, tracing?.upstream),
    plugins,
    edgeListeners: [metrics?.operations, logger].filter((l): l is OperationListener => l !== undefined),
    async upstreamReports() {
      const entries = Object.entries(readiness().upstreams);
      return Object.fromEntries(await Promise.all(entries.map(async ([name, p]) => [name, await p.report()] as const)));
    },
    async close() {
      await Promise.all([tracing?.shutdown(), redis?.close(), audit?.close()]);
    },
  };
}
