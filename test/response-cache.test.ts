/**
 * The whole-answer response cache, over real HTTP: a repeated query is answered before Yoga with no
 * upstream call and its own request id and cost extension; answers never cross credentials; the
 * gateway's own writes drop the answers that read what they changed (records and lists); what the
 * pipeline refuses or answers with errors is never served from it; and two replicas share it
 * through Redis.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AnswerCache, type CachedAnswer } from '../src/core/answer-cache.js';
import { ResponseCache } from '../src/core/cache.js';
import { SharedCacheTier } from '../src/core/cache-shared.js';
import { RedisLink } from '../src/core/redis.js';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { apiCalls, fetchToken } from './support/governance.js';
import { operation as op } from './support/operations.js';
import { REDIS_URL, requireRedis, uniquePrefix } from './support/redis.js';
import { startStack, type Stack } from './support/stack.js';
import { EntityGraphDocument } from '../src/generated/graphql.js';
import { until, untilClock } from './support/wait.js';

type Any = any;

interface Answer {
  status: number;
  headers: Headers;
  body: Any;
}

async function post(url: string, query: string, variables: Record<string, unknown> = {}, headers = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, headers: res.headers, body: await res.json() } satisfies Answer;
}

const hit = (a: Answer) => a.headers.get('x-cache') === 'HIT';

async function listening(options: Parameters<typeof startStack>[0] = {}): Promise<{ stack: Stack; url: string }> {
  const stack = await startStack(options);
  return { stack, url: await stack.listen() };
}

describe('response cache', () => {
  it('answers a repeated query before execution: no upstream call, its own request id, the cost marked cached', async () => {
    const { stack, url } = await listening();
    const first = await post(url, op('EntityGraph'), { first: 5 });
    expect(first.body.errors).toBeUndefined();
    expect(hit(first)).toBe(false);
    stack.clearRequests();
    const second = await post(url, op('EntityGraph'), { first: 5 });
    expect(hit(second)).toBe(true);
    expect(second.body.data).toEqual(first.body.data);
    expect(apiCalls(stack)).toHaveLength(0);
    expect(second.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    const cost = second.body.extensions.cost;
    expect(cost.governance).toMatchObject({ actual: 0, cacheHits: 0, cached: true });
    expect(cost.governance.estimated).toBe(first.body.extensions.cost.governance.estimated);
    expect(cost.governance.remaining).toBeGreaterThan(0);
    expect(first.body.extensions.cost.governance.cached).toBeUndefined();
    // Counted as an operation, and as a hit (memory tier) for the hit ratio.
    const metrics = await (await fetch(url.replace(/\/graphql$/, '/metrics'))).text();
    expect(metrics).toMatch(/gateway_response_cache_hits_total\{operation="EntityGraph",tier="memory"\} 1\b/);
    // The full form on request, from the cache too.
    const detailed = await post(url, op('EntityGraph'), { first: 5 }, { 'cost-detail': 'full' });
    expect(hit(detailed)).toBe(true);
    expect(detailed.body.extensions.cost.governance).toMatchObject({ cached: true, actual: 0, shared: false });
    expect(detailed.body.extensions.cost.governance.rules.length).toBeGreaterThan(0);
    // A client asking for a fresh answer gets one (executed), which then serves the next asker.
    stack.clearRequests();
    const reload = await post(url, op('EntityGraph'), { first: 5 }, { 'cache-control': 'no-cache' });
    expect(hit(reload)).toBe(false);
    expect(apiCalls(stack).length + reload.body.extensions.cost.governance.cacheHits).toBeGreaterThan(0);
    expect(hit(await post(url, op('EntityGraph'), { first: 5 }))).toBe(true);
    expect(hit(await post(url, op('EntityGraph'), { first: 5 }, { 'cache-control': 'no-store' }))).toBe(false);
    // A body read here is handed to Yoga whole, however large (within the body limit).
    const padded = await post(url, op('EntityGraph'), { first: 3, pad: 'x'.repeat(200_000) });
    expect(padded.status).toBe(200);
    expect(padded.body.data.entities.nodes).toHaveLength(3);
    // Other variables are another answer.
    const other = await post(url, op('EntityGraph'), { first: 4 });
    expect(hit(other)).toBe(false);
    expect(other.body.data.entities.nodes).toHaveLength(4);
  });

  it('never serves one credential’s answer to another: each token is its own entry, a bad one is refused upstream', async () => {
    const { stack, url } = await listening({
      configure: (c) => ({ ...c, governance: { ...c.governance, authMode: 'forward' } }),
    });
    const query = '{ entities(first: 3) { nodes { id name } } }';
    const [full, read] = [await fetchToken(stack, 'full'), await fetchToken(stack, 'read')];
    const first = { authorization: `Bearer ${full}` };
    expect(hit(await post(url, query, {}, first))).toBe(false);
    expect(hit(await post(url, query, {}, first))).toBe(true);
    // Another token: its own miss, answered by the upstream with that token.
    stack.clearRequests();
    const other = await post(url, query, {}, { authorization: `Bearer ${read}` });
    expect(hit(other)).toBe(false);
    expect(apiCalls(stack)).toHaveLength(1);
    expect(hit(await post(url, query, {}, { authorization: `Bearer ${read}` }))).toBe(true);
    // A token the upstream refuses, or none, gets its refusal, never the data cached for others;
    // and errors are not cached: asked again, the upstream refuses again.
    for (let i = 0; i < 2; i++) {
      const bad = await post(url, query, {}, { authorization: 'Bearer not-a-token' });
      expect(hit(bad)).toBe(false);
      expect(bad.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(bad.body.data?.entities ?? null).toBeNull();
    }
    const anonymous = await post(url, query);
    expect(hit(anonymous)).toBe(false);
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it("a read after the gateway's own write shows the write, for the record and for the lists that held it", async () => {
    const { url } = await listening();
    const list = await post(url, '{ entities(first: 50, kind: DATASET) { totalCount nodes { id name } } }');
    const target = list.body.data.entities.nodes[0];
    const read = () => post(url, op('EntityById'), { id: target.id });
    await read();
    expect(hit(await read())).toBe(true);
    const renamed = await post(url, op('RenameEntity'), { id: target.id, name: 'Renamed through the cache test' });
    expect(renamed.body.errors).toBeUndefined();
    const after = await read();
    expect(hit(after)).toBe(false);
    expect(after.body.data.entity.name).toBe('Renamed through the cache test');
    expect(hit(await read())).toBe(true);
    // A create changes the lists: the cached list answer is dropped too.
    const listAgain = () => post(url, '{ entities(first: 50, kind: DATASET) { totalCount nodes { id name } } }');
    expect(hit(await listAgain())).toBe(false); // the rename dropped it as well (it held the record)
    expect(hit(await listAgain())).toBe(true);
    const created = await post(url, op('CreateDataset'), {
      organizationId: (await post(url, op('EntityById'), { id: target.id })).body.data.entity.organizationId,
      name: 'Made after the list was cached',
    });
    expect(created.body.errors).toBeUndefined();
    const listed = await listAgain();
    expect(hit(listed)).toBe(false);
    expect(listed.body.data.entities.totalCount).toBe(list.body.data.entities.totalCount + 1);
  });

  it('mutations, errors, the budget field and CSRF-refused requests are never answered from it', async () => {
    const { url } = await listening({
      configure: (c) => ({ ...c, security: { ...c.security, csrfPrevention: true } }),
    });
    const budget = '{ budget { upstream rules { remaining } } entities(first: 2) { nodes { id } } }';
    const withBudget = await post(url, budget);
    expect(withBudget.body.errors).toBeUndefined();
    expect(withBudget.body.data.entities.nodes).toHaveLength(2);
    expect(hit(await post(url, budget))).toBe(false);
    const bad = '{ entity(id: "not-a-uuid") { id } }';
    await post(url, bad);
    const badAgain = await post(url, bad);
    expect(hit(badAgain)).toBe(false);
    expect(badAgain.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    // A GET with the CSRF header is cached; the same GET without it is still refused.
    const get = `${url}?query=${encodeURIComponent('{ entities(first: 2) { nodes { id name } } }')}`;
    const withHeader = () =>
      fetch(get, { headers: { 'x-graphql-yoga-csrf': '1', accept: 'application/graphql-response+json' } });
    await withHeader();
    const cached = await withHeader();
    expect(cached.headers.get('x-cache')).toBe('HIT');
    expect(cached.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    const refused = await fetch(get, { headers: { accept: 'application/graphql-response+json' } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('x-cache')).toBeNull();
    // The same query asked as an event stream is answered as one, never with a cached JSON body.
    const sse = () =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query: '{ entities(first: 2) { nodes { id } } }' }),
      });
    await sse();
    const streamed = await sse();
    expect(streamed.headers.get('x-cache')).toBeNull();
    expect(await streamed.text()).toMatch(/^event: next\ndata: \{"data"/m);
    // The validator still works on a hit: a bodiless 304.
    const etag = cached.headers.get('etag')!;
    const revalidated = await fetch(get, { headers: { 'x-graphql-yoga-csrf': '1', 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
  });

  it('looks every request up as it is: mutations run every time, a batch of one is answered as a batch', async () => {
    const { stack, url } = await listening({ env: { GRAPHQL_MAX_BATCH: '2' } });
    // The same bytes twice (the second a duplicate the upstream refuses): both reach the upstream.
    const create = 'mutation { createTag(input: { name: "again and again" }) { id } }';
    stack.clearRequests();
    for (let i = 0; i < 2; i++) expect(hit(await post(url, create))).toBe(false);
    expect(stack.calendar.control.requests().requests.filter((r) => r.method === 'POST')).toHaveLength(2);
    const batch = () =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        body: JSON.stringify([{ query: '{ entities(first: 2) { nodes { id } } }' }]),
      });
    await batch();
    stack.clearRequests();
    const again = await batch();
    expect(again.headers.get('x-cache')).toBeNull();
    const body = (await again.json()) as { data: { entities: { nodes: unknown[] } } }[];
    expect(Array.isArray(body)).toBe(true);
    expect(body[0]!.data.entities.nodes).toHaveLength(2);
  });

  it('keeps the persisted-only rule: text is refused every time, a safelisted hash is cached', async () => {
    const { url } = await listening({ env: { PERSISTED_OPERATIONS: 'only' } });
    const send = (body: unknown) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        body: JSON.stringify(body),
      });
    const hash = (EntityGraphDocument as { __meta__?: { hash: string } }).__meta__!.hash;
    const byHash = { documentId: hash, variables: { first: 2 } };
    expect((await send(byHash)).headers.get('x-cache')).toBeNull();
    const cached = await send(byHash);
    expect(cached.headers.get('x-cache')).toBe('HIT');
    expect((await cached.json()).data.entities.nodes).toHaveLength(2);
    for (let i = 0; i < 2; i++) {
      const text = await send({ query: op('EntityGraph'), variables: { first: 2 } });
      expect(text.status).toBe(400);
      expect(text.headers.get('x-cache')).toBeNull();
    }
  });

  it('serves compressed bytes to clients that accept them', async () => {
    const { url } = await listening();
    const headers = { 'accept-encoding': 'gzip' };
    const first = await post(url, op('EntityGraph'), { first: 10 }, headers);
    // fetch decompresses on its own; the bytes on the wire are read with node:http below.
    const again = await post(url, op('EntityGraph'), { first: 10 }, headers);
    expect(hit(again)).toBe(true);
    expect(again.headers.get('content-encoding')).toBe('gzip');
    expect(again.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(again.body.data).toEqual(first.body.data);
    // The bytes on the wire are gzip of the JSON answer.
    const { request } = await import('node:http');
    const bytes = await new Promise<Buffer>((resolve, reject) => {
      const body = JSON.stringify({ query: op('EntityGraph'), variables: { first: 10 } });
      const req = request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json',
          'accept-encoding': 'gzip',
          'content-length': Buffer.byteLength(body),
        },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks)));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(JSON.parse(gunzipSync(bytes).toString()).data).toEqual(first.body.data);
  });

  it('an answer whose operation started before a write to what it read is not stored', () => {
    const records = new ResponseCache({ maxBytes: 1 << 20, maxStaleMs: 0 });
    const answers = new AnswerCache({ maxBytes: 1 << 20, maxEntryBytes: 1 << 20, records });
    const answer: CachedAnswer = {
      status: 200,
      headers: {},
      head: '{"data":{}',
      estimate: {},
      storedAt: Date.now(),
      freshUntil: Date.now() + 60_000,
      tags: ['governance:entity:1', 'governance:list:entities'],
    };
    const marks = { localMark: records.mark() };
    records.invalidate(['governance:list:entities']);
    answers.store('k', answer, marks);
    expect(answers.local('k')).toBeUndefined();
    answers.store('k', answer, { localMark: records.mark() });
    expect(answers.local('k')).toBeDefined();
    records.invalidate(['governance:entity:1']);
    expect(answers.local('k')).toBeUndefined();
  });
});

const redis = await requireRedis();

/** Two gateways on one Redis in front of the same emulators (as two processes would be), both sharing. */
async function replicas(env: Record<string, string>) {
  const a = await listening({ env });
  const b = await listening({ env: { ...env, ...emulatorEnv(a.stack.governance, a.stack.calendar) } });
  await until(() =>
    Boolean(a.stack.gateway.upstreams.sharedCache?.ready && b.stack.gateway.upstreams.sharedCache?.ready),
  );
  return [a, b] as const;
}

