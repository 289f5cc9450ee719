/**
 * The classic GraphQL security checks, run over real HTTP against the production profile
 * (NODE_ENV=production, default limits). Each hostile request must be refused with a clear
 * message, a code and the right status, and must cost no upstream request.
 */
import { getIntrospectionQuery } from 'graphql';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countRequests, startStack, type Stack } from './support/stack.js';

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body?: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  };
}

const GQL_JSON = { 'content-type': 'application/json', accept: 'application/graphql-response+json' };

let stack: Stack;
let url: string;

async function send(init: RequestInit & { search?: string }): Promise<Answer> {
  const res = await fetch(`${url}${init.search ?? ''}`, init);
  const text = await res.text();
  let body: Answer['body'];
  try {
    body = JSON.parse(text) as Answer['body'];
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

const post = (query: string, variables?: Record<string, unknown>, search = '') =>
  send({ method: 'POST', headers: GQL_JSON, body: JSON.stringify({ query, variables }), search });

const messages = (a: Answer) => (a.body?.errors ?? []).map((e) => e.message).join('\n');
const limitsHit = (a: Answer) => (a.body?.errors ?? []).map((e) => e.extensions?.limit);
const upstreamRequests = () => countRequests(stack.governance) + countRequests(stack.calendar);

/** Refused before execution: 400, no data, every error coded, nothing sent upstream. */
function expectRefused(a: Answer, status = 400): void {
  expect(a.status).toBe(status);
  expect(a.body?.data ?? undefined).toBeUndefined();
  expect(a.body?.errors?.length).toBeGreaterThan(0);
  expect(upstreamRequests()).toBe(0);
}

const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`;

beforeAll(async () => {
  stack = await startStack({ env: { NODE_ENV: 'production', AUTH_ANONYMOUS: '*' } });
  url = await stack.listen();
});
beforeEach(() => stack.clearRequests());

describe('production profile', () => {
  it('answers a plain query (the refusals below are not a broken server)', async () => {
    const a = await post('{ __typename }');
    expect(a.status).toBe(200);
    expect(a.body?.data).toEqual({ __typename: 'Query' });
  });

  it('refuses introspection with __schema and __type', async () => {
    for (const query of [
      '{ __schema { types { name } } }',
      '{ __type(name: "Query") { fields { name } } }',
      getIntrospectionQuery(),
    ]) {
      const a = await post(query);
      expectRefused(a);
      expect(messages(a)).toMatch(
        /GraphQL introspection is disabled on this server, but the query asked for "__(schema|type)"/,
      );
      expect(a.body?.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    }
  });

  it('does not serve GraphiQL to a browser', async () => {
    const a = await send({ method: 'GET', headers: { accept: 'text/html' } });
    expect(a.status).toBe(406);
    expect(a.text).not.toMatch(/<html|graphiql/i);
    const root = await fetch(url.replace('/graphql', '/'), { headers: { accept: 'text/html' } });
    expect(root.status).toBe(404);
    expect(await root.text()).not.toMatch(/graphiql|yoga/i);
  });

  it('hides field, argument and enum suggestions, in validation and in variables', async () => {
    const field = await post('{ entitie(first: 1) { totalCount } }');
    expectRefused(field);
    expect(messages(field)).toMatch(/Cannot query field "entitie"/);
    const argument = await post('{ entities(frist: 1) { totalCount } }');
    expectRefused(argument);
    const enumLiteral = await post('{ entities(kind: MODLE, first: 1) { totalCount } }');
    expectRefused(enumLiteral);
    const enumVariable = await post('query ($k: EntityKind) { entities(kind: $k, first: 1) { totalCount } }', {
      k: 'MODLE',
    });
    expectRefused(enumVariable);
    for (const a of [field, argument, enumLiteral, enumVariable]) {
      expect(messages(a)).not.toMatch(/Did you mean/);
      expect(messages(a)).not.toMatch(/"entities"|"first"|"MODEL"/);
    }
  });

  it('counts every alias, __typename included (alias overloading)', async () => {
    expect((await post(aliases(15))).status).toBe(200);
    const a = await post(aliases(16));
    expectRefused(a);
    expect(messages(a)).toBe('Aliases limit of 15 exceeded, found 16.');
    expect(a.body?.errors?.[0]?.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'maxAliases' });
    // Aliases of a real field would fan out upstream: refused before a single call.
    const fanOut = `{ ${Array.from({ length: 50 }, (_, i) => `e${i}: entityTypes(first: 1) { totalCount }`).join(' ')} }`;
    const b = await post(fanOut);
    expectRefused(b);
    expect(limitsHit(b)).toContain('maxAliases');
  });

  it('refuses the same field repeated in one selection set (field duplication)', async () => {
    expect((await post('{ __typename __typename __typename }')).status).toBe(200);
    const a = await post(`{ ${'__typename '.repeat(500)} }`);
    expectRefused(a);
    expect(messages(a)).toMatch(/Field "__typename" is repeated more than 3 time\(s\)/);
    expect(limitsHit(a)).toContain('maxFieldRepeats');
  });

  it('refuses directive overloading', async () => {
    const a = await post(`{ __typename ${'@include(if: true) '.repeat(21)} }`);
    expectRefused(a);
    expect(messages(a)).toMatch(/Directives limit of 20 exceeded, found 21\./);
    expect(limitsHit(a)).toContain('maxDirectives');
  });

  it('ten unknown directives give one error (identical validation errors collapse)', async () => {
    const a = await post(`{ __typename ${'@aa '.repeat(10)}}`);
    expectRefused(a);
    expect(a.body?.errors).toHaveLength(1);
    expect(a.body?.errors?.[0]).toMatchObject({
      message: 'Unknown directive "@aa".',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', occurrences: 10 },
    });
    expect((a.body?.errors?.[0] as { locations?: unknown[] }).locations).toHaveLength(10);
  });

  it('refuses deep queries, huge documents and costly lists', async () => {
    const deep = `{ ${'a { '.repeat(11)}b${' }'.repeat(11)} }`;
    const d = await post(deep);
    expectRefused(d);
    expect(messages(d)).toMatch(/Query depth limit of 10 exceeded/);
    expect(limitsHit(d)).toContain('maxDepth');

    const t = await post(`{ ${'__typename '.repeat(1000)} }`);
    expectRefused(t);
    expect(messages(t)).toMatch(/Token limit of 1000 exceeded/);
    expect(t.body?.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');

    // The cost check is the upstream-aware estimate (one cost model, see use-operation-budget.ts).
    const costly = await post(
      '{ entities(first: 500) { nodes { links(first: 10) { nodes { counterpart { entity { name } } } } } } }',
    );
    expectRefused(costly);
    // 5,510 and the token read of a fresh gateway.
    expect(messages(costly)).toMatch(/about 5,511 governance requests, more than the 1,000 allowed/);
    expect(costly.body?.errors?.[0]?.extensions?.code).toBe('REQUEST_BUDGET_EXCEEDED');
  });

  it('refuses batched queries', async () => {
    const batch = [{ query: '{ __typename }' }, { query: '{ __typename }' }];
    const a = await send({ method: 'POST', headers: GQL_JSON, body: JSON.stringify(batch) });
    expectRefused(a);
    expect(messages(a)).toBe('Batching is not supported.');
  });

  it('refuses GET and form-encoded requests without a CSRF header (GET-based and url-encoded CSRF)', async () => {
    const query = encodeURIComponent('{ entityTypes(first: 1) { totalCount } }');
    const get = await send({ method: 'GET', search: `?query=${query}` });
    expectRefused(get, 403);
    expect(messages(get)).toMatch(/^Required CSRF header\(s\) not present: .*`x-graphql-yoga-csrf`/);
    expect(get.body?.errors?.[0]?.extensions).toEqual({ code: 'BAD_REQUEST' });
    for (const contentType of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const form = await send({ method: 'POST', headers: { 'content-type': contentType }, body: `query=${query}` });
      expectRefused(form, 403);
    }
    // The same GET from a client that sets the header (so a browser would preflight it) is served.
    const ok = await send({
      method: 'GET',
      search: `?query=${encodeURIComponent('{ __typename }')}`,
      headers: { 'x-graphql-yoga-csrf': '1' },
    });
    expect(ok.status).toBe(200);
  });

  it('refuses a mutation over GET', async () => {
    const a = await send({
      method: 'GET',
      search: `?query=${encodeURIComponent('mutation { __typename }')}`,
      headers: { 'x-graphql-yoga-csrf': '1', accept: 'application/graphql-response+json' },
    });
    expectRefused(a, 405);
    expect(a.headers.get('allow')).toBe('POST');
    expect(messages(a)).toBe('Can only perform a mutation operation from a POST request.');
  });

  it('gives no debug or trace output', async () => {
    const probes = [
      await post('{ __typename(x: 1) }', undefined, '?debug=1&trace=1'),
      await send({
        method: 'POST',
        search: '?debug=true',
        headers: { ...GQL_JSON, 'x-debug': '1' },
        body: '{"query": ',
      }),
      await post('query ($n: Int!) { __typename }', { n: 'x' }, '?debug=1'),
    ];
    for (const a of probes) {
      expect(a.status).toBe(400);
      expect(a.text).not.toMatch(/stack|tracing|at .*\.(ts|js):\d+|node_modules|\/work\//i);
      expect(a.headers.get('x-powered-by')).toBeNull();
      for (const error of a.body?.errors ?? []) expect(error.extensions?.code).toEqual(expect.any(String));
    }
  });
});

describe('production profile with introspection explicitly enabled', () => {
  let open: Stack;
  beforeAll(async () => {
    open = await startStack({
      env: { NODE_ENV: 'production', AUTH_ANONYMOUS: '*', ALLOW_INTROSPECTION: 'true', GRAPHQL_MAX_BATCH: '2' },
    });
  });

  it('serves the standard introspection query (GraphiQL, codegen)', async () => {
    const a = await open.query(getIntrospectionQuery());
    expect(a.errors).toBeUndefined();
    expect(a.data).toHaveProperty('__schema.queryType.name', 'Query');
  });

  it('still refuses circular introspection', async () => {
    const circular = '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }';
    const viaFragments =
      '{ __type(name: "Query") { ...A } } fragment A on __Type { fields { type { ...B } } } fragment B on __Type { interfaces { possibleTypes { name } } }';
    for (const query of [circular, viaFragments]) {
      const a = await open.query(query);
      expect(a.status).toBe(400);
      expect(a.data ?? undefined).toBeUndefined();
      expect(a.errors?.[0]?.message).toBe('Maximum introspection depth exceeded');
      expect(a.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    }
  });

  it('bounds batching to GRAPHQL_MAX_BATCH', async () => {
    const run = (n: number) =>
      open.gateway.yoga.fetch('http://gateway.test/graphql', {
        method: 'POST',
        headers: GQL_JSON,
        body: JSON.stringify(Array.from({ length: n }, () => ({ query: '{ __typename }' }))),
      });
    const two = await run(2);
    expect(two.status).toBe(200);
    expect(await two.json()).toHaveLength(2);
    const three = await run(3);
    expect(three.status).toBe(413);
    expect(JSON.stringify(await three.json())).toMatch(/Batching is limited to 2 operations per request/);
  });
});
