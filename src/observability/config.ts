/**
 * Observability settings, read from the environment by `loadConfig`. The OTLP variables are the
 * OpenTelemetry standard names, so a collector configured for other services works as is.
 */
export interface ObservabilityConfig {
  /** GET /metrics in Prometheus format. */
  metrics: boolean;
  /** OTLP/HTTP collector base URL (OTEL_EXPORTER_OTLP_ENDPOINT); unset → no tracing at all. */
  otlpEndpoint?: string;
  serviceName: string;
  /** How long GET /ready waits for its checks. */
  readyTimeoutMs: number;
}

type Env = Record<string, string | undefined>;

export function readObservabilityConfig(env: Env, problems: string[]): ObservabilityConfig {
  const metrics = (env.METRICS?.trim().toLowerCase() || 'true');
  if (!['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'].includes(metrics)) problems.push(`METRICS must be true or false (got "${metrics}").`);
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^\s]+$/.test(endpoint)) problems.push('OTEL_EXPORTER_OTLP_ENDPOINT must be an http or https URL.');
  const timeout = Number(env.READY_TIMEOUT_MS?.trim() || 2_000);
  if (!Number.isInteger(timeout) || timeout < 1 || timeout > 60_000) problems.push(`READY_TIMEOUT_MS must be a whole number from 1 to 60000 (got "${env.READY_TIMEOUT_MS}").`);
  return {
    metrics: ['true', '1', 'on', 'yes'].includes(metrics),
    otlpEndpoint: endpoint,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'governance-calendar-gateway',
    readyTimeoutMs: timeout,
  };
}
