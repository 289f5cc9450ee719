/**
 * Observability settings, read from the environment by `loadConfig`. The OTLP variables are the
 * OpenTelemetry standard names, so a collector configured for other services works as is.
 */
import type { Settings } from './settings.js';

/** What `READY_REQUIRES` may name: shared dependencies that fail /ready only when listed. */
const READY_REQUIREMENTS = ['upstreams', 'redis'] as const;
export type ReadyRequirement = (typeof READY_REQUIREMENTS)[number];

const isRequirement = (name: string): name is ReadyRequirement => READY_REQUIREMENTS.some((r) => r === name);

export function readObservabilityConfig(s: Settings, problems: string[]) {
  const requires = s.READY_REQUIRES ?? [];
  const unknown = requires.filter((r) => !isRequirement(r));
  if (unknown.length > 0)
    problems.push(`READY_REQUIRES names ${READY_REQUIREMENTS.join(' and ')} only (got "${unknown.join(', ')}").`);
  return {
    metrics: s.METRICS,
    /** Unset: no tracing at all (the SDK is not even loaded). */
    otlpEndpoint: s.OTEL_EXPORTER_OTLP_ENDPOINT,
    serviceName: s.OTEL_SERVICE_NAME ?? 'governance-calendar-gateway',
    // Within a probe's usual timeout; a probe's outcome is reused so /ready never fans out per request.
    readyTimeoutMs: 2_000,
    readyProbeTtlMs: 5_000,
    /** Shared dependencies whose outage turns /ready 503 (READY_REQUIRES); reported in its body either way. */
    readyRequires: new Set(requires.filter(isRequirement)),
    /** `off`, `stdout` or a file path (JSON lines, see audit.ts). */
    auditSink: s.AUDIT_SINK ?? (s.NODE_ENV === 'test' ? 'off' : 'stdout'),
  };
}
