/**
 * One cost model and the cost on every response: the refusal before execution uses the
 * upstream-aware estimate, the same for literals, variables and defaults; GraphiQL's
 * examples and a large EntityGraph are accepted; a refusal names the estimate, the limit
 * and the heaviest field (400); `extensions.cost` is short by default, full on request or near the
 * limit, absent for an upstream the operation sent nothing to (and when no upstream was used), and `Query.budget` shares its names and figures; a budget refusal is 429 with Retry-After, and RATE_LIMITED fields bring a Retry-After too.
 */
import { describe, expect, it } from 'vitest';
import { graphiqlTabs } from '../src/http/graphiql.js';
import { startStack } from './support/stack.js';

type Any = any;

const WITH_LITERALS =
  '{ entities(first: 10) { nodes { name links(first: 10) { nodes { label counterpart { name entity { name } } } } } } }';
const WITH_VARIABLES =
  'query($first: Int!, $links: Int!) { entities(first: $first) { nodes { name links(first: $links) { nodes { label counterpart { name entity { name } } } } } } }';
const WITH_DEFAULTS =
  'query($first: Int = 10, $links: Int = 10) { entities(first: $first) { nodes { name links(first: $links) { nodes { label counterpart { name entity { name } } } } } } }';

describe('one cost model', () => {
  it('gives the same cost to literals, variables and defaults', async () => {
    const stack = await startStack();
    await stack.query<Any>('{ entityTypes(first: 1) { totalCount } }'); // the token, read once (in that estimate only)
    const literal = await stack.query<Any>(WITH_LITERALS);
    const variables = await stack.query<Any>(WITH_VARIABLES, { first: 10, links: 10 });
    const defaults = await stack.query<Any>(WITH_DEFAULTS);
    for (const res of [literal, variables, defaults]) {
      expect(res.errors).toBeUndefined();
      expect(res.status).toBe(200);
    }
    const estimate = literal.extensions!.cost!.governance!.estimated;
    expect(estimate).toBeGreaterThan(100);
    expect(variables.extensions!.cost!.governance!.estimated).toBe(estimate);
    expect(defaults.extensions!.cost!.governance!.estimated).toBe(estimate);
  });

  it("accepts GraphiQL's examples and EntityGraph at first: 50 with links(first: 10)", async () => {
    const stack = await startStack();
    for (const tab of graphiqlTabs) {
      const res = await stack.gateway.yoga.fetch('http://gateway.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        body: JSON.stringify({ query: tab.query }),
      });
      const body = await res.json();
      expect(res.status).toBe(200);
      expect(body.errors).toBeUndefined();
    }
    const big = await stack.query<Any>(
      'query EntityGraph($first: Int!) { entities(kind: AI_SYSTEM, first: $first) { totalCount nodes { id name type { name } links(first: 10) { nodes { label counterpart { name kind entity { id name workflowStage { name } } } } } } } }',
      { first: 50 },
    );
    expect(big.errors).toBeUndefined();
    // 1 page of systems + 50 × (1 links page + 10 entity reads) = 551.
    expect(big.extensions!.cost!.governance!.estimated).toBe(551);
  }, 30_000);

  it('refuses an operation over the per-operation budget with 400, the estimate, the limit and the heaviest field', async () => {
    const stack = await startStack();
    const big = await stack.query<Any>(
      '{ entities(first: 500) { nodes { links(first: 10) { nodes { label counterpart { entity { name } } } } } } }',
    );
    expect(big.status).toBe(400);
    expect(big.headers.get('content-type')).toContain('application/graphql-response+json');
    expect(big.errors![0]!.extensions).toMatchObject({
      code: 'REQUEST_BUDGET_EXCEEDED',
      budget: 1000,
      // 5,510 and the token read of a fresh gateway.
      estimatedCalls: { governance: 5511 },
    });
    expect(big.errors![0]!.message).toMatch(/about 5,511 governance requests/);
    expect(stack.governance.control.requests().total).toBe(0);
    expect(big.errors![0]!.message).toContain('`entities.nodes.links.nodes.counterpart.entity`');
    expect(big.errors![0]!.message).toMatch(/more than the 1,000 allowed/);
    expect(big.errors![0]!.message).toMatch(/smaller `first`/);
  });
});

