/**
 * Governance credentials and failures over real HTTP: the client-credentials token is fetched once
 * and reused, fetched again once after a 401, refused credentials and missing scopes become typed
 * errors on the fields they affect, the caller's bearer token can be forwarded instead, and an
 * upstream 5xx costs only the fields that needed it. No error ever carries a token, secret or URL.
 */
import { describe, expect, it, vi } from 'vitest';
import { apiCalls, fetchToken, governanceCalls, tokenCalls } from './support/governance.js';
import { operation as op } from './support/operations.js';
import { DEFAULT_CLIENTS } from '../src/emulators/governance/index.js';
import { startStack, type Stack } from './support/stack.js';

type Any = any;

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** Nothing secret or internal in what a client sees. */
function expectClean(stack: Stack, res: unknown): void {
  const text = JSON.stringify(res);
  const { clientSecret } = stack.config.governance;
  for (const secret of [clientSecret, stack.governance.origin, stack.governance.tokenUrl, 'oauth', 'Bearer ', 'eyJ']) {
    if (secret) expect(text).not.toContain(secret);
  }
}

/** A stack whose gateway uses another of the emulator's clients, or a wrong secret. */
function withClient(which: 'read' | 'write' | 'bad'): Promise<Stack> {
  const client =
    which === 'bad'
      ? { clientId: DEFAULT_CLIENTS.full.clientId, clientSecret: 'not-the-secret' }
      : DEFAULT_CLIENTS[which];
  return startStack({
    configure: (c) => ({
      ...c,
      governance: { ...c.governance, clientId: client.clientId, clientSecret: client.clientSecret },
    }),
  });
}

