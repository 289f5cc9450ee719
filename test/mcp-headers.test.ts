/**
 * What /mcp tells its operators, from the 2026-07-28 `Mcp-Method`/`Mcp-Name` headers: the metrics'
 * method and tool labels (a 2025-11-25 request, which has no headers, named from its body), headers
 * that disagree with the body refused before anything else answers, a tool call refused for a
 * permission audited under its tool's name, the caller's trace context (`_meta.traceparent`) joined
 * to the tool call's spans on a real OTLP/HTTP receiver, and a start that prints no SDK warning.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { legacyClient, modernClient, raw } from './support/mcp-clients.js';
import { startOtlpReceiver } from './support/otlp-receiver.js';
import { countRequests, startStack, type Stack } from './support/stack.js';

const key = 'key-of-the-calendar-bot';
const auth = { authorization: `Bearer ${key}` };

async function mcpUrl(stack: Stack): Promise<string> {
  return (await stack.listen()).replace(/\/graphql$/, '/mcp');
}

/** The samples of `gateway_mcp_requests_total`, as `method tool status` → count. */
async function mcpCounts(stack: Stack): Promise<Record<string, number>> {
  const metric = await stack.gateway.observability
    .metrics!.registry.getSingleMetric('gateway_mcp_requests_total')!
    .get();
  return Object.fromEntries(
    metric.values.map((v) => [`${v.labels.method} ${v.labels.tool || '-'} ${v.labels.status}`, v.value]),
  );
}

describe('MCP headers: metrics, refusals and the audit', () => {
  let stack: Stack;
  let url: string;
  const audit: Record<string, unknown>[] = [];
  let warned: string[];
  beforeAll(async () => {
    const warn = vi.spyOn(console, 'warn');
    stack = await startStack({
      env: {
        AUTH_ANONYMOUS: 'none',
        AUTH_API_KEYS: `calendar-bot|${createHash('sha256').update(key).digest('hex')}|calendar:read`,
      },
      gateway: { audit: { sink: (line) => audit.push(JSON.parse(line) as Record<string, unknown>) } },
    });
    warned = warn.mock.calls.map((c) => c.map(String).join(' '));
    warn.mockRestore();
    url = await mcpUrl(stack);
  });

  it('the SDK prints no warning at start, and a 2026-07-28 answer is one JSON body', async () => {
    expect(warned.filter((w) => /responseMode/.test(w))).toEqual([]);
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        ...auth,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'AccountBudget',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'AccountBudget',
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('labels requests by method and tool from the headers (2025-11-25 ones from the body), unknown tools as other', async () => {
    const before = await mcpCounts(stack);
    for (const client of [await modernClient([url], { headers: auth }), await legacyClient([url], auth)]) {
      await client.listTools();
      expect((await client.call('FindEvents', { limit: 1 })).isError).toBe(false);
      await client.close();
    }
    await raw(url, 'tools/call', { name: 'NoSuchTool', arguments: {} }, auth);
    const after = await mcpCounts(stack);
    const grew = Object.fromEntries(
      Object.entries(after)
        .map(([k, n]) => [k, n - (before[k] ?? 0)])
        .filter(([, n]) => n !== 0),
    );
    expect(grew).toMatchObject({
      'server/discover - 200': 1,
      'initialize - 200': 1,
      'tools/list - 200': 2,
      'tools/call FindEvents 200': 2,
      'tools/call other 200': 1,
    });
  });

  it('headers that disagree with the body are -32020 before the permission check, and nothing is sent', async () => {
    stack.clearRequests();
    // A caller without governance:read, naming a tool it may call in the header and another in the body.
    const named = await raw(
      url,
      'tools/call',
      { name: 'FindEntities', arguments: {} },
      { ...auth, 'mcp-name': 'FindEvents' },
    );
    expect(named.status).toBe(400);
    expect(named.body.error).toMatchObject({ code: -32020 });
    expect(named.body.error!.message).toMatch(/"FindEntities" but the Mcp-Name header names "FindEvents"/);
    const method = await raw(
      url,
      'tools/call',
      { name: 'FindEvents', arguments: {} },
      { ...auth, 'mcp-method': 'tools/list' },
    );
    expect(method.status).toBe(400);
    expect(method.body.error!.message).toMatch(/method tools\/call but the Mcp-Method header names tools\/list/);
    // A 2025-era request carrying the headers is held to them too.
    const legacy = await fetch(url, {
      method: 'POST',
      headers: {
        ...auth,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-name': 'GetEvent',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'FindEvents', arguments: {} },
      }),
    });
    expect(legacy.status).toBe(400);
    expect(await legacy.json()).toMatchObject({ id: 7, error: { code: -32020 } });
    // Base64-encoded names (the header's form for non-ASCII text) are decoded before the comparison.
    const encoded = `=?base64?${Buffer.from('FindEvents').toString('base64')}?=`;
    const same = await raw(
      url,
      'tools/call',
      { name: 'FindEvents', arguments: { limit: 1 } },
      { ...auth, 'mcp-name': encoded },
    );
    expect(same.status).toBe(200);
    expect(countRequests(stack.governance)).toBe(0);
    expect((await mcpCounts(stack))['tools/call FindEvents 400']).toBe(1);
  });

  it('a tool call refused for a permission leaves an audit event naming the tool and why', async () => {
    audit.length = 0;
    const refused = await raw(url, 'tools/call', { name: 'GetEntity', arguments: { id: 'e-1' } }, auth);
    expect(refused.status).toBe(403);
    expect(audit).toEqual([
      expect.objectContaining({
        audit: true,
        tool: 'GetEntity',
        operation: null,
        outcome: 'refused',
        writes: [],
        caller: expect.objectContaining({ id: 'key:calendar-bot' }),
        reason: expect.stringMatching(/GetEntity needs the permission governance:read/),
        upstreamCalls: {},
      }),
    ]);
    expect(audit[0]!.argsHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await mcpCounts(stack))['tools/call GetEntity 403']).toBe(1);
  });
});

