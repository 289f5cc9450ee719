/**
 * Compiled execution (src/http/plugins/use-jit.ts) answers exactly as graphql-js does: a document
 * runs on graphql-js the first time and compiled from the second, so each operation is sent three
 * times and the answers compared. Here: every shipped operation, the defects graphql-jit had (one
 * case each, with graphql-js's answer spelled out), the error paths, and the other ways in (the
 * response cache, persisted operations, GET, @defer, subscriptions, MCP, federation's `_entities`).
 * test/jit-differential.test.ts compares generated documents with graphql-js's `execute`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createClient } from 'graphql-sse';
import { buildSchema, getIntrospectionQuery, Kind, parse, type OperationDefinitionNode } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { meros } from 'meros/browser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultCostModel } from '../src/core/cost-model.js';
import { graphiqlTabs } from '../src/http/graphiql.js';
import { callerTabs } from '../src/http/graphiql-page.js';
import { loadSafelist } from '../src/http/persisted.js';
import { useJit } from '../src/http/plugins/use-jit.js';
import { DEV_AUDIENCE, DevIssuer } from '../src/identity/dev-issuer.js';
import { operation } from './support/operations.js';
import { startStack, type GraphQLResponse, type Stack } from './support/stack.js';
import { until } from './support/wait.js';
import { payloadId } from './support/global-ids.js';

type Json = Record<string, any>;

const FEDERATION_SECRET = 'jit-router';
let s: Stack;
let url: string;
let issuer: DevIssuer;
beforeAll(async () => {
  issuer = await DevIssuer.start();
  // Production settings: their plugins (hidden suggestions, masking) see the compiled answers too.
  s = await startStack({
    env: {
      NODE_ENV: 'production',
      AUTH_ANONYMOUS: '*',
      AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${issuer.jwksUrl}`,
      FEDERATION_SECRET,
      MCP: 'true',
      MCP_STATE_KEY: 'jit-test-state-key-of-at-least-32-characters',
    },
  });
  url = await s.listen();
});
afterAll(async () => {
  await s.close();
  await issuer.close();
});

/** The answer without the per-request cost report (calls and cache hits differ between runs). */
function answer(res: GraphQLResponse): unknown {
  const { cost: _cost, ...extensions } = res.extensions ?? {};
  return { status: res.status, data: res.data, errors: res.errors, extensions };
}

/**
 * Key order is not compared: graphql-js (through Yoga's executor) already orders an object's keys
 * by when its fields resolved, so that order was never stable; graphql-jit follows the selection.
 */
async function sameThrice(
  query: string,
  variables?: Record<string, unknown>,
  headers?: Record<string, string>,
): Promise<GraphQLResponse> {
  const first = await s.query(query, variables, headers);
  for (let i = 0; i < 2; i++) {
    const again = await s.query(query, variables, headers);
    expect(answer(again), `run ${i + 2} of ${query}`).toEqual(answer(first));
  }
  return first;
}

describe('compiled execution answers as graphql-js does', () => {
  it.each([
    ['UpcomingEvents', { first: 5 }],
    ['EventGraph', { first: 5 }],
    ['FilteredEvents', { text: 'a' }],
    ['Venues', { text: 'Hall' }],
    ['Organizers', undefined],
    ['Categories', undefined],
    ['Tags', undefined],
    ['EntitiesOfKind', { first: 5 }],
    ['EntitySearch', { text: 'a' }],
    ['EntityGraph', { first: 5 }],
    ['EntitySummaries', { text: 'a' }],
    ['EntityTypes', undefined],
  ])('%s', async (name, variables) => {
    const res = await sameThrice(operation(name), variables);
    expect(res.errors).toBeUndefined();
  });
});

