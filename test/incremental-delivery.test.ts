/**
 * @defer and @stream over both transports, read by real incremental-delivery clients: meros for
 * multipart/mixed and graphql-sse (distinct connections) for text/event-stream. The initial part
 * comes first, the deferred parts after it, and the upstream calls stay at the lower bound.
 */
import { createClient } from 'graphql-sse';
import { meros } from 'meros/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls } from './support/calendar.js';
import { apiCalls } from './support/governance.js';
import { startStack, type Stack } from './support/stack.js';

/** One part of an incremental answer, as far as these operations go. */
interface Part {
  data?: { entities?: { nodes: { id: string }[] }; events?: { nodes: { id: string }[] } };
  incremental?: { data?: { links?: { totalCount: number } }; items?: { id: string }[]; path: (string | number)[] }[];
  hasNext?: boolean;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

const DEFERRED = `query Deferred {
  entities(kind: AI_SYSTEM, first: 3) {
    nodes {
      id name
      ... @defer(label: "links") { links(first: 10) { totalCount nodes { counterpart { id name } } } }
    }
  }
}`;

let stack: Stack;
let url: string;

beforeAll(async () => {
  stack = await startStack({ env: { CACHE_TTL_MS: '0' } });
  url = await stack.listen();
});
afterAll(() => stack.close());

/** Every part of a multipart/mixed answer, in arrival order, read with meros. */
async function multipart(query: string): Promise<{ contentType: string; parts: Part[] }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
    body: JSON.stringify({ query }),
  });
  const contentType = res.headers.get('content-type') ?? '';
  const parts: Part[] = [];
  const stream = await meros<Part>(res);
  if (!(Symbol.asyncIterator in (stream as object)))
    return { contentType, parts: [(await (stream as Response).json()) as Part] };
  for await (const part of stream as AsyncIterable<{ json: boolean; body: Part }>) parts.push(part.body);
  return { contentType, parts };
}

/** Every `next` payload of an SSE answer, in arrival order, read with graphql-sse. */
async function sse(query: string): Promise<Part[]> {
  const client = createClient({ url, singleConnection: false, retryAttempts: 0 });
  const parts: Part[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      client.subscribe({ query }, { next: (p) => void parts.push(p as Part), error: reject, complete: resolve });
    });
  } finally {
    client.dispose();
  }
  return parts;
}

function checkDeferred(parts: Part[]): void {
  expect(parts.length).toBeGreaterThan(1);
  const [initial, ...later] = parts;
  // The first part holds the list without the deferred links.
  const nodes = initial?.data?.entities?.nodes ?? [];
  expect(nodes).toHaveLength(3);
  for (const n of nodes) expect(Object.keys(n).sort()).toEqual(['id', 'name']);
  expect(initial!.hasNext).toBe(true);
  // The deferred parts bring each entity's links, at its path.
  const incremental = later.flatMap((p) => p.incremental ?? []);
  expect(incremental.map((i) => i.path).sort()).toEqual([0, 1, 2].map((i) => ['entities', 'nodes', i]).sort());
  for (const i of incremental) expect(i.data?.links?.totalCount).toBeGreaterThanOrEqual(0);
  expect(later.at(-1)!.hasNext).toBe(false);
}

describe('@defer', () => {
  it("multipart/mixed: the list first, each entity's links after, at one search plus one links page per entity", async () => {
    stack.clearRequests();
    const { contentType, parts } = await multipart(DEFERRED);
    expect(contentType).toContain('multipart/mixed');
    checkDeferred(parts);
    // The lower bound: links are read per entity (the upstream has no batch read for them).
    expect(
      apiCalls(stack)
        .map((r) => r.route)
        .sort(),
    ).toEqual(
      [
        'POST /entities/search',
        ...Array(3).fill('POST /linked-entity-types/entity-types/names/:entityTypeName/entities/:entityId/links/pages'),
      ].sort(),
    );
  });

  it('text/event-stream: the same parts in the same order, read by graphql-sse', async () => {
    stack.clearRequests();
    const parts = await sse(DEFERRED);
    checkDeferred(parts);
    expect(apiCalls(stack)).toHaveLength(4);
  });

  it("deferred fields count in the operation's upstream estimate: over the budget, nothing is called", async () => {
    const tight = await startStack({ env: { GATEWAY_MAX_UPSTREAM_CALLS_PER_OPERATION: '3' } });
    try {
      const tightUrl = await tight.listen();
      const res = await fetch(tightUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
        body: JSON.stringify({ query: DEFERRED }),
      });
      const stream = await meros<Part>(res);
      const parts: Part[] = [];
      if (Symbol.asyncIterator in (stream as object))
        for await (const p of stream as AsyncIterable<{ body: Part }>) parts.push(p.body);
      else parts.push((await (stream as Response).json()) as Part);
      expect(parts[0]!.errors?.[0]?.extensions).toMatchObject({
        code: 'REQUEST_BUDGET_EXCEEDED',
        estimatedCalls: { governance: 5 }, // 4 and the token read of a fresh gateway
      });
      expect(apiCalls(tight)).toEqual([]);
    } finally {
      await tight.close();
    }
  });
});

describe('@stream', () => {
  it('streams a list after its first items, over multipart, with one upstream page', async () => {
    stack.clearRequests();
    const { parts } = await multipart('{ events(first: 6) { nodes @stream(initialCount: 2) { id title } } }');
    expect(parts[0]?.data?.events?.nodes).toHaveLength(2);
    const streamed = parts.slice(1).flatMap((p) => (p.incremental ?? []).flatMap((i) => i.items ?? []));
    expect(streamed).toHaveLength(4);
    expect(parts.at(-1)!.hasNext).toBe(false);
    expect(calls(stack, /^GET \/events/)).toHaveLength(1);
  });
});
