/**
 * Observability over real HTTP against the emulators: /health and /ready, Prometheus metrics that
 * agree with the emulators' own request logs, one JSON log line per request with no secret in any
 * output, and OpenTelemetry spans (operation → upstream requests) exported to a loopback collector
 * only when an endpoint is configured.
 */
import { execFile } from 'node:child_process';
import { inspect, promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway, type Gateway } from '../src/app/gateway.js';
import { startOtlpReceiver } from './support/otlp-receiver.js';
import { parseMetrics, sum } from './support/prometheus.js';
import { startStack, type Stack } from './support/stack.js';

type Emulator = Stack['governance'] | Stack['calendar'];
/** Everything the emulator answered (token requests go through the pipeline too, as `auth.token`). */
const seenBy = (e: Emulator) => e.control.requests().requests;

const gql = (gateway: Gateway, query: string, init: { variables?: unknown; headers?: Record<string, string> } = {}) =>
  gateway.yoga.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...init.headers },
    body: JSON.stringify({ query, variables: init.variables }),
  });

const PROBE = 'query MetricsProbe { entityTypes(first: 2) { totalCount } events(first: 2) { nodes { id title } } }';

describe('/health and /ready', () => {
  it('answers /health, and /ready with both upstreams reachable', async () => {
    const stack = await startStack();
    expect((await stack.gateway.yoga.fetch('http://gateway.test/health')).status).toBe(200);
    const ready = await stack.gateway.yoga.fetch('http://gateway.test/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      ready: true,
      checks: { governance: 'ok', calendar: 'ok' },
      upstreams: { governance: { state: 'up' }, calendar: { state: 'up' } },
    });
  });

  it('with READY_REQUIRES=redis, is not ready while the configured Redis cannot be reached; reports an unreachable upstream; names only the check', async () => {
    const stack = await startStack({
      env: { REDIS_URL: 'redis://127.0.0.1:1', READY_REQUIRES: 'redis' },
      configure: (c) => ({
        ...c,
        calendar: { ...c.calendar, url: 'http://127.0.0.1:1/wp-json/tribe/events/v1' },
        observability: { ...c.observability, readyTimeoutMs: 1500 },
      }),
    });
    const ready = await stack.gateway.yoga.fetch('http://gateway.test/ready');
    expect(ready.status).toBe(503);
    const text = await ready.text();
    expect(JSON.parse(text)).toMatchObject({
      ready: false,
      checks: { governance: 'ok', calendar: 'failed', redis: 'failed' },
      upstreams: { governance: { state: 'up' }, calendar: { state: 'down' } },
    });
    expect(text).not.toContain('127.0.0.1');
  });
});