describe('every shipped operation answers three times alike, without errors', () => {
  /**
   * Values of the required variables, by upstream and signature (an operation with a new one fails
   * here, naming it), and of the optional one that makes a create answer alike (its idempotency
   * key); the other optional ones are left out.
   */
  let given: Record<string, unknown> = {};
  beforeAll(async () => {
    const read = await s.query<Json>(
      `{ entities(kind: AI_SYSTEM, first: 2) {
           nodes { id organizationId links(first: 1) { nodes { id relationshipType { id } } } } }
         events(first: 1) { nodes { id } }
         entityTypes(first: 20) { nodes { kind workflow { stages { name } } } }
         relationshipTypes(kind: AI_SYSTEM) { name ends { firstKind secondKind } } }`,
    );
    const [system, other] = read.data!.entities.nodes as [Json, Json];
    const link = (read.data!.entities.nodes as Json[]).flatMap((e) => e.links.nodes as Json[])[0]!;
    const stages = (read.data!.entityTypes.nodes as Json[]).find((t) => t.kind === 'AI_SYSTEM')!.workflow.stages;
    const composition = (read.data!.relationshipTypes as Json[]).find((r) =>
      (r.ends as Json[]).some((e) => e.firstKind === 'AI_SYSTEM' && e.secondKind === 'AI_SYSTEM'),
    )!;
    given = {
      'calendar $clientMutationId: String': 'jit-repeat',
      'calendar $id: ID!': read.data!.events.nodes[0].id,
      'calendar $name: String!': 'Repeated tag',
      'calendar $input: CreateEventInput!': {
        title: 'Repeated event',
        startDate: '2027-03-01T10:00:00Z',
        endDate: '2027-03-01T11:00:00Z',
      },
      'calendar $input: UpdateEventInput!': { title: 'Repeated event, renamed' },
      'governance $id: ID!': system.id,
      'governance $kind: EntityKind!': 'AI_SYSTEM',
      'governance $name: String!': 'Repeated system',
      'governance $organizationId: ID!': system.organizationId,
      'governance $input: CreateGovernanceLinkInput!': {
        entity1: { id: system.id },
        entity2: { id: other.id },
        relationshipType: composition.name,
      },
      'governance $stage: String!': stages.at(-1).name,
      'governance $input: UpdateEntityInput!': { name: 'Repeated system, renamed' },
      'governance $linkId: ID!': link.id,
      'governance $linkTypeId: ID!': link.relationshipType.id,
      'governance $clientMutationId: String': 'jit-repeat',
    };
  });

  /** The operation's variables with a value in `given`; each required one (no default) must have one. */
  function variablesOf(text: string): Record<string, unknown> {
    const op = parse(text).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    const root = op.selectionSet.selections.find((sel) => sel.kind === Kind.FIELD)!;
    const type = s.gateway.yoga.getEnveloped().schema.getRootType(op.operation)!.getFields()[root.name.value]!.type;
    const upstream = upstreamOf(String(type).replace(/[[\]!]/g, ''));
    const values: Record<string, unknown> = {};
    for (const def of op.variableDefinitions ?? []) {
      const key = `${upstream} $${def.variable.name.value}: ${text.slice(def.type.loc!.start, def.type.loc!.end)}`;
      if (key in given) values[def.variable.name.value] = given[key];
      else if (def.type.kind === Kind.NON_NULL_TYPE && !def.defaultValue)
        throw new Error(`give ${key} a value in this test's \`given\``);
    }
    return values;
  }

  const shipped = [
    ...[...loadSafelist().values()].map((query) => ({ query, headers: {} })),
    ...graphiqlTabs.map(({ query }) => ({ query, headers: {} })),
  ];
  it.each(shipped.map((o) => [o.query.match(/(?:query|mutation) (\w+)/)![1]!, o] as const))(
    '%s',
    async (_name, { query }) => {
      const variables = variablesOf(query);
      const mutation = query.includes('mutation ');
      // A write runs three times on the same upstream state: seed data back, the gateway's caches empty.
      const before = mutation ? reset : async () => {};
      await before();
      const first = await s.query(query, variables);
      expect(first.errors).toBeUndefined();
      for (let run = 2; run <= 3; run++) {
        await before();
        expect(answer(await s.query(query, variables)), `run ${run}`).toEqual(answer(first));
      }
    },
  );

  it("GraphiQL's introspection query (development, where introspection is on)", async () => {
    const dev = await startStack();
    const query = getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, specifiedByUrl: true });
    const first = await dev.query(query);
    expect(first.errors).toBeUndefined();
    for (let run = 2; run <= 3; run++) expect(answer(await dev.query(query)), `run ${run}`).toEqual(answer(first));
    await dev.close();
  });

  it.each(['reader', 'admin'])("GraphiQL's tab of the sample caller %s", async (name) => {
    const [tab] = callerTabs({ [name]: await issuer.tokenFor(name) });
    const res = await sameThrice(tab!.query, undefined, JSON.parse(tab!.headers) as Record<string, string>);
    expect(res.errors).toBeUndefined();
    expect((res.data as Json).viewer.id).toContain(name);
  });
});

