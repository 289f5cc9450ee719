/**
 * Observability settings, read from the environment by `loadConfig`. The OTLP variables are the
 * OpenTelemetry standard names, so a collector configured for other services works as is.
 */
import type { Settings } from './settings.js';

export function readObservabilityConfig(s: Settings) {
  return {
    metrics: s.METRICS,
    /** Unset: no tracing at all (the SDK is not even loaded). */
    otlpEndpoint: s.OTEL_EXPORTER_OTLP_ENDPOINT,
    serviceName: s.OTEL_SERVICE_NAME ?? 'governance-calendar-gateway',
    // Within a probe's usual timeout; a probe's outcome is reused so /ready never fans out per request.
    readyTimeoutMs: 2_000,
    readyProbeTtlMs: 5_000,
    readyRequireUpstreams: s.READY_REQUIRE_UPSTREAMS,
    /** `off`, `stdout` or a file path (JSON lines, see audit.ts). */
    auditSink: s.AUDIT_SINK ?? (s.NODE_ENV === 'test' ? 'off' : 'stdout'),
  };
}
