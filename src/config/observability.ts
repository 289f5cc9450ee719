/**
 * Observability settings, read from the environment by `loadConfig`. The OTLP variables are the
 * OpenTelemetry standard names, so a collector configured for other services works as is.
 */
import type { Settings } from './settings.js';

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
  /** Where the audit trail goes: `off`, `stdout` or a file path (JSON lines, see audit.ts). */
  auditSink: string;
}

/** Built from the validated settings (`src/config/settings.ts`). */
export function readObservabilityConfig(s: Settings): ObservabilityConfig {
  return {
    metrics: s.METRICS,
    otlpEndpoint: s.OTEL_EXPORTER_OTLP_ENDPOINT,
    serviceName: s.OTEL_SERVICE_NAME ?? 'governance-calendar-gateway',
    // Within a probe's usual timeout; a probe's outcome is reused so /ready never fans out per request.
    readyTimeoutMs: 2_000,
    readyProbeTtlMs: 5_000,
    readyRequireUpstreams: s.READY_REQUIRE_UPSTREAMS,
    auditSink: s.AUDIT_SINK ?? (s.NODE_ENV === 'test' ? 'off' : 'stdout'),
  };
}
