/**
 * Typed clients and persisted operations. The example operations (src/operations/) are typed by
 * codegen (src/generated/); these tests run those typed documents against the gateway, check that
 * the generated safelist still matches the operations and the schema, and that
 * PERSISTED_OPERATIONS=only runs safelisted operations by hash and refuses anything else clearly.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Kind, parse, validate, type OperationDefinitionNode } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CreateTagDocument,
  EntityDetailsDocument,
  EntityGraphDocument,
  EventGraphDocument,
} from '../src/generated/graphql.js';
import { loadSafelist } from '../src/http/persisted.js';
import { schema } from '../src/app/schema.js';
import { countRequests, startStack, type Stack } from './support/stack.js';
import { typedClient } from './support/typed-client.js';

// The safelist holds the example operations and the MCP tools' (codegen.ts reads both folders).
const operationNames = ['../src/operations/', '../src/mcp/tools/']
  .map((dir) => new URL(dir, import.meta.url))
  .flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.graphql'))
      .flatMap((f) => parse(readFileSync(new URL(f, dir), 'utf8')).definitions),
  )
  .filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)
  .map((d) => d.name!.value)
  .sort();

describe('the generated safelist', () => {
  const safelist = loadSafelist();

  it('holds every example operation, keyed by the sha256 of its text, valid against the schema', () => {
    const names = [...safelist.values()]
      .map(
        (text) =>
          (parse(text).definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode).name!
            .value,
      )
      .sort();
    expect(names, 'src/operations changed: run `npm run codegen`').toEqual(operationNames);
    for (const [hash, text] of safelist) {
      expect(createHash('sha256').update(text).digest('hex')).toBe(hash);
      expect(
        validate(schema, parse(text)).map((e) => e.message),
        'an example operation no longer fits the schema',
      ).toEqual([]);
    }
  });
});

describe('typed documents against the gateway (full text)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });

  it('runs the headline traversals with typed results', async () => {
    const execute = typedClient('http://gateway.test/graphql', (u, i) => stack.gateway.yoga.fetch(u, i));
    const entities = await execute(EntityGraphDocument, { first: 3 });
    expect(entities.errors).toBeUndefined();
    const first = entities.data!.entities!.nodes[0]!;
    expect(first.kind).toBe('AI_SYSTEM');
    expect(first.type.name).toBeTruthy();

    const details = await execute(EntityDetailsDocument, { id: first.id });
    expect(details.data!.entity).toMatchObject({ id: first.id, name: first.name });

    const events = await execute(EventGraphDocument, { first: 3 });
    expect(events.errors).toBeUndefined();
    expect(events.data!.events!.nodes).toHaveLength(3);
    expect(typeof events.data!.events!.nodes[0]!.title).toBe('string');
  });
});

describe('PERSISTED_OPERATIONS=only', () => {
  let stack: Stack;
  let url: string;
  const post = (body: unknown) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    stack = await startStack({ env: { PERSISTED_OPERATIONS: 'only' } });
    url = await stack.listen();
  });

  it('runs safelisted operations by documentId, over POST and GET', async () => {
    const execute = typedClient(url);
    const res = await execute(EventGraphDocument, { first: 2 }, 'persisted');
    expect(res.status).toBe(200);
    expect(res.errors).toBeUndefined();
    expect(res.data!.events!.nodes).toHaveLength(2);

    const hash = (EntityGraphDocument as { __meta__?: { hash: string } }).__meta__!.hash;
    const get = await fetch(`${url}?documentId=${hash}&variables=${encodeURIComponent(JSON.stringify({ first: 1 }))}`, {
      headers: { accept: 'application/json' },
    });
    const body = (await get.json()) as { data: { entities: { nodes: unknown[] } } };
    expect(get.status).toBe(200);
    expect(body.data.entities.nodes).toHaveLength(1);
    // A persisted query by GET is HTTP-cacheable: private, with an ETag that a repeat can revalidate.
    expect(get.headers.get('cache-control')).toMatch(/^private, (max-age=\d+|no-cache)$/);
    const etag = get.headers.get('etag')!;
    const again = await fetch(
      `${url}?documentId=${hash}&variables=${encodeURIComponent(JSON.stringify({ first: 1 }))}`,
      { headers: { accept: 'application/json', 'if-none-match': etag } },
    );
    expect(again.status).toBe(304);
  });

  it("runs a persisted mutation and accepts Apollo's persistedQuery extension", async () => {
    const hash = (CreateTagDocument as { __meta__?: { hash: string } }).__meta__!.hash;
    const res = await post({
      extensions: { persistedQuery: { version: 1, sha256Hash: hash } },
      variables: { name: 'persisted-tag' },
    });
    const body = (await res.json()) as { data: { createTag: { name: string } } };
    expect(body.data.createTag.name).toBe('persisted-tag');
  });

  it('refuses query text, unknown ids and empty requests with a clear error, before any upstream call', async () => {
    stack.clearRequests();
    const cases = [
      [{ query: '{ events(first: 1) { nodes { id } } }' }, 'PERSISTED_QUERY_ONLY', /persisted operations only/],
      [{ documentId: 'f'.repeat(64) }, 'PERSISTED_QUERY_NOT_FOUND', /not in the gateway's safelist/],
      [{ variables: {} }, 'PERSISTED_QUERY_ID_REQUIRED', /documentId/],
    ] as const;
    for (const [request, code, message] of cases) {
      const res = await post(request);
      const body = (await res.json()) as {
        data?: unknown;
        errors: { message: string; extensions: { code: string } }[];
      };
      expect(res.status).toBe(400);
      expect(body.data).toBeUndefined();
      expect(body.errors[0]!.extensions.code).toBe(code);
      expect(body.errors[0]!.message).toMatch(message);
    }
    expect(countRequests(stack.governance) + countRequests(stack.calendar)).toBe(0);
  });
});

describe('PERSISTED_OPERATIONS=allow', () => {
  it('takes both a documentId and query text', async () => {
    const stack = await startStack({ env: { PERSISTED_OPERATIONS: 'allow' } });
    const execute = typedClient('http://gateway.test/graphql', (u, i) => stack.gateway.yoga.fetch(u, i));
    const byId = await execute(EventGraphDocument, { first: 1 }, 'persisted');
    const byText = await execute(EventGraphDocument, { first: 1 }, 'text');
    expect(byId.errors).toBeUndefined();
    expect(byId.data).toEqual(byText.data);
  });
});

describe('PERSISTED_OPERATIONS=off (the default)', () => {
  it('refuses a documentId, by POST and GET, and an Apollo hash without its text, naming the setting', async () => {
    const stack = await startStack();
    const url = await stack.listen();
    const hash = (EventGraphDocument as { __meta__?: { hash: string } }).__meta__!.hash;
    const json = { 'content-type': 'application/json', accept: 'application/graphql-response+json' };
    const apq = { persistedQuery: { version: 1, sha256Hash: hash } };
    const refused = [
      await fetch(url, { method: 'POST', headers: json, body: JSON.stringify({ documentId: hash }) }),
      await fetch(url, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ documentId: hash, query: '{ __typename }' }),
      }),
      await fetch(`${url}?documentId=${hash}`, { headers: { accept: 'application/graphql-response+json' } }),
      await fetch(url, { method: 'POST', headers: json, body: JSON.stringify({ extensions: apq }) }),
    ];
    for (const res of refused) {
      const body = (await res.json()) as {
        data?: unknown;
        errors: { message: string; extensions: { code: string } }[];
      };
      expect(res.status).toBe(400);
      expect(body.data).toBeUndefined();
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]!.extensions.code).toBe('PERSISTED_QUERY_NOT_SUPPORTED');
      expect(body.errors[0]!.message).toMatch(/PERSISTED_OPERATIONS=off.*PERSISTED_OPERATIONS=allow/);
    }
    expect(countRequests(stack.governance) + countRequests(stack.calendar)).toBe(0);
    // Apollo's client then sends the text beside the hash: that runs.
    const text = await fetch(url, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ query: '{ events(first: 1) { nodes { id } } }', extensions: apq }),
    });
    expect(text.status).toBe(200);
    expect(((await text.json()) as { data: { events: { nodes: unknown[] } } }).data.events.nodes).toHaveLength(1);
  });
});
