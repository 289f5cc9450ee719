/**
 * HTTP caching of GET queries: Cache-Control from the answers' remaining TTLs, private per
 * credential, an ETag that If-None-Match turns into a 304; never on mutations or POST.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageTracker } from '../src/core/usage.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let url: string;

beforeAll(async () => {
  // A reader's API key: fewer permissions than the anonymous caller of development (all of them).
  const hash = createHash('sha256').update('reader-key').digest('hex');
  stack = await startStack({
    env: { CACHE_TTL_MS: '30000', AUTH_API_KEYS: `reader|${hash}|governance:read calendar:read` },
  });
  url = await stack.listen();
});
afterAll(() => stack.close());

const get = (query: string, headers: Record<string, string> = {}, variables?: Record<string, unknown>) => {
  const u = new URL(url);
  u.searchParams.set('query', query);
  if (variables) u.searchParams.set('variables', JSON.stringify(variables));
  return fetch(u, { headers: { accept: 'application/graphql-response+json', ...headers } });
};

describe('HTTP caching of GET queries', () => {
  it('answers with private Cache-Control from the resource TTL and an ETag; If-None-Match gets a 304 without a body', async () => {
    const query = '{ entities(kind: MODEL, first: 2) { nodes { id name } } }';
    const first = await get(query);
    expect(first.status).toBe(200);
    const cacheControl = first.headers.get('cache-control')!;
    expect(cacheControl).toMatch(/^private, max-age=(\d+)$/);
    const maxAge = Number(/max-age=(\d+)/.exec(cacheControl)![1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(30);
    expect(first.headers.get('vary')).toMatch(/authorization/i);
    // The cost extension's form follows `Cost-Detail`: a cache keeps the short and full answers apart.
    expect(first.headers.get('vary')).toMatch(/cost-detail/i);
    // One content type, the JSON one the client asked for (not a second, text/plain one).
    expect(first.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await first.json()).data.entities.nodes).toHaveLength(2);

    const again = await get(query, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);

    // A stale tag gets the full answer.
    const other = await get(query, { 'if-none-match': '"something-else"' });
    expect(other.status).toBe(200);
    expect(other.headers.get('etag')).toBe(etag);

    // The full cost form differs in `extensions` only: the same data, the same tag.
    const full = await get(query, { 'cost-detail': 'full' });
    expect(full.headers.get('etag')).toBe(etag);
    expect((await full.json()).extensions.cost.governance.rules).toBeDefined();
  });

  it('the ETag differs per permission set, so a tag never validates the copy of a caller with other permissions', async () => {
    const query = '{ venues(first: 1) { nodes { id } } }';
    const a = await get(query);
    const b = await get(query, { authorization: 'Bearer reader-key' });
    expect(a.headers.get('etag')).not.toBe(b.headers.get('etag'));
    const cross = await get(query, {
      authorization: 'Bearer reader-key',
      'if-none-match': a.headers.get('etag')!,
    });
    expect(cross.status).toBe(200);
  });

  it('max-age is what remains of the shortest-lived answer used; an uncacheable read means revalidate', () => {
    const now = 1_000_000;
    const usage = new UsageTracker();
    expect(usage.freshForSeconds(now)).toBe(Number.POSITIVE_INFINITY);
    usage.readFreshUntil(now + 30_000);
    usage.readFreshUntil(now + 12_500); // an entry cached 17.5 s ago
    expect(usage.freshForSeconds(now)).toBe(12);
    usage.readFreshUntil(null); // e.g. a read with an event password, never cached
    expect(usage.freshForSeconds(now)).toBeNull();
  });

  it('never on mutations or POST, and errors are not stored', async () => {
    const mutation = await get('mutation { createTag(input: { name: "via get" }) { id } }');
    expect(mutation.status).toBe(405);
    expect(mutation.headers.get('cache-control')).toBeNull();
    expect(mutation.headers.get('etag')).toBeNull();

    const post = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ venues(first: 1) { nodes { id } } }' }),
    });
    expect(post.status).toBe(200);
    expect(post.headers.get('etag')).toBeNull();
    expect(post.headers.get('cache-control')).toBeNull();

    const failing = await get('{ event(id: "1", slug: "x") { id } }');
    expect(failing.headers.get('cache-control')).toBe('private, no-store');
    expect(failing.headers.get('etag')).toBeNull();
  });
});
