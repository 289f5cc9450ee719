/**
 * Prometheus metrics for one gateway: its own registry (so two gateways in one process, as in the
 * tests, never mix counts), fed by the upstream pipeline's observer and by GraphQL operation events.
 * Served as text at GET /metrics.
 */
import { createHash } from 'node:crypto';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { HotCounter, HotHistogram } from './hot-metrics.js';
import type { UpstreamObserver } from '../core/observer.js';
import type { OperationListener } from './operation-record.js';

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Operation names come from clients: only well-formed ones, and a bounded number, become labels. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_OPERATION_NAMES = 200;

export type GatewayMetrics = ReturnType<typeof createMetrics>;

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    upstream: upstreamMetrics([registry]),
    operations: operationMetrics([registry]),
    mcp: mcpMetrics([registry]),
  };
}

/** One /mcp request once answered: its method and tool (bounded labels, from its headers) and status. */
export interface McpRequestEvent {
  method: string;
  tool: string;
  status: number;
  durationMs: number;
}

/** /mcp requests by method, tool and status, and how long each took (a tool call's GraphQL operation is in the operation metrics too). */
function mcpMetrics(registers: Registry[]): (e: McpRequestEvent) => void {
  const requests = new Counter({
    name: 'gateway_mcp_requests_total',
    help: '/mcp requests by JSON-RPC method and tool (from the Mcp-Method and Mcp-Name headers, checked against the body) and HTTP status.',
    labelNames: ['method', 'tool', 'status'],
    registers,
  });
  const duration = new Histogram({
    name: 'gateway_mcp_request_duration_seconds',
    help: '/mcp request duration, by method and tool.',
    labelNames: ['method', 'tool'],
    buckets: SECONDS,
    registers,
  });
  return ({ method, tool, status, durationMs }) => {
    requests.inc({ method, tool, status: String(status) });
    duration.observe({ method, tool }, durationMs / 1000);
  };
}

/** The upstream pipeline's requests, retries, pauses, cache outcomes and queue. */
function upstreamMetrics(registers: Registry[]): UpstreamObserver {
  const upstreamRequests = new HotCounter({
    name: 'gateway_upstream_requests_total',
    help: 'Upstream HTTP requests sent, by upstream, operation and status (or transport error kind).',
    labelNames: ['upstream', 'operation', 'status'],
    registers,
  });
  const upstreamDuration = new HotHistogram({
    name: 'gateway_upstream_request_duration_seconds',
    help: 'Upstream HTTP request latency, per attempt.',
    labelNames: ['upstream', 'operation'],
    buckets: SECONDS,
    registers,
  });
  const perUpstream = (name: string, help: string) => new Counter({ name, help, labelNames: ['upstream'], registers });
  const rateLimited = perUpstream('gateway_upstream_rate_limited_total', 'Upstream answers with status 429.');
  const pauses = perUpstream('gateway_upstream_pauses_total', 'Times traffic control paused an upstream after a 429.');
  const pausedSeconds = perUpstream(
    'gateway_upstream_paused_seconds_total',
    'Total pause time imposed on an upstream.',
  );
  const retries = new Counter({
    name: 'gateway_upstream_retries_total',
    help: 'Upstream request attempts repeated after a failure.',
    labelNames: ['upstream', 'operation', 'reason'],
    registers,
  });
  const cache = new HotCounter({
    name: 'gateway_upstream_cache_total',
    help: 'Cacheable upstream reads by outcome: hit, stale (expired, during a 429 pause or an upstream failure), stale-budget (expired, while the budget is low), shared (joined an identical read in flight) or miss; redis counts the misses then answered by the shared Redis tier. record and record-redis count the hits (local) and Redis answers that were records kept from another answer; prefix a list page cut from a longer cached one, batched a list split from a combined request, batch-wasted a combined request that could not be split; record-shadow, prefix-shadow and batched-shadow what CACHE_REUSE=shadow would have saved.',
    labelNames: ['upstream', 'result'],
    registers,
  });
  const breaker = new Gauge({
    name: 'gateway_upstream_breaker_open',
    help: "1 while an upstream's circuit breaker is open or half-open (calls fail at once), else 0.",
    labelNames: ['upstream'],
    registers,
  });
  return {
    breaker: (e) => breaker.set({ upstream: e.upstream }, e.state === 'closed' ? 0 : 1),
    cache: (e, result) => cache.labels(e.upstream, result).inc(),
    queued: queueMetrics(registers),
    request: (e) => {
      const end = upstreamDuration.labels(e.upstream, e.operation).startTimer();
      return ({ status, error }) => {
        end();
        upstreamRequests
          .labels(e.upstream, e.operation, status === undefined ? (error ?? 'error') : String(status))
          .inc();
        if (status === 429) rateLimited.inc({ upstream: e.upstream });
      };
    },
    retry: (e) => retries.inc({ upstream: e.upstream, operation: e.operation, reason: e.reason }),
    pause: (e) => {
      pauses.inc({ upstream: e.upstream });
      pausedSeconds.inc({ upstream: e.upstream }, e.ms / 1000);
    },
  };
}

