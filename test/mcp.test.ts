/**
 * /mcp with the SDK's own client over Streamable HTTP, against the gateway on a socket and the
 * emulators behind it: every tool called, the tool list's size, costs in descriptions and results,
 * the budget refusal, cache repeats, paging with cursors, and retried creates.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  discoverOAuthProtectedResourceMetadata,
  extractResourceMetadataUrl,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_AUDIENCE, DevIssuer } from '../src/identity/dev-issuer.js';
import { countRequests, startStack, type Stack } from './support/stack.js';

type Structured = Record<string, unknown> & {
  cost?: { calls: Record<string, number>; budgetLeft: Record<string, number> };
  items?: Record<string, unknown>[];
  nextCursor?: string | null;
  hasNextPage?: boolean;
  truncated?: boolean;
  data?: Record<string, unknown>;
  error?: { code?: string; message: string; retryAfter?: number };
};

async function connect(stack: Stack, headers: Record<string, string> = {}): Promise<Client> {
  const url = new URL((await stack.listen()).replace(/\/graphql$/, '/mcp'));
  const client = new Client({ name: 'mcp-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

function postMcp(url: string, token?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const res = await client.callTool({ name, arguments: args });
  return { isError: Boolean(res.isError), out: res.structuredContent as Structured, text: res.content };
}

describe('MCP endpoint', () => {
  let stack: Stack;
  let client: Client;
  beforeAll(async () => {
    stack = await startStack({ env: { MCP_MUTATIONS: 'true' } });
    client = await connect(stack);
  });
  afterAll(() => client?.close());

  it('lists 10 to 16 tools in at most 32 KB, each naming its estimated upstream calls', async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(10);
    expect(tools.length).toBeLessThanOrEqual(16);
    expect(JSON.stringify(tools).length).toBeLessThanOrEqual(32 * 1024);
    for (const t of tools) {
      expect(t.description).toMatch(/Estimated upstream calls: \d/);
      expect(t.outputSchema?.type).toBe('object');
    }
    const find = tools.find((t) => t.name === 'FindEntities')!;
    expect(find.annotations?.readOnlyHint).toBe(true);
    expect(find.inputSchema.properties).toHaveProperty('cursor');
    expect((find.inputSchema.properties as Record<string, { description?: string }>).kind?.description).toMatch(/kind/);
    expect(tools.find((t) => t.name === 'RegisterEntity')!.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: true,
    });
  });

  it('calls every tool; each result reports the calls spent and the budget left', async () => {
    const found = await call(client, 'FindEntities', { kind: 'AI_SYSTEM', limit: 3 });
    expect(found.isError).toBe(false);
    expect(found.out.items).toHaveLength(3);
    expect(found.out.cost!.calls.governance).toBeGreaterThan(0);
    expect(found.out.cost!.budgetLeft.governance).toBeGreaterThan(0);
    const id = found.out.items![0]!.id as string;
    const entity = (await call(client, 'GetEntity', { id })).out.data!.entity as Record<string, unknown>;
    expect(entity.id).toBe(id);
    const model = (await call(client, 'DescribeGovernanceModel')).out.data as {
      entityTypes: { nodes: { kind: string; workflow: { stages: { name: string }[] } | null }[] };
      relationshipTypes: { name: string; ends: { firstKind: string | null; secondKind: string | null }[] }[];
      organizations: { id: string; name: string | null }[];
    };
    expect(model.organizations.map((o) => o.id)).toContain(entity.organizationId);
    // The relationship type that may link two AI systems, as an agent would pick it.
    const composition = model.relationshipTypes.find((r) =>
      r.ends.some((e) => e.firstKind === 'AI_SYSTEM' && e.secondKind === 'AI_SYSTEM'),
    )!;
    const stages = model.entityTypes.nodes.find((t) => t.kind === 'AI_SYSTEM')!.workflow!.stages;
    const events = await call(client, 'FindEvents', { limit: 2 });
    expect(events.out.items).toHaveLength(2);
    const eventId = events.out.items![0]!.id as string;
    expect(((await call(client, 'GetEvent', { id: eventId })).out.data!.event as { id: string }).id).toBe(eventId);
    const budget = await call(client, 'AccountBudget');
    expect(budget.out.data!.budget).toHaveLength(2);

    const created = await call(client, 'RegisterEntity', {
      kind: 'AI_SYSTEM',
      name: 'MCP registered system',
      organizationId: entity.organizationId,
    });
    expect(created.isError).toBe(false);
    const newId = (created.out.data!.createEntity as { id: string }).id;
    const link = await call(client, 'LinkEntities', {
      entity1: { id: newId },
      entity2: { id: found.out.items![1]!.id },
      relationshipType: composition.name,
    });
    expect(link.out.data!.createLink).toMatchObject({
      entity1: { id: newId },
      entity2: { id: found.out.items![1]!.id },
    });
    const moved = await call(client, 'MoveEntityToStage', {
      input: { entityId: newId, nextStageName: stages.at(-1)!.name },
    });
    expect(moved.isError).toBe(false);
    const fresh = (await call(client, 'GetEntity', { id: newId })).out.data!.entity as { version: string };
    const updated = await call(client, 'UpdateEntity', {
      id: newId,
      input: { name: 'MCP renamed system' },
      expectedVersion: fresh.version,
    });
    expect((updated.out.data!.updateEntity as { name: string }).name).toBe('MCP renamed system');
    const event = await call(client, 'CreateEvent', {
      input: { title: 'MCP event', startDate: '2027-03-01T10:00:00Z', endDate: '2027-03-01T11:00:00Z' },
    });
    const created2 = event.out.data!.createEvent as { id: string; version: string };
    const changed = await call(client, 'UpdateEvent', {
      id: created2.id,
      input: { title: 'MCP event, moved' },
      expectedVersion: created2.version,
    });
    expect((changed.out.data!.updateEvent as { title: string }).title).toBe('MCP event, moved');
    for (const r of [link, moved, updated, changed]) expect(r.isError, JSON.stringify(r.out)).toBe(false);
  });

  it('a repeated call within the cache freshness costs 0 upstream requests', async () => {
    const args = { kind: 'DATASET', search: 'a', limit: 5 };
    await call(client, 'FindEntities', args);
    stack.clearRequests();
    const again = await call(client, 'FindEntities', args);
    expect(again.out.items!.length).toBeGreaterThan(0);
    expect(countRequests(stack.governance)).toBe(0);
    expect(again.out.cost!.calls.governance).toBe(0);
  });

  it('a create retried three times with the same call makes one record', async () => {
    const organizationId = ((await call(client, 'FindEntities', { limit: 1 })).out.items![0] as { id: string }).id;
    const entity = (await call(client, 'GetEntity', { id: organizationId })).out.data!.entity as {
      organizationId: string;
    };
    stack.clearRequests();
    const args = { kind: 'DATASET', name: 'MCP retried dataset', organizationId: entity.organizationId };
    const ids = new Set<unknown>();
    for (let i = 0; i < 3; i++)
      ids.add(((await call(client, 'RegisterEntity', args)).out.data!.createEntity as { id: string }).id);
    expect(ids.size).toBe(1);
    expect(countRequests(stack.governance, /^POST .*entities$/)).toBe(1);
  });

  it('walks 200 records in 10 calls with cursors, never over the caps, never cut silently', async () => {
    const seen = new Set<string>();
    let cursor: string | null | undefined;
    let calls = 0;
    do {
      const page = await call(client, 'FindEntities', cursor ? { cursor } : {});
      calls++;
      expect(page.out.items!.length).toBeLessThanOrEqual(20);
      expect(JSON.stringify(page.out).length).toBeLessThanOrEqual(25_000);
      for (const e of page.out.items!) seen.add(e.id as string);
      cursor = page.out.nextCursor;
      expect(page.out.hasNextPage).toBe(Boolean(cursor));
    } while (cursor && seen.size < 200);
    expect(seen.size).toBe(200);
    expect(calls).toBe(10);
  });

  it('a list over the character cap is cut with truncated: true and the cursor of its last record', async () => {
    const small = await startStack({ configure: (c) => ({ ...c, mcp: { ...c.mcp, maxChars: 1000 } }) });
    const c = await connect(small);
    const first = await call(c, 'FindEntities', { limit: 20 });
    expect(first.out.truncated).toBe(true);
    expect(JSON.stringify(first.out).length).toBeLessThanOrEqual(1000);
    const n = first.out.items!.length;
    expect(n).toBeLessThan(20);
    const next = await call(c, 'FindEntities', { limit: 20, cursor: first.out.nextCursor });
    const all = await call(client, 'FindEntities', { limit: 20 });
    expect(next.out.items![0]!.id).toBe(all.out.items![n]!.id);
    // The longest page that fits: with the next record (and its cursor) the same result is over the cap.
    const after = await call(c, 'FindEntities', { limit: 1, cursor: first.out.nextCursor });
    const longer = { ...first.out, items: all.out.items!.slice(0, n + 1), nextCursor: after.out.nextCursor };
    expect(JSON.stringify(longer).length).toBeGreaterThan(1000);
    await c.close();
  });
});

describe('MCP endpoint, settings', () => {
  it('write tools are listed only with MCP_MUTATIONS=true; the record cap caps a list', async () => {
    const stack = await startStack({ configure: (c) => ({ ...c, mcp: { ...c.mcp, maxRecords: 5 } }) });
    const client = await connect(stack);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['AccountBudget', 'DescribeGovernanceModel', 'FindEntities', 'FindEvents', 'GetEntity', 'GetEvent'].sort(),
    );
    expect((await call(client, 'FindEntities', { limit: 20 })).out.items).toHaveLength(5);
    const refused = await call(client, 'RegisterEntity', { kind: 'DATASET', name: 'x', organizationId: 'y' });
    expect(refused.isError).toBe(true);
    await client.close();
  });

  it('with PERSISTED_OPERATIONS=only the tools still run: they are in the safelist', async () => {
    const stack = await startStack({ env: { PERSISTED_OPERATIONS: 'only' } });
    const client = await connect(stack);
    const found = await call(client, 'FindEntities', { limit: 2 });
    expect(found.isError, JSON.stringify(found.out)).toBe(false);
    expect(found.out.items).toHaveLength(2);
    const raw = await stack.query('{ entities(first: 1) { nodes { id } } }');
    expect(raw.errors?.[0]?.message).toMatch(/persisted/i);
    await client.close();
  });

  it('a tool call is a GraphQL execution whose context names the tool (for the logs and the audit)', async () => {
    const seen: unknown[] = [];
    const stack = await startStack({
      gateway: {
        extraPlugins: [{ onExecute: ({ args }) => void seen.push((args.contextValue as { mcp?: unknown }).mcp) }],
      },
    });
    const client = await connect(stack);
    expect((await call(client, 'AccountBudget')).isError).toBe(false);
    expect(seen).toEqual([{ tool: 'AccountBudget' }]);
    await client.close();
  });

  it('every tool call, a read or a write, leaves an audit event naming the agent and the tool', async () => {
    const key = 'key-of-the-inventory-bot';
    const lines: string[] = [];
    const stack = await startStack({
      env: {
        MCP_MUTATIONS: 'true',
        AUTH_API_KEYS: `inventory-bot|${createHash('sha256').update(key).digest('hex')}|governance:read governance:write`,
      },
      gateway: { audit: { sink: (line) => lines.push(line) } },
    });
    const client = await connect(stack, { authorization: `Bearer ${key}` });
    const send = async (name: string, args: Record<string, unknown>) => (await call(client, name, args)).out;
    const found = await send('FindEntities', { limit: 1 });
    const entity = (await send('GetEntity', { id: found.items![0]!.id })).data!.entity as { organizationId: string };
    await send('RegisterEntity', { kind: 'DATASET', name: 'Audited dataset', organizationId: entity.organizationId });
    const events = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.map((e) => [e.tool, e.operation, e.outcome])).toEqual([
      ['FindEntities', 'FindEntities', 'applied'],
      ['GetEntity', 'GetEntity', 'applied'],
      ['RegisterEntity', 'RegisterEntity', 'applied'],
    ]);
    for (const e of events) expect(e.caller).toMatchObject({ id: 'key:inventory-bot', agent: 'inventory-bot' });
    expect(events[2]!.writes).toMatchObject([{ field: 'createEntity', outcome: 'applied' }]);
    await client.close();
  });

  it('MCP=false: no /mcp', async () => {
    const stack = await startStack({ env: { MCP: 'false' } });
    const url = (await stack.listen()).replace(/\/graphql$/, '/mcp');
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(404);
  });

  it('a call the budget cannot serve before its deadline is a tool error with retryAfter, at once, sending nothing', async () => {
    const stack = await startStack({
      env: {
        GOVERNANCE_RATE_LIMITS: 'minute:3,hour:1000',
        GOVERNANCE_RATE_MARGIN: '1',
        UPSTREAM_QUEUE_DEADLINE_MS: '100',
      },
    });
    const client = await connect(stack);
    await call(client, 'FindEntities', { limit: 1, search: 'a' });
    await call(client, 'FindEntities', { limit: 1, search: 'b' });
    stack.clearRequests();
    const started = performance.now();
    const refused = await call(client, 'FindEntities', { limit: 1, search: 'c' });
    const took = performance.now() - started;
    expect(refused.isError).toBe(true);
    expect(refused.out.error).toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused.out.error!.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.out.error!.message).toMatch(/Retry this call after \d+ s/);
    expect(took).toBeLessThan(1000);
    expect(countRequests(stack.governance)).toBe(0);
    await client.close();
  });
});

describe('MCP endpoint, authentication (production profile, a real JWKS on a socket)', () => {
  let issuer: DevIssuer;
  let stack: Stack;
  beforeAll(async () => {
    issuer = await DevIssuer.start();
    stack = await startStack({
      env: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        MCP: 'true',
        MCP_MUTATIONS: 'true',
        AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE} https://gw.example/mcp|${issuer.jwksUrl}`,
      },
    });
  });
  afterAll(() => issuer?.close());

  it('answers 401 pointing at its resource metadata to a request without credentials, sending nothing upstream', async () => {
    const url = (await stack.listen()).replace(/\/graphql$/, '/mcp');
    stack.clearRequests();
    const res = await postMcp(url);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(extractResourceMetadataUrl(res)?.href).toBe(new URL('/.well-known/oauth-protected-resource/mcp', url).href);
    expect(((await res.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe(
      'UNAUTHENTICATED',
    );
    expect(countRequests(stack.governance) + countRequests(stack.calendar)).toBe(0);
  });

  it('serves RFC 9728 metadata naming the issuer, open to anyone, where the SDK client looks for it', async () => {
    const url = (await stack.listen()).replace(/\/graphql$/, '/mcp');
    const metadata = await discoverOAuthProtectedResourceMetadata(url);
    expect(metadata).toMatchObject({
      resource: url,
      authorization_servers: [issuer.issuer],
      bearer_methods_supported: ['header'],
    });
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['governance:read', 'calendar:write']));
    const bare = await fetch(new URL('/.well-known/oauth-protected-resource', url));
    expect(await bare.json()).toEqual(metadata);
  });

  it('takes only tokens whose audience is the gateway: another audience is 401 invalid_token', async () => {
    const url = (await stack.listen()).replace(/\/graphql$/, '/mcp');
    const elsewhere = await issuer.sign({ sub: 'x', scope: 'governance:read' }, { audience: 'governance-api' });
    const res = await postMcp(url, elsewhere);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token", resource_metadata="http:/);
    // The audience AUTH_ISSUERS lists beside the gateway's name: the /mcp URL a client asks a token for.
    const bound = await issuer.sign({ sub: 'x', scope: 'governance:read' }, { audience: 'https://gw.example/mcp' });
    expect((await postMcp(url, bound)).status).toBe(200);
  });

  it('lists no write tool to a reader token even with MCP_MUTATIONS=true; a writer sees them', async () => {
    const reader = await issuer.sign({ sub: 'reader', scope: 'governance:read calendar:read' });
    const readerClient = await connect(stack, { authorization: `Bearer ${reader}` });
    const { tools } = await readerClient.listTools();
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name)).toEqual([]);
    await readerClient.close();
    const writer = await issuer.sign({ sub: 'writer', scope: 'governance:read governance:write calendar:read' });
    const writerClient = await connect(stack, { authorization: `Bearer ${writer}` });
    const names = (await writerClient.listTools()).tools.map((t) => t.name);
    expect(names).toContain('RegisterEntity');
    await writerClient.close();
  });
});

describe('MCP endpoint, forward auth mode: an agent token never goes upstream', () => {
  const key = 'agent-key-of-the-test';
  const env = {
    GOVERNANCE_AUTH_MODE: 'forward',
    AUTH_ANONYMOUS: 'none',
    AUTH_API_KEYS: `bot|${createHash('sha256').update(key).digest('hex')}|governance:read calendar:read`,
  };

  it("a credential forward mode would pass to the upstream is refused on /mcp (it is not the gateway's)", async () => {
    const stack = await startStack({ env });
    const url = (await stack.listen()).replace(/\/graphql$/, '/mcp');
    const res = await postMcp(url, 'token-of-the-governance-platform');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token", resource_metadata=/);
    expect(countRequests(stack.governance) + countRequests(stack.calendar)).toBe(0);
  });

  it("the forwarded upstream's tools are not offered; other tool calls carry no Authorization", async () => {
    const seen: [string, string | null][] = [];
    const stack = await startStack({
      env,
      gateway: {
        extraPlugins: [
          { onRequest: ({ request, url }) => void seen.push([url.pathname, request.headers.get('authorization')]) },
        ],
      },
    });
    const client = await connect(stack, { authorization: `Bearer ${key}` });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('FindEvents');
    expect(names.filter((n) => /Entit|Governance/.test(n))).toEqual([]);
    seen.length = 0;
    const res = await call(client, 'FindEvents', { limit: 1 });
    expect(res.isError, JSON.stringify(res.out)).toBe(false);
    expect(res.out.items).toHaveLength(1);
    // The MCP request itself, then its tool call's GraphQL request: that one without the agent's key.
    expect(seen).toEqual([
      ['/mcp', `Bearer ${key}`],
      ['/graphql', null],
    ]);
    await client.close();
  });
});
