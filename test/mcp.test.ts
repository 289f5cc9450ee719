/**
 * /mcp with the official clients of both protocol generations (SDK 2.x for 2026-07-28, SDK 1.x for
 * 2025-11-25) over Streamable HTTP, against the gateway on a socket and the emulators behind it:
 * every tool called, the tool list (cache hints, order, schemas a model can use), costs in
 * descriptions and results, arguments checked in the tool's words, the budget's answer (a task or
 * an error), confirmations before deletes, cache repeats, paging with cursors, and retried creates.
 */
import {
  discoverOAuthProtectedResourceMetadata,
  extractResourceMetadataUrl,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEV_AUDIENCE, DevIssuer } from '../src/identity/dev-issuer.js';
import { legacyClient, modernClient, raw, type Structured, type ToolClient } from './support/mcp-clients.js';
import { countRequests, startStack, type Stack } from './support/stack.js';

async function mcpUrl(stack: Stack): Promise<string> {
  return (await stack.listen()).replace(/\/graphql$/, '/mcp');
}

async function connect(stack: Stack, headers: Record<string, string> = {}): Promise<ToolClient> {
  return modernClient([await mcpUrl(stack)], { headers });
}

function postMcp(
  url: string,
  token?: string,
  body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list' },
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

const call = (client: ToolClient, name: string, args: Record<string, unknown> = {}) => client.call(name, args);
const apiKey = (name: string, key: string, permissions: string) =>
  `${name}|${createHash('sha256').update(key).digest('hex')}|${permissions}`;

describe('MCP endpoint', () => {
  let stack: Stack;
  let client: ToolClient;
  beforeAll(async () => {
    stack = await startStack({ env: { MCP_MUTATIONS: 'true' } });
    client = await connect(stack);
  });
  afterAll(() => client?.close());

  it('lists 10 to 16 tools in at most 32 KB, sorted, private for 5 minutes, each naming its estimated upstream calls', async () => {
    const listed = (await raw(await mcpUrl(stack), 'tools/list')).body.result!;
    expect(listed).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'private' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual((listed.tools as { name: string }[]).map((t) => t.name));
    expect(tools.map((t) => t.name)).toEqual(tools.map((t) => t.name).sort());
    expect(tools.length).toBeGreaterThanOrEqual(10);
    expect(tools.length).toBeLessThanOrEqual(16);
    expect(JSON.stringify(tools).length).toBeLessThanOrEqual(32 * 1024);
    for (const t of tools) {
      expect(t.description).toMatch(/Estimated upstream calls: \d/);
      expect(t.outputSchema.type).toBe('object');
    }
    const find = tools.find((t) => t.name === 'FindEntities')!;
    expect(find.annotations?.readOnlyHint).toBe(true);
    expect(find.inputSchema.properties).toHaveProperty('cursor');
    expect((find.inputSchema.properties as Record<string, { description?: string }>).kind?.description).toMatch(/kind/);
    expect(tools.find((t) => t.name === 'RegisterEntity')!.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: true,
    });
    expect(tools.find((t) => t.name === 'DeleteEntity')!.annotations).toMatchObject({ destructiveHint: true });
  });

  it('writes schemas for models: JSON Schema 2020-12, every argument described by itself, one type per schema', async () => {
    const { tools } = await client.listTools();
    const seen: string[] = [];
    const walk = (node: Record<string, unknown>, at: string) => {
      expect(Array.isArray(node.type), `${at}: a type array`).toBe(false);
      expect(
        Object.keys(node).some((k) => ['type', 'anyOf', 'enum', 'properties', 'items'].includes(k)),
        at,
      ).toBe(true);
      for (const [k, v] of Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>))
        walk(v, `${at}.${k}`);
      for (const v of (node.anyOf ?? []) as Record<string, unknown>[]) walk(v, `${at}|`);
      if (node.items) walk(node.items as Record<string, unknown>, `${at}[]`);
    };
    for (const t of tools as {
      name: string;
      inputSchema: Record<string, unknown>;
      outputSchema: Record<string, unknown>;
    }[]) {
      for (const s of [t.inputSchema, t.outputSchema])
        expect(s.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      walk(t.inputSchema, `${t.name} in`);
      walk(t.outputSchema, `${t.name} out`);
      for (const [name, arg] of Object.entries(t.inputSchema.properties as Record<string, { description?: string }>)) {
        expect(arg.description, `${t.name}.${name}`).toBeTruthy();
        seen.push(arg.description!);
      }
    }
    // No generic input-object description stands for several arguments.
    expect(seen.filter((d) => /^The (new record|link to create)\.$/.test(d))).toEqual([]);
  });

  it('refuses an unknown argument naming the known ones, and a mistyped one naming what it takes, sending nothing', async () => {
    stack.clearRequests();
    const unknown = await call(client, 'FindEntities', { kinds: 'MODEL' });
    expect(unknown.isError).toBe(true);
    expect(unknown.out.error).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(unknown.out.error!.message).toBe(
      '"kinds" is not an argument; the arguments are cursor, limit, kind, search, stage.',
    );
    const typed = await call(client, 'LinkEntities', {
      entity1: { id: 'a' },
      entity2: { id: 5 },
      relationshipType: 'x',
    });
    expect(typed.out.error!.message).toBe('entity2.id must be a string (got 5).');
    const kind = await call(client, 'RegisterEntity', { kind: 'ROBOT', name: 'x', organizationId: 'y' });
    expect(kind.out.error!.message).toMatch(/^kind must be one of AI_AGENT, .*\(got "ROBOT"\)\.$/);
    expect(countRequests(stack.governance) + countRequests(stack.calendar)).toBe(0);
  });

  it("speaks the tool's words in errors from the graph: an argument's name, not its input path", async () => {
    const bad = await call(client, 'FindEvents', { startsAfter: 'next tuesday' });
    expect(bad.isError).toBe(true);
    expect(bad.out.error!.message).toMatch(/^"startsAfter": .*got "next tuesday"/);
    expect(bad.out.error!.message).not.toMatch(/filter\.|\$|Input/);
    // An input field spread into arguments: `input.name` is the tool's `name`.
    const organizations = (await call(client, 'DescribeGovernanceModel')).out.data!.organizations as { id: string }[];
    const long = await call(client, 'RegisterEntity', {
      kind: 'DATASET',
      name: 'x'.repeat(300),
      organizationId: organizations[0]!.id,
    });
    expect(long.out.error!.message).toMatch(/\bname\b/);
    expect(long.out.error!.message).not.toMatch(/input\.|\$/);
    const stage = await call(client, 'FindEntities', { stage: 'No such stage' });
    expect(stage.out.error!.message).toMatch(/stage/);
    expect(stage.out.error!.message).not.toMatch(/\$stage/);
  });

  it('filters FindEntities by workflow stage', async () => {
    const all = await call(client, 'FindEntities', { kind: 'AI_SYSTEM', limit: 20 });
    const stage = (all.out.items![0]!.workflowStage as { name: string }).name;
    const some = await call(client, 'FindEntities', { kind: 'AI_SYSTEM', stage, limit: 20 });
    expect(some.isError, JSON.stringify(some.out)).toBe(false);
    expect(some.out.items!.length).toBeGreaterThan(0);
    for (const e of some.out.items!) expect((e.workflowStage as { name: string }).name).toBe(stage);
  });

  it('a conflict gives the current version to retry with', async () => {
    const organizationId = (await call(client, 'DescribeGovernanceModel')).out.data!.organizations as { id: string }[];
    const created = await call(client, 'RegisterEntity', {
      kind: 'DATASET',
      name: 'Zz conflict dataset',
      organizationId: organizationId[0]!.id,
    });
    const { id, version } = created.out.data!.createEntity as { id: string; version: string };
    expect(
      (await call(client, 'UpdateEntity', { id, name: 'Zz conflict dataset 2', expectedVersion: version })).isError,
    ).toBe(false);
    const stale = await call(client, 'UpdateEntity', { id, name: 'Zz conflict dataset 3', expectedVersion: version });
    expect(stale.out.error).toMatchObject({ code: 'CONFLICT' });
    const current = ((await call(client, 'GetEntity', { id })).out.data!.entity as { version: string }).version;
    expect(stale.out.error!.currentVersion).toBe(current);
    expect(stale.out.error!.message).toContain(current);
    const retried = await call(client, 'UpdateEntity', { id, name: 'Zz conflict dataset 3', expectedVersion: current });
    expect(retried.isError, JSON.stringify(retried.out)).toBe(false);
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
    const moved = await call(client, 'MoveEntityToStage', { id: newId, stage: stages.at(-1)!.name });
    expect(moved.isError).toBe(false);
    const fresh = (await call(client, 'GetEntity', { id: newId })).out.data!.entity as { version: string };
    const updated = await call(client, 'UpdateEntity', {
      id: newId,
      name: 'MCP renamed system',
      expectedVersion: fresh.version,
    });
    expect((updated.out.data!.updateEntity as { name: string }).name).toBe('MCP renamed system');
    const event = await call(client, 'CreateEvent', {
      title: 'MCP event',
      startDate: '2027-03-01T10:00:00Z',
      endDate: '2027-03-01T11:00:00Z',
    });
    const created2 = event.out.data!.createEvent as { id: string; version: string };
    const changed = await call(client, 'UpdateEvent', {
      id: created2.id,
      title: 'MCP event, moved',
      expectedVersion: created2.version,
    });
    expect((changed.out.data!.updateEvent as { title: string }).title).toBe('MCP event, moved');
    for (const r of [link, moved, updated, changed]) expect(r.isError, JSON.stringify(r.out)).toBe(false);
    // The deletes ask first: this client cannot ask its user, so it is told how to confirm.
    const links = (await call(client, 'GetEntity', { id: newId })).out.data!.entity as {
      links: { nodes: { id: string; relationshipType: { id: string } }[] };
    };
    const { id: linkId, relationshipType } = links.links.nodes[0]!;
    for (const [name, args] of [
      ['UnlinkEntities', { linkId, linkTypeId: relationshipType.id }],
      ['DeleteEntity', { id: newId }],
      ['DeleteEvent', { id: created2.id }],
    ] as const) {
      const asked = await call(client, name, args);
      expect(asked.out.error, name).toMatchObject({ code: 'CONFIRMATION_REQUIRED' });
      const done = await call(client, name, { ...args, confirmation: asked.out.error!.confirmation });
      expect(done.isError, JSON.stringify(done.out)).toBe(false);
    }
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
    expect((await call(client, 'FindEntities', { limit: 5 })).out.items).toHaveLength(5);
    expect((await call(client, 'FindEntities', { limit: 20 })).out.error!.message).toBe(
      'limit must be at most 5 (got 20).',
    );
    const refused = await call(client, 'RegisterEntity', { kind: 'DATASET', name: 'x', organizationId: 'y' });
    expect(refused.isError, JSON.stringify(refused)).toBe(true);
    expect(refused.out.error).toMatchObject({ code: 'NOT_FOUND' });
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
    // A 2025-11-25 client knows no tasks: it gets the error.
    const legacy = await legacyClient([await mcpUrl(stack)]);
    const refused = await legacy.call('FindEntities', { limit: 1, search: 'c' });
    const took = performance.now() - started;
    expect(refused.isError).toBe(true);
    expect(refused.out.error).toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused.out.error!.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.out.error!.message).toMatch(/Retry this call after \d+ s/);
    expect(took).toBeLessThan(1000);
    expect(countRequests(stack.governance)).toBe(0);
    await Promise.all([client.close(), legacy.close()]);
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
        MCP_STATE_KEY: 'a-test-key-of-at-least-32-bytes-long!',
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
    expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token", .*resource_metadata="http:/);
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
    expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token", .*resource_metadata=/);
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

describe('MCP endpoint, tools by permission and the scope to ask for', () => {
  const key = 'key-of-the-calendar-bot';
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      env: {
        MCP_MUTATIONS: 'true',
        AUTH_ANONYMOUS: 'none',
        AUTH_API_KEYS: apiKey('calendar-bot', key, 'calendar:read'),
      },
    });
  });

  it('a calendar-only agent lists no governance tool, and a call of one is 403 insufficient_scope naming governance:read', async () => {
    const url = await mcpUrl(stack);
    const headers = { authorization: `Bearer ${key}` };
    for (const client of [await modernClient([url], { headers }), await legacyClient([url], headers)]) {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['AccountBudget', 'FindEvents', 'GetEvent']);
      await client.close();
    }
    stack.clearRequests();
    const refused = await raw(url, 'tools/call', { name: 'FindEntities', arguments: {} }, headers);
    expect(refused.status).toBe(403);
    expect(refused.body.error!.message).toMatch(/FindEntities needs the permission governance:read/);
    const challenge = (
      await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'DeleteEntity', arguments: { id: 'x' } },
        }),
      })
    ).headers.get('www-authenticate');
    expect(challenge).toMatch(
      /^Bearer realm="gateway", error="insufficient_scope", scope="governance:delete", resource_metadata="http:/,
    );
    expect(countRequests(stack.governance) + countRequests(stack.calendar)).toBe(0);
  });

  it('the 401 names the smallest scope for the call, from the Mcp-Method and Mcp-Name headers alone', async () => {
    const url = await mcpUrl(stack);
    const list = await postMcp(url);
    expect(list.status).toBe(401);
    expect(list.headers.get('www-authenticate')).toMatch(/scope="calendar:read governance:read"/);
    const call = await raw(url, 'tools/call', { name: 'MoveEntityToStage', arguments: {} });
    expect(call.status).toBe(401);
    const challenge = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-method': 'tools/call', 'mcp-name': 'DeleteEvent' },
      body: '{}',
    });
    expect(challenge.headers.get('www-authenticate')).toMatch(/scope="calendar:write"/);
  });
});