/** Seed data back in both emulators, and nothing cached by the gateway. */
async function reset(): Promise<void> {
  s.governance.control.reset();
  s.calendar.control.reset();
  s.gateway.upstreams.cache.clear();
}

function upstreamOf(typeName: string): string {
  const model = defaultCostModel;
  return model.typeUpstreams.find((t) => typeName.startsWith(t.prefix))?.upstream ?? model.defaultUpstream;
}

describe('what graphql-jit answered otherwise, now as graphql-js', () => {
  it('a required variable left out takes its default on every run', async () => {
    const res = await sameThrice('query Q($first: Int! = 5) { events(first: $first) { nodes { id } } }');
    expect(res.errors).toBeUndefined();
    expect((res.data as Json).events.nodes).toHaveLength(5);
  });

  it('a variable left out inside an input object is left out of it, not null', async () => {
    const tag = (await s.query<Json>('{ tags(first: 1) { nodes { id name description } } }')).data!.tags.nodes[0];
    const res = await sameThrice(
      `mutation Rename($id: ID!, $name: String, $description: String) {
         updateTag(id: $id, input: { name: $name, description: $description }) { name description } }`,
      { id: tag.id, name: tag.name },
    );
    expect(res.errors).toBeUndefined();
    expect((res.data as Json).updateTag).toEqual({ name: tag.name, description: tag.description });
  });

  it("a field's copy under a false @include keeps its fragment's fields out", async () => {
    const res = await sameThrice(
      '{ tags(first: 2) { edges { node { id } } edges @include(if: false) { ... on TagEdge { cursor } } } }',
    );
    for (const edge of (res.data as Json).tags.edges) expect(Object.keys(edge)).toEqual(['node']);
  });

  it('a fragment spread under a false @include and again elsewhere keeps its fields there', async () => {
    const res = await sameThrice(
      '{ a: events(first: 1) { ...Count @include(if: false) } b: events(first: 1) { ...Count } } fragment Count on EventConnection { totalCount }',
    );
    expect(res.data).toEqual({ a: {}, b: { totalCount: expect.any(Number) } });
  });

  it('an error of a field selected twice names both places', async () => {
    const res = await sameThrice('{ events(after: "x") { totalCount } events(after: "x") { nodes { id } } }');
    expect(res.errors?.[0]?.locations).toEqual([
      { line: 1, column: 3 },
      { line: 1, column: 37 },
    ]);
  });
});

describe("a rule the gateway's schema does not reach today", () => {
  it('a non-null input field with a default, left out of a variable, takes its default on every run', async () => {
    // graphql-jit would refuse `{ to: 9 }` ("Field value.from of required type Int! was not provided"):
    // a document whose variables hold such a field stays on graphql-js.
    const schema = buildSchema('input Range { from: Int! = 3, to: Int } type Query { span(range: Range): String }');
    schema.getQueryType()!.getFields().span!.resolve = (_source, args) => JSON.stringify(args.range);
    const yoga = createYoga({ schema, plugins: [useJit(() => {})] });
    for (let run = 1; run <= 3; run++) {
      const res = await yoga.fetch('http://gateway.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'query Span($r: Range) { span(range: $r) }', variables: { r: { to: 9 } } }),
      });
      expect(await res.json(), `run ${run}`).toEqual({ data: { span: '{"from":3,"to":9}' } });
    }
  });
});

