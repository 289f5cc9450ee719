/**
 * Puts the gateway's observability together from the configuration: Prometheus metrics, the JSON
 * request log, OpenTelemetry (only when an OTLP endpoint is set) and the /metrics and /ready
 * endpoints. `gateway.ts` hands `upstream` to the upstream pipeline and `plugins` to Yoga.
 */
import type { Plugin } from 'graphql-yoga';
import type { Dispatcher } from 'undici';
import type { Config } from '../config/config.js';
import type { Context } from '../graph/context.js';
import { combineObservers, type UpstreamObserver } from '../core/observer.js';
import { useMetricsEndpoint } from '../http/plugins/use-metrics-endpoint.js';
import { useOperationEvents, type OperationListener } from '../http/plugins/use-operation-events.js';
import { useReadiness } from '../http/plugins/use-readiness.js';
import { requestLogger, type LogSink } from './logging.js';
import { createMetrics, type GatewayMetrics } from './metrics.js';
import { httpReachable, redisPing, type ReadinessCheck } from './readiness.js';
import { createTracing, type Tracing } from './tracing.js';

/** A service may say for itself whether it can serve (e.g. its token endpoint answers). */
export interface ReadinessSource {
  ready?(signal: AbortSignal): Promise<void>;
}

export interface ObservabilityOptions {
  config: Config;
  /** Where request log lines go (default: stdout). */
  logSink?: LogSink;
  dispatcher?: Dispatcher;
  /** Asked at each /ready; a service's own `ready()` replaces the plain reachability probe. */
  services?: () => { governance: ReadinessSource; calendar: ReadinessSource };
}

export interface Observability {
  metrics?: GatewayMetrics;
  tracing?: Tracing;
  upstream?: UpstreamObserver;
  plugins: Plugin<Context>[];
  close(): Promise<void>;
}

export function createObservability({ config, logSink, dispatcher, services }: ObservabilityOptions): Observability {
  const o = config.observability;
  const metrics = o.metrics ? createMetrics() : undefined;
  const tracing = o.otlpEndpoint ? createTracing({ endpoint: o.otlpEndpoint, serviceName: o.serviceName }) : undefined;
  const logger = requestLogger(config.logLevel, logSink);
  const redis = config.redisUrl ? redisPing(config.redisUrl) : undefined;

  const checks = (): Record<string, ReadinessCheck> => {
    const s = services?.();
    const probe = (source: ReadinessSource | undefined, url: string | undefined): ReadinessCheck =>
      source?.ready ? (signal) => source.ready!(signal) : httpReachable(url!, dispatcher);
    return {
      governance: probe(s?.governance, config.governance.url),
      calendar: probe(s?.calendar, config.calendar.url),
      ...(redis ? { redis: redis.check } : {}),
    };
  };

  const listeners = [metrics?.operations, tracing?.operations, logger].filter((l): l is OperationListener => l !== undefined);
  const plugins: Plugin<Context>[] = [useReadiness(checks, o.readyTimeoutMs) as Plugin<Context>];
  if (metrics) plugins.push(useMetricsEndpoint(metrics.registry) as Plugin<Context>);
  if (listeners.length > 0) plugins.push(useOperationEvents(listeners));

  return {
    metrics,
    tracing,
    upstream: combineObservers(metrics?.upstream, tracing?.upstream),
    plugins,
    async close() {
      await Promise.all([tracing?.shutdown(), redis?.close()]);
    },
  };
}