describe('MCP endpoint, confirmation before what cannot be undone', () => {
  let stack: Stack;
  const audit: string[] = [];
  beforeAll(async () => {
    stack = await startStack({
      env: { MCP_MUTATIONS: 'true' },
      gateway: { audit: { sink: (line) => audit.push(line) } },
    });
  });

  async function someModel(client: ToolClient): Promise<string> {
    const found = await client.call('FindEntities', { kind: 'MODEL', limit: 20 });
    return found.out.items!.at(-1)!.id as string;
  }

  it('a 2026-07-28 client is asked (price shown) and nothing is sent upstream until the user agrees', async () => {
    const asked: { message: string; deletes: number }[] = [];
    const client = await modernClient([await mcpUrl(stack)], {
      confirm: (message) => {
        asked.push({ message, deletes: countRequests(stack.governance, /^DELETE /) });
        return true;
      },
    });
    const id = await someModel(client);
    stack.clearRequests();
    audit.length = 0;
    const deleted = await client.call('DeleteEntity', { id });
    expect(deleted.isError, JSON.stringify(deleted.out)).toBe(false);
    expect(deleted.out.data).toEqual({ deleteEntity: { deletedId: id } });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.deletes).toBe(0);
    expect(asked[0]!.message).toMatch(
      new RegExp(
        `Delete entity with \\{"id":"${id}"\\}: .*cannot be undone.*Estimated upstream calls: \\d+ governance`,
      ),
    );
    expect(countRequests(stack.governance, /^DELETE /)).toBe(1);
    const events = audit.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.filter((e) => e.tool === 'DeleteEntity')).toMatchObject([
      { outcome: 'applied', confirmed: 'elicitation' },
    ]);
    await client.close();
  });

  it('a user who declines sends nothing', async () => {
    const client = await modernClient([await mcpUrl(stack)], { confirm: () => false });
    const id = await someModel(client);
    stack.clearRequests();
    const declined = await client.call('DeleteEntity', { id });
    expect(declined.out.error).toMatchObject({ code: 'CANCELLED' });
    expect(countRequests(stack.governance, /^DELETE /)).toBe(0);
    await client.close();
  });

  it('a 2025-11-25 client gets the question with a confirmation token, bound to the call', async () => {
    const client = await legacyClient([await mcpUrl(stack)]);
    const id = await someModel(client);
    stack.clearRequests();
    const asked = await client.call('DeleteEntity', { id });
    expect(asked.out.error).toMatchObject({ code: 'CONFIRMATION_REQUIRED' });
    expect(asked.out.error!.message).toMatch(/Estimated upstream calls: \d+ governance/);
    const other = await client.call('DeleteEntity', {
      id: 'another-record',
      confirmation: asked.out.error!.confirmation,
    });
    expect(other.out.error).toMatchObject({ code: 'CONFIRMATION_INVALID' });
    const forged = await client.call('DeleteEntity', { id, confirmation: `${asked.out.error!.confirmation}x` });
    expect(forged.out.error).toMatchObject({ code: 'CONFIRMATION_INVALID' });
    expect(countRequests(stack.governance, /^DELETE /)).toBe(0);
    const done = await client.call('DeleteEntity', { id, confirmation: asked.out.error!.confirmation });
    expect(done.isError, JSON.stringify(done.out)).toBe(false);
    expect(countRequests(stack.governance, /^DELETE /)).toBe(1);
    await client.close();
  });
});