describe('compiled execution on the error paths', () => {
  it('a field whose upstream fails is null in place, with the same error, code, path and location', async () => {
    s.governance.control.setFaults([{ kind: 'status', status: 500, pathPrefix: '/entities/search' }]);
    try {
      const query = `query Mixed { entities(first: 2) { nodes { id } } events(first: 2) { nodes { id } } }`;
      const res = await sameThrice(query);
      expect(res.data).toMatchObject({ entities: null, events: { nodes: [{}, {}] } });
      expect(res.errors?.[0]).toMatchObject({
        path: ['entities'],
        locations: [{ line: 1, column: 15 }],
        extensions: { code: expect.any(String) },
      });
    } finally {
      s.governance.control.clearFaults();
    }
  });

  it('a variable of the wrong type is BAD_USER_INPUT with its location every time', async () => {
    const res = await sameThrice(operation('EntitiesOfKind'), { first: 'ten' });
    expect(res.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, locations: [expect.anything()] });
  });

  it('a bad argument raised by a resolver keeps its code and location', async () => {
    const res = await sameThrice(operation('Venues'), { text: '' });
    expect(res.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, locations: [expect.anything()] });
  });
});

describe('the other ways in answer alike on every run', () => {
  const DEFAULTED = 'query Q($first: Int! = 5) { events(first: $first) { nodes { id title } } }';

  async function post(body: Json, headers: Record<string, string> = {}): Promise<Json> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, ...((await res.json()) as Json) };
  }

  it('over HTTP, through the response cache: runs 1 to 3 and a run after the cached answer expired', async () => {
    const query = `${DEFAULTED} # through the response cache`;
    const runs = [await post({ query }), await post({ query }), await post({ query })];
    expect(runs.map((r) => Boolean(r.extensions?.cost?.calendar?.cached))).toEqual([false, true, true]);
    // The cached answer's freshness is read from the clock: an hour later it is stale, and the
    // document (seen before, so compiled now) runs again.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      vi.setSystemTime(Date.now() + 3_600_000);
      runs.push(await post({ query }));
    } finally {
      vi.useRealTimers();
    }
    expect(runs[3]!.extensions?.cost?.calendar?.cached).toBeUndefined();
    for (const r of runs) {
      expect(r.errors).toBeUndefined();
      expect(r.data.events.nodes).toHaveLength(5);
      expect(r.data).toEqual(runs[0]!.data);
    }
  });

  /** An `extensions` member per run: the response cache keys on the whole request, so each run executes. */
  const runParam = (run: number) => `extensions=${encodeURIComponent(JSON.stringify({ run }))}`;

  it('GET', async () => {
    const get = async (run: number): Promise<Json> => {
      const res = await fetch(`${url}?query=${encodeURIComponent(DEFAULTED)}&${runParam(run)}`, {
        headers: { accept: 'application/graphql-response+json', 'x-graphql-yoga-csrf': '1' },
      });
      const { extensions, ...body } = (await res.json()) as Json;
      expect(extensions?.cost?.calendar?.cached).toBeUndefined();
      return { status: res.status, ...body };
    };
    const runs = [await get(1), await get(2), await get(3)];
    expect(runs[0]!.data.events.nodes).toHaveLength(5);
    for (const r of runs) expect(r).toEqual(runs[0]);
  });

  it('persisted operations, by documentId and by GET', async () => {
    const persisted = await startStack({
      env: { NODE_ENV: 'production', AUTH_ANONYMOUS: '*', PERSISTED_OPERATIONS: 'only' },
    });
    const persistedUrl = await persisted.listen();
    const [documentId] = [...loadSafelist()].find(([, text]) => text.includes('query EventGraph'))!;
    const send = async (run: number): Promise<Json> => {
      const res =
        run > 2
          ? await fetch(`${persistedUrl}?documentId=${documentId}&${runParam(run)}`, {
              headers: { accept: 'application/graphql-response+json', 'x-graphql-yoga-csrf': '1' },
            })
          : await fetch(persistedUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
              body: JSON.stringify({ documentId, extensions: { run } }),
            });
      const { extensions, ...body } = (await res.json()) as Json;
      expect(extensions?.cost?.calendar?.cached).toBeUndefined();
      return { status: res.status, ...body };
    };
    const runs = [await send(1), await send(2), await send(3), await send(4)];
    expect(runs[0]!.errors).toBeUndefined();
    expect(runs[0]!.data.events.nodes).toHaveLength(5);
    for (const r of runs) expect(r).toEqual(runs[0]);
    await persisted.close();
  });

  it('@defer: the same parts each time (incremental delivery stays on graphql-js)', async () => {
    const query = '{ events(first: 2) { nodes { id ... @defer { title } } } }';
    const parts = async () => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
        body: JSON.stringify({ query }),
      });
      const out: Json[] = [];
      for await (const part of (await meros<Json>(res)) as AsyncIterable<{ body: Json }>) {
        const { extensions: _cost, ...rest } = part.body;
        out.push(rest);
      }
      // Deferred parts may arrive in either order.
      return out.map((p) => JSON.stringify(p)).sort();
    };
    const first = await parts();
    expect(first.length).toBeGreaterThan(1);
    expect(await parts()).toEqual(first);
    expect(await parts()).toEqual(first);
  });

  it('subscriptions: each subscriber gets the same update (subscriptions never reach graphql-jit)', async () => {
    const id = (await s.query<Json>('{ events(first: 1) { nodes { id } } }')).data!.events.nodes[0].id;
    const query = `subscription Changed($id: ID!) { eventChanged(id: $id) { id deleted event { id title } } }`;
    const updates: Json[] = [];
    for (let run = 1; run <= 3; run++) {
      const client = createClient({ url, singleConnection: false, retryAttempts: 0 });
      const received: Json[] = [];
      const stop = client.subscribe(
        { query, variables: { id } },
        { next: (r) => void received.push(r), error: () => {}, complete: () => {} },
      );
      try {
        // The subscription is in place once a change made through the gateway reaches it.
        const change = 'mutation($id: ID!) { updateEvent(id: $id, input: { title: "Changed" }) { id } }';
        await until(
          async () => (await s.query(change, { id })) && received.length > 0,
          'an update on the subscription',
          { interval: 100 },
        );
      } finally {
        stop();
        client.dispose();
      }
      const { extensions: _cost, ...update } = received[0]!;
      updates.push(update);
    }
    expect(updates[0]).toMatchObject({
      data: { eventChanged: { id: payloadId('EventChange', id), deleted: false, event: { id, title: 'Changed' } } },
    });
    expect(updates[1]).toEqual(updates[0]);
    expect(updates[2]).toEqual(updates[0]);
  });

  it('MCP tool calls', async () => {
    const client = new Client({ name: 'jit-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url.replace(/\/graphql$/, '/mcp'))));
    try {
      const results: unknown[] = [];
      for (let run = 1; run <= 3; run++) {
        const res = await client.callTool({ name: 'FindEvents', arguments: { limit: 3 } });
        expect(res.isError).toBeFalsy();
        const { cost: _cost, ...rest } = res.structuredContent as Json;
        results.push(rest);
      }
      expect((results[0] as Json).items).toHaveLength(3);
      expect(results[1]).toEqual(results[0]);
      expect(results[2]).toEqual(results[0]);
    } finally {
      await client.close();
    }
  });

  it("federation's _entities", async () => {
    const ids = (await s.query<Json>('{ events(first: 2) { nodes { id } } }')).data!.events.nodes.map(
      (n: Json) => n.id,
    );
    const res = await sameThrice(
      'query E($r: [_Any!]!) { _entities(representations: $r) { ... on Event { id title } } }',
      { r: ids.map((id: string) => ({ __typename: 'Event', id })) },
      { 'x-federation-secret': FEDERATION_SECRET },
    );
    expect(res.errors).toBeUndefined();
    expect((res.data as Json)._entities.map((e: Json) => e.id)).toEqual(ids);
  });
});