describe('MCP trace context', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(() => receiver.close());

  it("a tool call's spans continue the caller's trace from _meta.traceparent, on both protocol generations", async () => {
    const stack = await startStack({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } });
    const url = await mcpUrl(stack);
    const callers = [
      { client: await modernClient([url]), traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parent: '00f067aa0ba902b7' },
      { client: await legacyClient([url]), traceId: '0af7651916cd43dd8448eb211c80319c', parent: 'b7ad6b7169203331' },
    ];
    for (const [i, { client, traceId, parent }] of callers.entries()) {
      // Other arguments each time: a repeat would be answered from the cache, sending nothing upstream.
      const res = await client.client.callTool({
        name: 'FindEntities',
        arguments: { limit: 2 + i },
        _meta: { traceparent: `00-${traceId}-${parent}-01`, tracestate: 'vendor=x' },
      });
      expect(res.isError).toBeFalsy();
      await client.close();
    }
    await stack.gateway.observability.tracing!.flush();
    for (const { traceId, parent } of callers) {
      const operation = receiver.spans.filter((s) => s.traceId === traceId && s.name === 'query FindEntities');
      expect(operation).toHaveLength(1);
      expect(operation[0]!.parentSpanId).toBe(parent);
      const upstream = receiver.spans.filter((s) => s.parentSpanId === operation[0]!.spanId);
      expect(upstream.length).toBeGreaterThan(0);
      for (const s of upstream) expect(s.traceId).toBe(traceId);
    }
    // A malformed traceparent starts a trace of the gateway's own.
    const client = await modernClient([url]);
    await client.client.callTool({ name: 'AccountBudget', arguments: {}, _meta: { traceparent: 'not-a-trace' } });
    await client.close();
    await stack.gateway.observability.tracing!.flush();
    const own = receiver.spans.filter((s) => s.name === 'query AccountBudget');
    expect(own).toHaveLength(1);
    expect(own[0]!.parentSpanId).toBeUndefined();
  });
});