describe('MCP endpoint, a task when the budget is short (an injected clock)', () => {
  afterEach(() => void vi.useRealTimers());

  it('returns a working task polled when the budget frees; it completes with its cost, and a cancelled one spends nothing', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    const stack = await startStack({
      env: {
        GOVERNANCE_RATE_LIMITS: 'minute:3,hour:1000',
        GOVERNANCE_RATE_MARGIN: '1',
        UPSTREAM_QUEUE_DEADLINE_MS: '100',
      },
    });
    const url = await mcpUrl(stack);
    const client = await modernClient([url]);
    await client.call('FindEntities', { limit: 1, search: 'a' });
    await client.call('FindEntities', { limit: 1, search: 'b' });
    stack.clearRequests();
    const deferred = (await raw(url, 'tools/call', { name: 'FindEntities', arguments: { limit: 1, search: 'c' } })).body
      .result!;
    const cancelled = (await raw(url, 'tools/call', { name: 'FindEntities', arguments: { limit: 1, search: 'd' } }))
      .body.result!;
    for (const t of [deferred, cancelled])
      expect(t).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 900_000 });
    const wait = deferred.pollIntervalMs as number;
    expect(wait).toBeGreaterThan(100);
    expect(wait).toBeLessThanOrEqual(70_000);
    const taskId = deferred.taskId as string;
    expect((await raw(url, 'tasks/get', { taskId })).body.result).toMatchObject({ status: 'working' });
    expect((await raw(url, 'tasks/cancel', { taskId: cancelled.taskId })).body.result).toMatchObject({
      resultType: 'complete',
    });
    expect(countRequests(stack.governance)).toBe(0);

    vi.setSystemTime(Date.now() + wait + 1);
    const done = (await raw(url, 'tasks/get', { taskId })).body.result!;
    expect(done).toMatchObject({ resultType: 'complete', status: 'completed' });
    const result = done.result as { structuredContent: Structured };
    expect(result.structuredContent.items).toHaveLength(1);
    expect(result.structuredContent.cost!.calls.governance).toBeGreaterThan(0);
    const spent = countRequests(stack.governance);
    expect(spent).toBeGreaterThan(0);
    expect((await raw(url, 'tasks/get', { taskId: cancelled.taskId })).body.result).toMatchObject({
      status: 'cancelled',
    });
    expect((await raw(url, 'tasks/get', { taskId })).body.result).toMatchObject({ status: 'completed' });
    expect(countRequests(stack.governance)).toBe(spent);
    expect((await raw(url, 'tasks/get', { taskId: 'no-such-task' })).body.error!.message).toMatch(/no task/);
    await client.close();
  });
});