describe('client credentials', () => {
  it('fetches one token for many operations, as a multipart form, counted in usage', async () => {
    const stack = await startStack();
    const first = await stack.query<Any>(op('EntityTypes'));
    expect(first.errors).toBeUndefined();
    // The token request is one of the operation's upstream requests.
    expect(first.extensions?.cost?.governance?.actual).toBe(2);
    await Promise.all([
      stack.query(op('EntitySearch'), { text: 'a' }),
      stack.query(op('EntitySummaries'), { text: 'b' }),
      stack.query(op('EntitiesOfKind'), { first: 3 }),
    ]);
    expect(tokenCalls(stack)).toHaveLength(1);
    expect(tokenCalls(stack)[0]).toMatchObject({ method: 'POST', status: 200 });
  });

  it('concurrent first operations share one token request', async () => {
    const stack = await startStack();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => stack.query<Any>(op('EntitySearch'), { text: String.fromCharCode(97 + i) })),
    );
    for (const r of results) expect(r.errors).toBeUndefined();
    expect(tokenCalls(stack)).toHaveLength(1);
  });

  it('fetches a new token shortly before the old one expires', async () => {
    const stack = await startStack({ governance: { tokenTtlSeconds: 2 } });
    await stack.query(op('EntityTypes'));
    await stack.query(op('EntitySearch'), { text: 'a' });
    expect(tokenCalls(stack)).toHaveLength(1);
    // Lifetime 2 s, renewed a tenth of it early: at 1.9 s the cached token is no longer used. The
    // clock moves 1.9 s at once instead of sleeping (only Date is faked; timers stay real).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 1_900, shouldAdvanceTime: true });
    let res: Awaited<ReturnType<typeof stack.query<Any>>>;
    try {
      res = await stack.query<Any>(op('EntitySearch'), { text: 'b' });
    } finally {
      vi.useRealTimers();
    }
    expect(res.errors).toBeUndefined();
    expect(tokenCalls(stack)).toHaveLength(2);
    expect(apiCalls(stack).every((r) => r.status === 200)).toBe(true);
  });

  it('after a 401 fetches a new token once and repeats the call', async () => {
    const stack = await startStack();
    await stack.query(op('EntityTypes'));
    stack.clearRequests();
    stack.governance.control.setFaults([{ kind: 'status', status: 401, times: 1, pathPrefix: '/entities/' }]);
    const res = await stack.query<Any>(`{ entity(id: "${UNKNOWN}") { id } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data.entity).toBeNull();
    expect(tokenCalls(stack)).toHaveLength(1);
    expect(apiCalls(stack).map((r) => r.status)).toEqual([401, 400]);
  });

  it('a 401 that persists is UNAUTHENTICATED after exactly one renewal', async () => {
    const stack = await startStack();
    await stack.query(op('EntityTypes'));
    stack.clearRequests();
    stack.governance.control.setFaults([{ kind: 'status', status: 401, pathPrefix: '/entities/' }]);
    const res = await stack.query<Any>(`{ entity(id: "${UNKNOWN}") { id } }`);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED', upstream: 'governance' });
    expect(res.errors?.[0]?.path).toEqual(['entity']);
    expect(tokenCalls(stack)).toHaveLength(1);
    expect(apiCalls(stack)).toHaveLength(2);
    expectClean(stack, res);
  });

  it('refused client credentials are UNAUTHENTICATED without the secret or the token URL', async () => {
    const stack = await withClient('bad');
    const res = await stack.query<Any>(op('EntityTypes'));
    expect(res.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(apiCalls(stack)).toHaveLength(0);
    expectClean(stack, res);
  });
});

describe('scopes', () => {
  it('a read-only client reads the graph but writes are FORBIDDEN naming AI_GOVERNANCE_WRITE', async () => {
    const stack = await withClient('read');
    const graph = await stack.query<Any>(op('EntityGraph'), { first: 2 });
    expect(graph.errors).toBeUndefined();
    const org = (await stack.query<Any>('{ entities(first: 1) { nodes { organizationId } } }')).data.entities.nodes[0]
      .organizationId;
    const res = await stack.query<Any>(op('CreateDataset'), { organizationId: org, name: 'Not allowed' });
    expect(res.errors?.[0]?.extensions).toMatchObject({
      code: 'FORBIDDEN',
      missingScope: 'AI_GOVERNANCE_WRITE',
      upstreamStatus: 403,
    });
    expect(res.errors?.[0]?.message).toContain('AI_GOVERNANCE_WRITE');
    expectClean(stack, res);
    const [a, b] = (
      await stack.query<Any>('{ entities(kind: AI_SYSTEM, first: 2) { nodes { id } } }')
    ).data.entities.nodes.map((n: Any) => n.id);
    for (const [name, vars] of [
      ['MoveToStage', { entityId: a, stage: 'Testing' }],
      ['AddSchemaAttribute', { name: 'Not allowed' }],
      ['AddAttributeOptions', { attributeId: UNKNOWN }],
      ['LinkEntities', { linkTypeId: UNKNOWN, from: a, to: b }],
    ] as const) {
      const write = await stack.query<Any>(op(name), vars);
      expect(write.errors?.[0]?.extensions, name).toMatchObject({
        code: 'FORBIDDEN',
        missingScope: 'AI_GOVERNANCE_WRITE',
      });
    }
  });

  it('a write-only client gets entities but FORBIDDEN links (AI_GOVERNANCE_READ), and cannot delete (AI_GOVERNANCE)', async () => {
    const stack = await withClient('write');
    const res = await stack.query<Any>(op('EntityGraph'), { first: 2 });
    expect(res.data.entities.nodes).toHaveLength(2);
    for (const n of res.data.entities.nodes) {
      expect(n.name).toEqual(expect.any(String));
      expect(n.links).toBeNull();
    }
    expect(res.errors).toHaveLength(2);
    for (const e of res.errors ?? []) {
      expect(e.extensions).toMatchObject({ code: 'FORBIDDEN', missingScope: 'AI_GOVERNANCE_READ' });
      expect(e.path?.at(-1)).toBe('links');
    }
    const del = await stack.query<Any>(op('DeleteEntity'), { id: UNKNOWN });
    expect(del.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', missingScope: 'AI_GOVERNANCE' });
    const unlink = await stack.query<Any>(op('UnlinkEntities'), { id: UNKNOWN, linkTypeId: UNKNOWN });
    expect(unlink.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', missingScope: 'AI_GOVERNANCE' });
    expect(unlink.errors?.[0]?.path).toEqual(['deleteLink']);
    expectClean(stack, res);
  });
});

describe('forwarded bearer tokens', () => {
  const forward = () =>
    startStack({ configure: (c) => ({ ...c, governance: { ...c.governance, authMode: 'forward' } }) });

  it("passes the caller's token through and never requests one itself", async () => {
    const stack = await forward();
    const token = await fetchToken(stack);
    stack.clearRequests();
    const res = await stack.query<Any>(op('EntitySearch'), { text: 'Fraud' }, { authorization: `Bearer ${token}` });
    expect(res.errors).toBeUndefined();
    expect(res.data.entities.totalCount).toBeGreaterThan(0);
    expect(tokenCalls(stack)).toHaveLength(0);
    expect(apiCalls(stack)).toHaveLength(1);
  });

  it('without a bearer token is UNAUTHENTICATED with no upstream call; a bad one is UNAUTHENTICATED', async () => {
    const stack = await forward();
    const none = await stack.query<Any>(op('EntitySearch'), { text: 'x' });
    expect(none.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(governanceCalls(stack)).toHaveLength(0);
    const bad = await stack.query<Any>(op('EntitySearch'), { text: 'x' }, { authorization: 'Bearer not-a-token' });
    expect(bad.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(apiCalls(stack)).toHaveLength(1);
    expect(JSON.stringify(bad)).not.toContain('not-a-token');
  });

  it('does not share cached answers between callers with different tokens', async () => {
    const stack = await forward();
    const [a, b] = [await fetchToken(stack), await fetchToken(stack)];
    stack.clearRequests();
    await stack.query(op('EntityTypes'), {}, { authorization: `Bearer ${a}` });
    const again = await stack.query<Any>(op('EntityTypes'), {}, { authorization: `Bearer ${a}` });
    expect(again.extensions?.cost?.governance).toMatchObject({ actual: 0, cacheHits: 1 });
    const other = await stack.query<Any>(op('EntityTypes'), {}, { authorization: `Bearer ${b}` });
    expect(other.extensions?.cost?.governance).toMatchObject({ actual: 1, cacheHits: 0 });
  });

  it("does not list to one caller the organizations and stages another caller's reads showed", async () => {
    // No organizations or stages configured: all a caller could be listed would come from reads.
    const stack = await startStack({
      configure: (c) => ({
        ...c,
        governance: { ...c.governance, authMode: 'forward' },
        discovery: { ...c.discovery, organizations: [], workflows: {} },
      }),
    });
    const [a, b] = [await fetchToken(stack), await fetchToken(stack)];
    const read = await stack.query<Any>(
      '{ entities(first: 50) { nodes { organizationId workflowStage { name } } } }',
      {},
      { authorization: `Bearer ${a}` },
    );
    const orgs = new Set(read.data.entities.nodes.map((n: Any) => n.organizationId));
    expect(orgs.size).toBeGreaterThan(0);
    expect(read.data.entities.nodes.some((n: Any) => n.workflowStage)).toBe(true);
    const listed = await stack.query<Any>(
      '{ organizations { id sources } entityTypes(first: 20) { nodes { workflow { stages { name sources } } } } }',
      {},
      { authorization: `Bearer ${b}` },
    );
    expect(listed.errors).toBeUndefined();
    expect(listed.data.organizations).toEqual([]);
    const sources = [
      ...listed.data.organizations,
      ...listed.data.entityTypes.nodes.flatMap((t: Any) => t.workflow?.stages ?? []),
    ].flatMap((item: Any) => item.sources);
    expect(sources).not.toContain('OBSERVED');
  });
});

describe('upstream failures', () => {
  it('a 5xx on the links pages is UPSTREAM_UNAVAILABLE on those fields; the rest of the data stays', async () => {
    const stack = await startStack();
    stack.governance.control.setFaults([{ kind: 'status', status: 500, pathPrefix: '/linked-entity-types/' }]);
    const res = await stack.query<Any>(op('EntityGraph'), { first: 3 });
    expect(res.data.entities.nodes).toHaveLength(3);
    expect(res.data.entities.nodes.every((n: Any) => n.name && n.links === null)).toBe(true);
    expect(res.errors?.map((e) => e.extensions?.code)).toEqual([
      'UPSTREAM_UNAVAILABLE',
      'UPSTREAM_UNAVAILABLE',
      'UPSTREAM_UNAVAILABLE',
    ]);
    expectClean(stack, res);
  });

  it('a 503 on a write is UPSTREAM_UNAVAILABLE after one attempt: a create is never sent twice', async () => {
    const stack = await startStack();
    const org = (await stack.query<Any>('{ entities(first: 1) { nodes { organizationId } } }')).data.entities.nodes[0]
      .organizationId;
    stack.clearRequests();
    stack.governance.control.setFaults([{ kind: 'status', status: 503, pathPrefix: '/entities' }]);
    const res = await stack.query<Any>(op('CreateDataset'), { organizationId: org, name: 'Sent once' });
    expect(res.data).toEqual({ createEntity: null });
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', upstream: 'governance' });
    expect(apiCalls(stack).map((r) => `${r.method} ${r.status}`)).toEqual(['POST 503']);
    expectClean(stack, res);
  });

  it('a 429 pauses and repeats the call instead of failing the field', async () => {
    const stack = await startStack();
    await stack.query(op('EntityTypes'));
    stack.clearRequests();
    stack.governance.control.setFaults([
      { kind: 'rate-limit', retryAfter: 0, times: 1, pathPrefix: '/entities/search' },
    ]);
    const res = await stack.query<Any>(op('EntitySearch'), { text: 'Fraud' });
    expect(res.errors).toBeUndefined();
    expect(apiCalls(stack).map((r) => r.status)).toEqual([429, 200]);
  });

  it('a malformed body is UPSTREAM_UNAVAILABLE', async () => {
    const stack = await startStack({ env: { UPSTREAM_RETRIES: '0' } });
    stack.governance.control.setFaults([{ kind: 'malformed-json', pathPrefix: '/entity-types/' }]);
    const res = await stack.query<Any>(op('EntityTypes'));
    expect(res.data).toEqual({ entityTypes: null });
    expect(res.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
    expectClean(stack, res);
  });
});