/** Requests waiting for the scheduler: how many, and for how long. */
function queueMetrics(registers: Registry[]): UpstreamObserver['queued'] {
  const queueDepth = new HotCounter({
    type: 'gauge',
    name: 'gateway_upstream_queue_depth',
    help: 'Upstream requests waiting for the scheduler.',
    labelNames: ['upstream'],
    registers,
  });
  const queueWait = new HotHistogram({
    name: 'gateway_upstream_queue_wait_seconds',
    help: 'Time upstream requests waited for the scheduler.',
    labelNames: ['upstream', 'priority'],
    buckets: SECONDS,
    registers,
  });
  return (e) => {
    const depth = queueDepth.labels(e.upstream);
    depth.inc();
    const end = queueWait.labels(e.upstream, e.priority).startTimer();
    return () => {
      depth.dec();
      end();
    };
  };
}

/** GraphQL operations: counts, durations, response-cache hits and error codes. */
function operationMetrics(registers: Registry[]): OperationListener {
  const operations = new Counter({
    name: 'gateway_graphql_operations_total',
    help: 'GraphQL operations by name, type and outcome (ok or error).',
    labelNames: ['operation', 'type', 'outcome'],
    registers,
  });
  const operationDuration = new Histogram({
    name: 'gateway_graphql_operation_duration_seconds',
    help: 'GraphQL operation duration, request parsed to response sent.',
    labelNames: ['operation', 'type'],
    buckets: SECONDS,
    registers,
  });
  const responseCacheHits = new Counter({
    name: 'gateway_response_cache_hits_total',
    help: 'Operations answered whole from the response cache, by operation and tier (memory or redis); the hit ratio is these over gateway_graphql_operations_total{type="query"}.',
    labelNames: ['operation', 'tier'],
    registers,
  });
  const operationErrors = new Counter({
    name: 'gateway_graphql_errors_total',
    help: 'GraphQL errors in results, by operation and error code.',
    labelNames: ['operation', 'code'],
    registers,
  });

  const seenNames = new Set<string>();
  const operationLabel = (name: string | undefined): string => {
    if (!name) return 'anonymous';
    if (!NAME.test(name)) return 'invalid';
    if (!seenNames.has(name) && seenNames.size >= MAX_OPERATION_NAMES) return 'other';
    seenNames.add(name);
    return name;
  };

  return {
    end(record) {
      const operation = operationLabel(record.operationName);
      const type = record.operationType ?? 'unknown';
      const failed = record.errorCodes.length > 0 || (record.status ?? 200) >= 400;
      operations.inc({ operation, type, outcome: failed ? 'error' : 'ok' });
      operationDuration.observe({ operation, type }, (record.durationMs ?? 0) / 1000);
      if (record.responseCache) responseCacheHits.inc({ operation, tier: record.responseCache });
      for (const code of record.errorCodes) operationErrors.inc({ operation, code });
    },
  };
}

/** Callers named in the per-caller budget gauge; the rest are summed under `other`. */
export const TOP_CALLERS = 10;

/**
 * `gateway_caller_budget_points`: points of each upstream's shortest account rule spent in its last
 * span, by caller, read at scrape time: the top callers, the rest as `other`, so the label set stays
 * bounded however many callers there are. A caller is named by its group and a hash (`callerLabel`).
 */
export function registerCallerBudget(
  registry: Registry,
  spent: () => Iterable<[upstream: string, byCaller: [string, number][]]>,
): void {
  new Gauge({
    name: 'gateway_caller_budget_points',
    help: `Account budget points spent in the last span, per upstream and caller (top ${TOP_CALLERS}, the rest as "other").`,
    labelNames: ['upstream', 'client'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [upstream, byCaller] of spent()) {
        let other = 0;
        byCaller.forEach(([client, n], i) => {
          if (i < TOP_CALLERS && client !== 'other') this.set({ upstream, client: callerLabel(client) }, n);
          else other += n;
        });
        if (other > 0) this.set({ upstream, client: 'other' }, other);
      }
    },
  });
}

/**
 * A fair-share key as a label: its group (an issuer, `key`, `forwarded`) and the first 12 hex digits
 * of the SHA-256 of the rest, so a scrape never shows a subject, client id or key name.
 */
export function callerLabel(key: string): string {
  const bar = key.indexOf('|');
  if (bar < 0) return key;
  return `${key.slice(0, bar)}|${createHash('sha256')
    .update(key.slice(bar + 1))
    .digest('hex')
    .slice(0, 12)}`;
}