describe('MCP endpoint, batches and the body limit', () => {
  it('refuses a JSON-RPC batch while batching is off, bounds it by GRAPHQL_MAX_BATCH, and answers 413 over 1 MiB', async () => {
    const off = await mcpUrl(await startStack());
    const two = [1, 2].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/list' }));
    const refused = await postMcp(off, undefined, two);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /batches are not accepted/,
    );
    const bounded = await mcpUrl(await startStack({ env: { GRAPHQL_MAX_BATCH: '5' } }));
    const six = [1, 2, 3, 4, 5, 6].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/list' }));
    const over = await postMcp(bounded, undefined, six);
    expect(over.status).toBe(400);
    expect(((await over.json()) as { error: { message: string } }).error.message).toMatch(/at most 5 requests/);
    expect((await postMcp(bounded, undefined, two)).status).toBe(200);
    const big = await postMcp(off, undefined, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { pad: 'x'.repeat(1024 * 1024) },
    });
    expect(big.status).toBe(413);
  });
});

describe('MCP endpoint, settings of confirmation', () => {
  it('MCP_CONFIRM_ABOVE_CALLS: a call estimated above it asks first, showing its price, and sends nothing until confirmed', async () => {
    const stack = await startStack({ env: { MCP_CONFIRM_ABOVE_CALLS: '1' } });
    const client = await legacyClient([await mcpUrl(stack)]);
    const id = (await client.call('FindEntities', { limit: 1 })).out.items![0]!.id; // 1 call: never asks
    stack.clearRequests();
    const asked = await client.call('GetEntity', { id });
    expect(asked.out.error).toMatchObject({ code: 'CONFIRMATION_REQUIRED' });
    expect(asked.out.error!.message).toMatch(
      /more than the 1 that run without asking.*Estimated upstream calls: \d+ governance/,
    );
    expect(countRequests(stack.governance)).toBe(0);
    const done = await client.call('GetEntity', { id, confirmation: asked.out.error!.confirmation });
    expect(done.isError, JSON.stringify(done.out)).toBe(false);
    expect((await client.call('AccountBudget')).isError).toBe(false); // 0 calls: never asks
    await client.close();
  });

  it('MCP_STATE_KEY: production, or a development replica (REDIS_URL), with MCP on refuses to start without one every replica shares', async () => {
    const { loadConfig } = await import('../src/config/config.js');
    const production = { NODE_ENV: 'production', MCP: 'true', EMBEDDED_EMULATORS: 'true', LOG_LEVEL: 'silent' };
    expect(() => loadConfig(production)).toThrow(/MCP_STATE_KEY is required in production while MCP is on/);
    expect(() => loadConfig({ ...production, MCP_STATE_KEY: 'short' })).toThrow(
      /MCP_STATE_KEY must be at least 32 bytes/,
    );
    expect(loadConfig({ ...production, MCP_STATE_KEY: 'k'.repeat(32) }).mcp.stateKey).toBe('k'.repeat(32));
    // npm start with REDIS_URL is one of several replicas: they must share the key too.
    const replica = { NODE_ENV: 'development', REDIS_URL: 'redis://127.0.0.1:6379', LOG_LEVEL: 'silent' };
    expect(() => loadConfig(replica)).toThrow(/MCP_STATE_KEY is required with REDIS_URL while MCP is on/);
    expect(loadConfig({ ...replica, MCP: 'false' }).mcp.enabled).toBe(false);
    expect(loadConfig({ ...replica, MCP_STATE_KEY: 'k'.repeat(32) }).mcp.stateKey).toBe('k'.repeat(32));
    // A single development process makes up a key of its own.
    expect(loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent' }).mcp.stateKey).toMatch(/^[0-9a-f]{64}$/);
  });
});
