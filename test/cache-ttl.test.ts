/**
 * Freshness by kind of resource: CACHE_TTL_BY_KIND overrides CACHE_TTL_MS for the kinds it names, and a GET answer's max-age is what remains of the shortest-lived kind it read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './support/stack.js';

let s: Stack;
let url: string;
beforeAll(async () => {
  s = await startStack({
    env: {
      CACHE_TTL_MS: '30000',
      CACHE_TTL_BY_KIND: 'entityTypes:600000, terms:0',
    },
  });
  url = await s.listen();
});
afterAll(() => s.close());

const get = async (query: string) => {
  const u = new URL(url);
  u.searchParams.set('query', query);
  const res = await fetch(u, { headers: { accept: 'application/graphql-response+json' } });
  const body = (await res.json()) as { errors?: unknown };
  expect(body.errors).toBeUndefined();
  return { maxAge: Number(/max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1] ?? -1), res };
};

const upstreamCalls = () => s.governance.control.requests().total + s.calendar.control.requests().total;

describe('cache freshness by kind of resource', () => {
  it('a kind with its own TTL answers with its max-age; reading a shorter-lived kind too lowers it', async () => {
    const types = await get('{ entityTypes(first: 3) { nodes { id name } } }');
    expect(types.maxAge).toBeGreaterThan(300);
    expect(types.maxAge).toBeLessThanOrEqual(600);
    const both = await get(
      '{ entityTypes(first: 3) { nodes { id } } entities(kind: MODEL, first: 2) { nodes { id } } }',
    );
    expect(both.maxAge).toBeGreaterThan(0);
    expect(both.maxAge).toBeLessThanOrEqual(30);
  });

  it('a kind whose TTL is 0 is read from the upstream every time and makes the answer revalidate', async () => {
    const query = '{ categories(first: 3) { nodes { id name } } }';
    await get(query);
    s.clearRequests();
    const again = await get(query);
    expect(upstreamCalls()).toBeGreaterThan(0);
    expect(again.res.headers.get('cache-control')).toBe('private, no-cache');
    // Events keep the default TTL: the second read is served from the cache.
    await get('{ events(first: 2) { nodes { id } } }');
    s.clearRequests();
    await get('{ events(first: 2) { nodes { id } } }');
    expect(upstreamCalls()).toBe(0);
  });
});
