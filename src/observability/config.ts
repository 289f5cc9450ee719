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
  /** How long an upstream probe's outcome is reused by /ready. */
  readyProbeTtlMs: number;
  /** /ready fails (503) while an upstream is down; off by default, since every replica shares that outage. */
  readyRequireUpstreams: boolean;
}

type Env = Record<string, string | undefined>;

export function readObservabilityConfig(env: Env, problems: string[]): ObservabilityConfig {
  const metrics = env.METRICS?.trim().toLowerCase() || 'true';
  if (!['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'].includes(metrics))
    problems.push(`METRICS must be true or false (got "${metrics}").`);
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^\s]+$/.test(endpoint))
    problems.push('OTEL_EXPORTER_OTLP_ENDPOINT must be an http or https URL.');
  const timeout = Number(env.READY_TIMEOUT_MS?.trim() || 2_000);
  if (!Number.isInteger(timeout) || timeout < 1 || timeout > 60_000)
    problems.push(`READY_TIMEOUT_MS must be a whole number from 1 to 60000 (got "${env.READY_TIMEOUT_MS}").`);
  const ttl = Number(env.READY_PROBE_TTL_MS?.trim() || 5_000);
  if (!Number.isInteger(ttl) || ttl < 0 || ttl > 600_000)
    problems.push(`READY_PROBE_TTL_MS must be a whole number from 0 to 600000 (got "${env.READY_PROBE_TTL_MS}").`);
  const require = env.READY_REQUIRE_UPSTREAMS?.trim().toLowerCase() || 'false';
  if (!['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'].includes(require))
    problems.push(`READY_REQUIRE_UPSTREAMS must be true or false (got "${require}").`);
  return {
    readyProbeTtlMs: ttl,
    readyRequireUpstreams: ['true', '1', 'on', 'yes'].includes(require),
    metrics: ['true', '1', 'on', 'yes'].includes(metrics),
    otlpEndpoint: endpoint,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'governance-calendar-gateway',
    readyTimeoutMs: timeout,
  };
}