describe('extensions.cost and Query.budget', () => {
  it('is short by default, lists only the upstreams used, and counts the token read in the estimate', async () => {
    const stack = await startStack({ env: { GOVERNANCE_RATE_LIMITS: 'minute:100,hour:1000' } });
    const res = await stack.query<Any>('{ entityTypes(first: 2) { totalCount } }');
    expect(res.errors).toBeUndefined();
    // A fresh gateway: the token read, then the list; the estimate counts both. 90 allowed a minute, 2 gone.
    expect(res.extensions!.cost).toEqual({ governance: { estimated: 2, actual: 2, cacheHits: 0, remaining: 88 } });
    expect(stack.governance.control.requests().total).toBe(2);
    const again = await stack.query<Any>('query Again { entityTypes(first: 3) { totalCount } }');
    expect(again.extensions!.cost!.governance).toMatchObject({ estimated: 1, actual: 1 });
  });

  it('carries nothing for an operation that used no upstream: `{ __typename }` answers in under 150 bytes', async () => {
    const stack = await startStack();
    const url = await stack.listen();
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(JSON.parse(text)).toEqual({ data: { __typename: 'Query' } });
    expect(Buffer.byteLength(text)).toBeLessThan(150);
    expect(stack.governance.control.requests().total + stack.calendar.control.requests().total).toBe(0);
  });

  it('lists no upstream the operation sent nothing to and read nothing from: `viewer`, a refused mutation', async () => {
    const stack = await startStack({ env: { AUTH_ANONYMOUS: 'governance:read,calendar:read' } });
    const viewer = await stack.query<Any>('{ viewer { permissions } }');
    expect(viewer.errors).toBeUndefined();
    expect(viewer.extensions?.cost).toBeUndefined();
    const refused = await stack.query<Any>(
      'mutation { deleteEntity(id: "00000000-0000-4000-8000-000000000000") { deletedId } }',
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(refused.extensions?.cost).toBeUndefined();
    const mixed = await stack.query<Any>('{ viewer { permissions } events(first: 1) { nodes { id } } }');
    expect(Object.keys(mixed.extensions!.cost!)).toEqual(['calendar']);
    expect(mixed.extensions!.cost!.calendar).toMatchObject({ actual: 1 });
    expect(stack.governance.control.requests().total).toBe(0);
  });

  it('gives the full account status on `Cost-Detail: full`, under the names of the budget field', async () => {
    const stack = await startStack({ env: { GOVERNANCE_RATE_LIMITS: 'minute:100,hour:1000' } });
    const full = { 'cost-detail': 'full' };
    const budget = await stack.query<Any>(
      '{ entityTypes(first: 2) { totalCount } budget { upstream estimated actual remaining cacheHits staleHits retries shared pausedForMs ramping rules { rule limit allowed windowMs remaining nextSlotInMs } } }',
      undefined,
      full,
    );
    expect(budget.errors).toBeUndefined();
    const ext = budget.extensions!.cost!;
    expect(Object.keys(ext)).toEqual(['governance']);
    const governance = (budget.data.budget as Any[]).find((u) => u.upstream === 'governance');
    const { upstream, ...figures } = governance;
    expect(upstream).toBe('governance');
    // The same names; the field was resolved beside the list, before its calls were counted.
    expect(Object.keys(ext.governance!).sort()).toEqual([...Object.keys(figures), 'cached', 'caller'].sort());
    const { estimated, cacheHits, staleHits, retries, shared, pausedForMs, ramping } = figures;
    expect(ext.governance).toMatchObject({ estimated, cacheHits, staleHits, retries, shared, pausedForMs, ramping });
    expect(ext.governance).toMatchObject({ estimated: 2, actual: 2, remaining: 88, cached: false });
    expect(ext.governance!.rules!.map((r) => [r.rule, r.allowed, r.remaining])).toEqual([
      ['minute', 90, 88],
      ['hour', 900, 898],
    ]);
    expect((governance.rules as Any[]).map((r) => r.rule)).toEqual(['minute', 'hour']);
    // The field lists every upstream, used or not.
    expect((budget.data.budget as Any[]).map((u) => u.upstream).sort()).toEqual(['calendar', 'governance']);
  });

  it('gives the full status unasked when the account is close to its limit', async () => {
    // 18 allowed a minute: under 1.8 left (a tenth) is close.
    // One caller alone spends the account here: no cap on its share (25 % by default).
    const stack = await startStack({
      env: { GOVERNANCE_RATE_LIMITS: 'minute:20,hour:1000', FAIR_SHARE: '*:share=100%' },
    });
    let cost = (await stack.query<Any>('{ entityTypes(first: 2) { totalCount } }')).extensions!.cost!.governance!;
    expect(cost).toEqual({ estimated: 2, actual: 2, cacheHits: 0, remaining: 16 });
    for (let first = 3; cost.remaining! > 1 && first < 30; first++) {
      cost = (await stack.query<Any>(`{ entityTypes(first: ${first}) { totalCount } }`)).extensions!.cost!.governance!;
      if (cost.remaining! > 1) expect(cost.rules).toBeUndefined();
    }
    expect(cost).toMatchObject({ actual: 1, remaining: 1, shared: false, pausedForMs: 0, ramping: false });
    expect(cost.rules!.map((r) => [r.rule, r.remaining])).toEqual([
      ['minute', 1],
      ['hour', 883],
    ]);
  });

  it('the deprecated budget names still answer', async () => {
    const stack = await startStack();
    const res = await stack.query<Any>('{ budget { upstream estimatedCalls actualCalls estimated actual } }');
    expect(res.errors).toBeUndefined();
    for (const u of res.data.budget as Any[]) {
      expect(u.estimatedCalls).toBe(u.estimated);
      expect(u.actualCalls).toBe(u.actual);
    }
  });

  it('a budget refusal before execution is 429 with Retry-After; nothing is sent', async () => {
    const stack = await startStack({
      env: { GOVERNANCE_RATE_LIMITS: 'minute:5,hour:1000', GATEWAY_OPERATION_DEADLINE_MS: '2000' },
    });
    // 4 points allowed per minute; this needs about 11 before its 2 s deadline. Over a real socket:
    // two Retry-After headers would read as "1, 1", which no client can parse.
    const http = await fetch(await stack.listen(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: '{ entities(first: 10) { nodes { links(first: 1) { totalCount } } } }' }),
    });
    const res: Any = await http.json();
    expect(http.status).toBe(429);
    expect(http.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(Number(http.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(res.errors![0]!.extensions).toMatchObject({ code: 'RATE_LIMITED' });
    expect(res.errors![0]!.extensions!.retryAfter).toBe(Number(http.headers.get('retry-after')));
    expect(stack.governance.control.requests().total).toBe(0);
  });

  it('an operation with RATE_LIMITED fields stays 200 and carries Retry-After', async () => {
    const stack = await startStack({ configure: (c) => ({ ...c, traffic: { ...c.traffic, rateLimitRetries: 0 } }) });
    await stack.query<Any>('{ entityTypes(first: 1) { totalCount } }'); // the token
    stack.governance.control.setFaults([{ kind: 'rate-limit', times: 1, retryAfter: 3, pathPrefix: '/entity-types' }]);
    const http = await fetch(await stack.listen(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: '{ entityTypes(first: 2) { totalCount } }' }),
    });
    const res: Any = await http.json();
    expect(http.status).toBe(200);
    expect(res.errors![0]!.extensions).toMatchObject({ code: 'RATE_LIMITED' });
    expect(http.headers.get('retry-after')).toBe('3');
  });
});