describe.skipIf(!redis)('response cache shared by replicas through Redis', () => {
  it('an answer a replica put in Redis is deleted there when an invalidation of what it read reaches that replica', async () => {
    // The race this covers: another replica's write bumped the tag before this replica's lookup, but
    // its message had not arrived, so the answer was built from this replica's pre-write records and
    // passed the store's check. When the message arrives, the answer must go from Redis too.
    const prefix = uniquePrefix();
    const replica = () => {
      const link = new RedisLink({ url: REDIS_URL, prefix, commandTimeoutMs: 500 });
      const records = new ResponseCache({ maxBytes: 1 << 20, maxStaleMs: 0 });
      const shared = new SharedCacheTier(records, {
        redis: link,
        waitMs: 0,
        ackTimeoutMs: 500,
        maxEntryBytes: 1 << 20,
      });
      return {
        link,
        records,
        shared,
        answers: new AnswerCache({ maxBytes: 1 << 20, maxEntryBytes: 1 << 20, records, shared }),
      };
    };
    const [b, c] = [replica(), replica()];
    try {
      await until(() => b.shared.ready && c.shared.ready);
      const answer: CachedAnswer = {
        status: 200,
        headers: { 'content-type': 'application/json' },
        head: '{"data":{"entity":{"name":"before the write"}}',
        estimate: {},
        storedAt: Date.now(),
        freshUntil: Date.now() + 60_000,
        tags: ['governance:entity:7'],
      };
      const marks = await b.answers.lookup('k');
      if (marks.hit) throw new Error('a fresh prefix holds no answer');
      b.answers.store('k', answer, marks);
      await until(async () => (await c.answers.lookup('k')).hit !== undefined);
      // The invalidation reaches b (as the other replica's message would deliver it).
      b.records.invalidateLocal(['governance:entity:7']);
      await until(async () => (await c.answers.lookup('k')).hit === undefined);
    } finally {
      for (const r of [b, c]) await r.link.close();
    }
  });

  it('a record another replica cached counts with its own remaining freshness, not a whole TTL from now', async () => {
    const env = { REDIS_URL, REDIS_KEY_PREFIX: uniquePrefix(), CACHE_TTL_MS: '3000', RESPONSE_CACHE: 'false' };
    const [a, b] = await replicas(env);
    const get = (url: string) =>
      fetch(`${url}?query=${encodeURIComponent('{ entities(first: 2) { nodes { id } } }')}`, {
        headers: { accept: 'application/graphql-response+json' },
      });
    // b's token first (its own request, not what is measured).
    await post(b.url, '{ entities(first: 1) { nodes { id } } }');
    const asked = Date.now();
    const first = await get(a.url);
    // a stored the record in Redis before answering: it is fresh until this moment + 3 s at the latest,
    // and no earlier than the moment it was asked + 3 s (a busy machine may take a while to answer).
    const fetchedAt = Date.now();
    const firstMaxAge = Number(/max-age=(\d+)$/.exec(first.headers.get('cache-control') ?? '')?.[1]);
    expect(firstMaxAge).toBeLessThanOrEqual(3);
    expect(firstMaxAge).toBeGreaterThanOrEqual(Math.floor((3_000 - (fetchedAt - asked)) / 1_000));
    // Wait until at least 1.2 s of the 3 s have passed, then read through the other replica.
    await untilClock(fetchedAt + 1_200);
    const second = await get(b.url);
    const body = await second.json();
    expect(body.extensions.cost.governance).toMatchObject({ actual: 0, cacheHits: 1 });
    const maxAge = Number(/max-age=(\d+)/.exec(second.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeLessThanOrEqual(1);
  });

  it('an answer cached by one replica is served by the other; a write through either drops it for both', async () => {
    const env = { REDIS_URL, REDIS_KEY_PREFIX: uniquePrefix() };
    const [a, b] = await replicas(env);
    const first = await post(a.url, op('EventGraph'), { first: 5 });
    expect(first.body.errors).toBeUndefined();
    a.stack.clearRequests();
    const fromB = await post(b.url, op('EventGraph'), { first: 5 });
    expect(hit(fromB)).toBe(true);
    expect(fromB.body.data).toEqual(first.body.data);
    expect(a.stack.calendar.control.requests().requests).toHaveLength(0);

    const event = first.body.data.events.nodes[0];
    const read = (url: string) => post(url, 'query($id: ID!) { event(id: $id) { id title } }', { id: event.id });
    await read(a.url);
    expect(hit(await read(b.url))).toBe(true);
    const changed = await post(b.url, op('UpdateEvent'), { id: event.id, title: 'Shared write' });
    expect(changed.body.errors).toBeUndefined();
    for (const url of [a.url, b.url]) {
      const after = await read(url);
      expect(after.body.data.event.title).toBe('Shared write');
    }
  });
});