describe('/metrics', () => {
  let stack: Stack;
  beforeAll(async () => {
    // No retry delay, a short 429 pause and one request at a time (so requests queue).
    stack = await startStack({
      env: { CALENDAR_MAX_CONCURRENT: '1' },
      configure: (c) => ({
        ...c,
        retry: { ...c.retry, baseDelayMs: 0 },
        traffic: { ...c.traffic, defaultRetryAfterMs: 50 },
      }),
    });
  });
  const metrics = async () => {
    const res = await stack.gateway.yoga.fetch('http://gateway.test/metrics');
    expect(res.headers.get('content-type')).toContain('text/plain');
    return parseMetrics(await res.text());
  };

  it('counts upstream requests exactly as the emulators saw them, with latency and queue time', async () => {
    stack.clearRequests();
    const res = await gql(stack.gateway, PROBE);
    expect(((await res.json()) as { errors?: unknown }).errors).toBeUndefined();
    const m = await metrics();
    for (const [name, emulator] of [
      ['governance', stack.governance],
      ['calendar', stack.calendar],
    ] as const) {
      const seen = seenBy(emulator);
      expect(seen.length).toBeGreaterThan(0);
      expect(sum(m, 'gateway_upstream_requests_total', { upstream: name })).toBe(seen.length);
      expect(sum(m, 'gateway_upstream_requests_total', { upstream: name, status: '200' })).toBe(
        seen.filter((r) => r.status === 200).length,
      );
      expect(sum(m, 'gateway_upstream_request_duration_seconds_count', { upstream: name })).toBe(seen.length);
      expect(sum(m, 'gateway_upstream_queue_wait_seconds_count', { upstream: name })).toBe(seen.length);
      expect(sum(m, 'gateway_upstream_queue_depth', { upstream: name })).toBe(0);
    }
    expect(
      sum(m, 'gateway_graphql_operations_total', { operation: 'MetricsProbe', type: 'query', outcome: 'ok' }),
    ).toBe(1);
    expect(sum(m, 'gateway_graphql_operation_duration_seconds_count', { operation: 'MetricsProbe' })).toBe(1);
  });

  it('counts cache hits as the response extension reports them', async () => {
    const before = await metrics();
    const body = (await (await gql(stack.gateway, PROBE)).json()) as {
      extensions: { cost: Record<string, { cacheHits: number }> };
    };
    const after = await metrics();
    for (const name of ['governance', 'calendar']) {
      const hits = (m: typeof after) =>
        sum(m, 'gateway_upstream_cache_total', { upstream: name, result: /^(hit|shared|stale|record)$/ });
      expect(hits(after) - hits(before)).toBe(body.extensions.cost[name]?.cacheHits ?? 0);
    }
    expect(sum(after, 'gateway_upstream_cache_total', { result: /^(hit|shared|stale)$/ })).toBeGreaterThan(0);
  });

  it('counts retries, 429s and pauses', async () => {
    stack.gateway.upstreams.cache.clear?.();
    stack.calendar.control.setFaults([{ kind: 'status', status: 503, times: 1 }]);
    stack.governance.control.setFaults([{ kind: 'rate-limit', retryAfter: null, times: 1 }]);
    const res = await gql(
      stack.gateway,
      'query Faulty { entityTypes(first: 3) { totalCount } events(first: 3) { nodes { id } } }',
    );
    expect(((await res.json()) as { errors?: unknown }).errors).toBeUndefined();
    stack.calendar.control.clearFaults();
    stack.governance.control.clearFaults();
    const m = await metrics();
    expect(sum(m, 'gateway_upstream_requests_total', { upstream: 'calendar', status: '503' })).toBe(1);
    expect(sum(m, 'gateway_upstream_retries_total', { upstream: 'calendar', reason: '503' })).toBe(1);
    expect(sum(m, 'gateway_upstream_rate_limited_total', { upstream: 'governance' })).toBe(1);
    expect(sum(m, 'gateway_upstream_pauses_total', { upstream: 'governance' })).toBe(1);
  });

  it('counts failed operations by error code', async () => {
    await gql(stack.gateway, 'query Broken { noSuchField }');
    const m = await metrics();
    expect(sum(m, 'gateway_graphql_operations_total', { operation: 'Broken', outcome: 'error' })).toBe(1);
    expect(sum(m, 'gateway_graphql_errors_total', { operation: 'Broken', code: 'GRAPHQL_VALIDATION_FAILED' })).toBe(1);
  });
});

