/**
 * OpenTelemetry traces, only when OTEL_EXPORTER_OTLP_ENDPOINT is set: a span per GraphQL operation
 * (child of the caller's `traceparent`, if any) and a client span per upstream attempt beneath it.
 * When the endpoint is unset nothing here runs and the SDK is never even loaded (it is required
 * lazily), so tracing off costs nothing per request.
 */
import { createRequire } from 'node:module';
import {
  context,
  defaultTextMapSetter,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type * as Core from '@opentelemetry/core';
import type * as Exporter from '@opentelemetry/exporter-trace-otlp-http';
import type * as Resources from '@opentelemetry/resources';
import type * as Sdk from '@opentelemetry/sdk-trace-base';
import type { UsageTracker } from '../core/usage.js';
import type { AuditEvent } from './audit.js';
import type { UpstreamObserver } from '../core/observer.js';
import type { OperationListener } from './operation-record.js';

export type Tracing = ReturnType<typeof createTracing>;

const headerGetter = { get: (h: Headers, key: string) => h.get(key) ?? undefined, keys: (h: Headers) => [...h.keys()] };

/** `endpoint`: the OTLP/HTTP base URL, e.g. `http://collector:4318`; traces go to `<endpoint>/v1/traces`. */
export function createTracing(options: { endpoint: string; serviceName: string }) {
  const require = createRequire(import.meta.url);
  const sdk = require('@opentelemetry/sdk-trace-base') as typeof Sdk;
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof Exporter;
  const { Resource } = require('@opentelemetry/resources') as typeof Resources;
  const { W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof Core;

  const base = options.endpoint.replace(/\/+$/, '');
  const exporter = new OTLPTraceExporter({ url: base.endsWith('/v1/traces') ? base : `${base}/v1/traces` });
  const provider = new sdk.BasicTracerProvider({
    resource: new Resource({ 'service.name': options.serviceName }),
    spanProcessors: [new sdk.BatchSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('governance-calendar-gateway');
  const propagator = new W3CTraceContextPropagator();

  // Upstream calls find their operation's span through the request's usage tracker.
  const byUsage = new WeakMap<UsageTracker, Span>();
  const byRequest = new Map<string, Span>();
  return {
    operations: operationSpans(tracer, propagator, byUsage, byRequest),
    upstream: { request: upstreamSpan(tracer, propagator, byUsage) } satisfies UpstreamObserver,
    /** Adds an `audit` event to the operation's span (see audit.ts). */
    audit(event: AuditEvent) {
      byRequest.get(event.requestId)?.addEvent('audit', {
        'audit.outcome': event.outcome,
        'audit.caller': event.caller.id,
        'audit.operation': event.operation ?? '',
        'audit.args_hash': event.argsHash,
        'audit.writes': JSON.stringify(event.writes),
      });
    },
    /** Sends every finished span now. */
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

type Propagator = InstanceType<typeof Core.W3CTraceContextPropagator>;

/** A server span per GraphQL operation, child of the caller's `traceparent`. */
function operationSpans(
  tracer: Tracer,
  propagator: Propagator,
  byUsage: WeakMap<UsageTracker, Span>,
  /** The operation's span by request id, while it is open. */
  byRequest: Map<string, Span>,
): OperationListener {
  return {
    start(record, request) {
      const parent = propagator.extract(context.active(), request.headers, headerGetter);
      const span = tracer.startSpan(
        'graphql.request',
        { kind: SpanKind.SERVER, attributes: { 'gateway.request_id': record.requestId } },
        parent,
      );
      byRequest.set(record.requestId, span);
    },
    execute(record) {
      const span = byRequest.get(record.requestId);
      if (!span || !record.context) return;
      byUsage.set(record.context.usage, span);
      span.updateName(`${record.operationType ?? 'graphql'} ${record.operationName ?? 'anonymous'}`);
      if (record.operationName) span.setAttribute('graphql.operation.name', record.operationName);
      if (record.operationType) span.setAttribute('graphql.operation.type', record.operationType);
    },
    end(record) {
      const span = byRequest.get(record.requestId);
      if (!span) return;
      byRequest.delete(record.requestId);
      if (record.status !== undefined) span.setAttribute('http.response.status_code', record.status);
      if (record.errorCodes.length > 0) {
        span.setAttribute('graphql.error_codes', record.errorCodes);
        span.setStatus({ code: SpanStatusCode.ERROR, message: record.errorCodes.join(',') });
      }
      span.end();
    },
  };
}

/** A client span per upstream attempt, beneath its operation's. */
function upstreamSpan(
  tracer: Tracer,
  propagator: Propagator,
  byUsage: WeakMap<UsageTracker, Span>,
): NonNullable<UpstreamObserver['request']> {
  return (e) => {
    const parent = byUsage.get(e.caller.usage);
    const ctx = parent ? trace.setSpan(context.active(), parent) : context.active();
    const span = tracer.startSpan(
      `${e.upstream} ${e.operation}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'gateway.upstream': e.upstream,
          'gateway.upstream.operation': e.operation,
          'http.request.method': e.method,
          'gateway.upstream.attempt': e.attempt,
        },
      },
      ctx,
    );
    // W3C trace context upstream: the attempt's span is the parent of whatever the upstream traces.
    propagator.inject(trace.setSpan(ctx, span), e.headers, defaultTextMapSetter);
    return ({ status, error }) => {
      if (status !== undefined) span.setAttribute('http.response.status_code', status);
      if (error !== undefined || (status !== undefined && (status >= 500 || status === 429))) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error ?? String(status) });
      }
      span.end();
    };
  };
}