describe('request log', () => {
  const output: string[] = [];
  afterEach(() => vi.restoreAllMocks());

  it('writes one JSON line per request, with id, operation, duration, upstream calls and error codes, and no secret anywhere', async () => {
    const stack = await startStack();
    // Everything the process prints while these gateways run is scanned, not only the request log.
    const capture = (chunk: unknown) => {
      output.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    // Vitest routes console.* itself, so Yoga's own logger is captured at the console.
    for (const level of ['debug', 'info', 'log', 'warn', 'error'] as const) {
      vi.spyOn(console, level).mockImplementation(
        (...args: unknown[]) =>
          void output.push(args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 8 }))).join(' ')),
      );
    }
    const lines: string[] = [];
    const sink = (line: string) => {
      lines.push(line);
      output.push(line);
    };
    const configured = createGateway({ config: { ...stack.config, logLevel: 'debug' }, logSink: sink });
    const forward = createGateway({
      config: { ...stack.config, logLevel: 'debug', governance: { ...stack.config.governance, authMode: 'forward' } },
      logSink: sink,
    });

    const tokenRes = await fetch(stack.governance.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: stack.governance.clients.full.clientId,
        client_secret: stack.governance.clients.full.clientSecret,
      }),
    });
    const token = ((await tokenRes.json()) as { access_token: string }).access_token;

    try {
      const read = await gql(configured, PROBE, { headers: { 'x-request-id': 'probe-1' } });
      // The gateway's own id answers; the caller's is logged beside it.
      expect(read.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      await gql(configured, 'mutation LogTag($name: String!) { createTag(input: { name: $name }) { id } }', {
        variables: { name: 'log-test' },
      });
      await gql(forward, 'query Forwarded { entityTypes(first: 1) { totalCount } }', {
        headers: { authorization: `Bearer ${token}` },
      });
      await gql(forward, 'query BadToken { entityTypes(first: 1) { totalCount } }', {
        headers: { authorization: `Bearer ${token}x` },
      });
      await gql(configured, 'query Broken { noSuchField }');
    } finally {
      await Promise.all([configured.close(), forward.close()]);
      vi.restoreAllMocks();
    }

    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => e.operationName)).toEqual(['MetricsProbe', 'LogTag', 'Forwarded', 'BadToken', 'Broken']);
    const [probe, tag, forwarded, badToken, broken] = entries as [
      Record<string, any>,
      Record<string, any>,
      Record<string, any>,
      Record<string, any>,
      Record<string, any>,
    ];
    expect(probe).toMatchObject({
      msg: 'graphql request',
      level: 'info',
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      clientRequestId: 'probe-1',
      operationType: 'query',
      status: 200,
      errors: [],
    });
    expect(probe.durationMs).toBeGreaterThan(0);
    expect(probe.upstream.governance.requests + probe.upstream.governance.cacheHits).toBeGreaterThan(0);
    expect(probe.upstream.calendar.requests + probe.upstream.calendar.cacheHits).toBeGreaterThan(0);
    expect(tag).toMatchObject({ operationType: 'mutation', errors: [] });
    expect(tag.upstream.calendar.requests).toBeGreaterThan(0);
    expect(forwarded.errors).toEqual([]);
    expect(badToken.errors).toEqual(['UNAUTHENTICATED']);
    expect(broken).toMatchObject({ level: 'warn', status: 400, errors: ['GRAPHQL_VALIDATION_FAILED'] });
    for (const e of entries) expect(e.requestId).toMatch(/^[\w.:-]+$/);

    const everything = output.join('\n');
    expect(everything).toContain('Processing GraphQL Parameters'); // Yoga's debug logging was captured too
    const secrets = [stack.config.governance.clientSecret!, stack.config.calendar.appPassword!, token];
    for (const secret of secrets) expect(everything.includes(secret), 'a secret reached the output').toBe(false);
    // The app password is also sent base64-encoded in Basic auth: that form must not leak either.
    const basic = Buffer.from(`${stack.config.calendar.user}:${stack.config.calendar.appPassword}`).toString('base64');
    expect(everything.includes(basic)).toBe(false);
  });
});

describe('tracing', () => {
  it('is off without an OTLP endpoint: no tracer, and the SDK is never loaded', async () => {
    // In a process of its own: this worker's other files may have loaded the SDK already.
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      'test/support/tracing-off-probe.ts',
    ]);
    expect(JSON.parse(stdout)).toEqual({ status: 200, tracer: false, loaded: [] });
  });

  describe('with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
    let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
    beforeAll(async () => {
      receiver = await startOtlpReceiver();
    });
    afterAll(() => receiver.close());

    it("exports a span per operation, child of the caller's traceparent, with a span per upstream request beneath it", async () => {
      const stack = await startStack({
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: 'gateway-under-test' },
      });
      stack.clearRequests();
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const parentId = '00f067aa0ba902b7';
      await gql(
        stack.gateway,
        'query Traced { entityTypes(first: 2) { totalCount } events(first: 2) { nodes { id } } }',
        {
          headers: { traceparent: `00-${traceId}-${parentId}-01` },
        },
      );
      await stack.gateway.observability.tracing!.flush();

      const server = receiver.spans.filter((s) => s.name === 'query Traced');
      expect(server).toHaveLength(1);
      expect(server[0]).toMatchObject({
        traceId,
        parentSpanId: parentId,
        attributes: { 'graphql.operation.name': 'Traced', 'graphql.operation.type': 'query' },
      });
      const clients = receiver.spans.filter((s) => s.parentSpanId === server[0]!.spanId);
      const upstreamCalls = seenBy(stack.governance).length + seenBy(stack.calendar).length;
      expect(clients).toHaveLength(upstreamCalls);
      for (const c of clients) {
        expect(c.traceId).toBe(traceId);
        expect(c.name).toMatch(/^(governance|calendar) \S+$/);
        expect(c.attributes['http.response.status_code']).toBe(200);
      }
      expect(new Set(clients.map((c) => c.attributes['gateway.upstream']))).toEqual(
        new Set(['governance', 'calendar']),
      );
      // Each upstream request carried W3C traceparent naming its own client span.
      const sent = [...seenBy(stack.governance), ...seenBy(stack.calendar)].map((r) => r.traceparent);
      expect(sent.sort()).toEqual(clients.map((c) => `00-${traceId}-${c.spanId}-01`).sort());
    });
  });
});
