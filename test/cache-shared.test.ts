/**
 * The response cache's Redis tier, with gateways that share nothing but Redis and the emulators:
 * three replicas sent the same cold EntityGraph in turn cost the upstreams about what one costs;
 * two replicas asking for the same cold record at once send one request; a write through one
 * replica is seen by a read through another (and a read that raced the write never stores its
 * pre-write answer); losing Redis in the middle of a run degrades to the local tier without errors,
 * and the shared tier comes back with Redis. The tier may live on a Redis of its own (REDIS_CACHE_URL).
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { createGateway, type Gateway } from '../src/app/gateway.js';
import { startCalendarEmulator } from '../src/emulators/calendar/index.js';
import { loadConfig } from '../src/config/config.js';
import { ResponseCache } from '../src/core/cache.js';
import { SharedCacheTier } from '../src/core/cache-shared.js';
import { UsageTracker } from '../src/core/usage.js';
import type { HttpResponse } from '../src/core/http.js';
import { RedisLink } from '../src/core/redis.js';
import { startGovernanceEmulator } from '../src/emulators/governance/index.js';
import { operation } from './support/operations.js';
import { fileRedis, RedisProxy, uniquePrefix } from './support/redis.js';
import { until } from './support/wait.js';

// A redis-server of this file's own: the tests delete counters to play their loss.
const OWN_REDIS_URL = (await fileRedis()) ?? '';
const run = OWN_REDIS_URL !== '';

/** The traversal the shared tier is measured with: entities → links → counterparts (test/operations). */
const ENTITY_GRAPH = operation('EntityGraph');

/**
 * Where a test counts what is shared, a busy machine must not pass for a slow Redis (which the
 * tier rightly skips): generous command timeout and wait (a cut Redis fails at once anyway).
 */
const PATIENT = { redisCommandTimeoutMs: 10_000, sharedWaitMs: 10_000 };

type Emulators = {
  governance: Awaited<ReturnType<typeof startGovernanceEmulator>>;
  calendar: Awaited<ReturnType<typeof startCalendarEmulator>>;
};
interface Replica {
  gateway: Gateway;
  query<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<{ data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] }>;
}

const closers: (() => Promise<unknown>)[] = [];
const admin = run ? new Redis(OWN_REDIS_URL) : undefined;
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  admin?.disconnect();
});

const newPrefix = uniquePrefix;

async function startEmulators(governanceLatencyMs = 0): Promise<Emulators> {
  const [governance, calendar] = await Promise.all([
    startGovernanceEmulator({ latency: { fixedMs: governanceLatencyMs } }),
    startCalendarEmulator(),
  ]);
  closers.push(() => Promise.all([governance.close(), calendar.close()]));
  return { governance, calendar };
}

async function startReplica(emulators: Emulators, env: Record<string, string>, patience = PATIENT): Promise<Replica> {
  const loaded = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ...emulatorEnv(emulators.governance, emulators.calendar),
    ...env,
  });
  const config = {
    ...loaded,
    traffic: { ...loaded.traffic, redisCommandTimeoutMs: patience.redisCommandTimeoutMs },
    cache: { ...loaded.cache, shared: { ...loaded.cache.shared, waitMs: patience.sharedWaitMs } },
  };
  const gateway = createGateway({ config });
  closers.push(() => gateway.close());
  await until(() => gateway.upstreams.sharedCache?.ready === true);
  return {
    gateway,
    async query(query, variables) {
      const res = await gateway.yoga.fetch('http://gateway.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        body: JSON.stringify({ query, variables }),
      });
      return (await res.json()) as never;
    },
  };
}

/** Upstream reads the emulators saw (token requests are each replica's own and not cacheable). */
function reads(emulators: Emulators): number {
  const all = [...emulators.governance.control.requests().requests, ...emulators.calendar.control.requests().requests];
  return all.filter((r) => !r.route.includes('token')).length;
}

describe.skipIf(!run)('the shared cache tier', () => {
  it('three replicas sent the same cold EntityGraph in turn make the upstream calls of one', async () => {
    const emulators = await startEmulators();
    const env = { REDIS_URL: OWN_REDIS_URL, REDIS_KEY_PREFIX: newPrefix() };
    const replicas = await Promise.all([
      startReplica(emulators, env),
      startReplica(emulators, env),
      startReplica(emulators, env),
    ]);
    emulators.governance.control.clearRequests();
    emulators.calendar.control.clearRequests();
    const answers = [];
    const calls: number[] = [];
    for (const replica of replicas) {
      const before = reads(emulators);
      const res = await replica.query(ENTITY_GRAPH, { first: 10 });
      expect(res.errors).toBeUndefined();
      answers.push(res.data);
      calls.push(reads(emulators) - before);
    }
    const [one] = calls as [number];
    expect(one).toBeGreaterThan(10); // a real graph: the list, links, counterparts
    // The other two replicas answer from Redis: at most 1.2× the calls of one replica in all.
    expect(calls.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(Math.floor(one * 1.2));
    expect(calls.slice(1)).toEqual([0, 0]);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('an operation knows the tags of what it read, from the wire, the local tier or Redis, and a Redis hit counts as a cache hit', async () => {
    const emulators = await startEmulators();
    const env = { REDIS_URL: OWN_REDIS_URL, REDIS_KEY_PREFIX: newPrefix() };
    const [a, b] = await Promise.all([startReplica(emulators, env), startReplica(emulators, env)]);
    const read = (replica: Replica) => {
      const usage = new UsageTracker();
      const call = {
        method: 'GET',
        path: '/events',
        query: { per_page: 2 },
        idempotent: true,
        kind: 'page',
        operation: 'events.list',
        cache: { ttlMs: 60_000, tags: ['calendar:events', 'calendar:venues'] },
      } as const;
      return replica.gateway.upstreams.calendar
        .call(call, { identity: 'anonymous', usage })
        .then((res) => ({ res, usage }));
    };
    const wire = await read(a);
    const local = await read(a);
    const shared = await read(b);
    for (const { res, usage } of [wire, local, shared]) {
      expect(res.status).toBe(200);
      expect([...usage.tags]).toEqual(['calendar:events', 'calendar:venues']);
    }
    expect(wire.usage.get('calendar')).toMatchObject({ requests: 1, cacheHits: 0 });
    expect(local.usage.get('calendar')).toMatchObject({ requests: 0, cacheHits: 1 });
    expect(shared.usage.get('calendar')).toMatchObject({ requests: 0, cacheHits: 1 });
    expect(shared.res.body).toEqual(wire.res.body);
  });

  it("REDIS_CACHE_URL: the cache tier on a Redis of its own, shared while the budget's Redis is down", async () => {
    const emulators = await startEmulators();
    const budgetRedis = new RedisProxy(OWN_REDIS_URL);
    const budgetUrl = await budgetRedis.start();
    closers.push(() => budgetRedis.close());
    budgetRedis.cut();
    const prefix = newPrefix();
    const env = { REDIS_URL: budgetUrl, REDIS_CACHE_URL: OWN_REDIS_URL, REDIS_KEY_PREFIX: prefix };
    const [a, b] = await Promise.all([startReplica(emulators, env), startReplica(emulators, env)]);
    expect(a.gateway.upstreams.redis!.ready).toBe(false);
    const first = await a.query(ENTITY_GRAPH, { first: 3 });
    const before = reads(emulators);
    const second = await b.query(ENTITY_GRAPH, { first: 3 });
    expect(first.errors).toBeUndefined();
    expect(second.data).toEqual(first.data);
    expect(reads(emulators)).toBe(before);
    expect((await admin!.keys(`${prefix}cache:entry:*`)).length).toBeGreaterThan(0);
  });

  it('two replicas asking for the same cold records at once send each request once', async () => {
    const emulators = await startEmulators(150);
    const env = { REDIS_URL: OWN_REDIS_URL, REDIS_KEY_PREFIX: newPrefix() };
    const [a, b] = await Promise.all([startReplica(emulators, env), startReplica(emulators, env)]);
    await Promise.all([a.query('{ __typename }'), b.query('{ __typename }')]);
    const ids = await a.query<{ entities: { nodes: { id: string }[] } }>('{ entities(first: 5) { nodes { id } } }');
    emulators.governance.control.clearRequests();
    const query = 'query ($id: ID!) { entity(id: $id) { id name } }';
    const id = ids.data!.entities.nodes[0]!.id;
    const both = await Promise.all([a.query(query, { id }), b.query(query, { id })]);
    expect(both.map((r) => r.errors)).toEqual([undefined, undefined]);
    expect(
      emulators.governance.control.requests().requests.filter((r) => r.route === 'GET /entities/:entityId'),
    ).toHaveLength(1);
  });

  it('a write through one replica is seen by reads through the others, cached or not', async () => {
    const emulators = await startEmulators();
    const env = { REDIS_URL: OWN_REDIS_URL, REDIS_KEY_PREFIX: newPrefix() };
    const [a, b] = await Promise.all([startReplica(emulators, env), startReplica(emulators, env)]);
    const whole = '{ entities(first: 200) { nodes { id name } } }';
    const list = await b.query<{ entities: { nodes: { id: string; name: string }[] } }>(whole);
    const { id } = list.data!.entities.nodes[0]!;
    const read = 'query ($id: ID!) { entity(id: $id) { id name } }';
    // Both replicas hold the record locally, and Redis holds it.
    await a.query(read, { id });
    await b.query(read, { id });
    const before = reads(emulators);
    expect((await b.query(read, { id })).errors).toBeUndefined();
    expect(reads(emulators)).toBe(before);

    for (const name of ['Renamed once', 'Renamed twice']) {
      const write = await a.query(
        'mutation ($id: ID!, $name: String!) { updateEntity(id: $id, input: { name: $name }) { id name } }',
        { id, name },
      );
      expect(write.errors).toBeUndefined();
      // Right after the write's answer: the other replica's local copy is gone, and Redis's is stale.
      expect((await b.query<{ entity: { name: string } }>(read, { id })).data?.entity.name).toBe(name);
      const c = await startReplica(emulators, env);
      expect((await c.query<{ entity: { name: string } }>(read, { id })).data?.entity.name).toBe(name);
      // The lists that held the record are invalidated too.
      const names = await b.query<{ entities: { nodes: { id: string; name: string }[] } }>(whole);
      expect(names.data!.entities.nodes.find((n) => n.id === id)?.name).toBe(name);
    }
  });

  it("a read that raced another replica's write stores nothing, in Redis or locally", async () => {
    const prefix = newPrefix();
    const link = () => {
      const l = new RedisLink({ url: OWN_REDIS_URL, prefix, commandTimeoutMs: 10_000 });
      closers.push(() => l.close());
      return l;
    };
    const make = () => {
      const cache = new ResponseCache({ maxBytes: 1_000_000, maxStaleMs: 0 });
      return {
        cache,
        tier: new SharedCacheTier(cache, {
          redis: link(),
          waitMs: 0,
          ackTimeoutMs: 10_000,
          maxEntryBytes: 1_000_000,
        }),
      };
    };
    const a = make();
    const b = make();
    const c = make();
    await until(() => a.tier.ready && b.tier.ready && c.tier.ready);
    const key = ResponseCache.key('client:x', 'GET', 'http://upstream/entities/1');
    const tags = ['governance:entity:1', 'governance:list:entities'];
    const old: HttpResponse = { status: 200, headers: {}, body: { name: 'before' }, bytes: 20 };

    // b starts a read; a writes and invalidates; b's pre-write answer then arrives.
    const mark = b.cache.mark();
    const pending = await b.tier.lookup(key, tags);
    expect(pending?.kind).toBe('miss');
    a.cache.invalidate(['governance:entity:1']);
    await a.cache.settled();
    if (pending?.kind !== 'miss') throw new Error('expected a miss');
    expect(await pending.store(old, 60_000)).toBe(false);
    expect(await c.tier.lookup(key, tags)).toMatchObject({ kind: 'miss' });
    // The message reached b's local tier too, whose own check refuses the store.
    await until(() => b.cache.changedSince(mark, tags));

    // An entry stored before a write is not served after it (checked on read).
    const fresh = await c.tier.lookup(key, tags);
    if (fresh?.kind !== 'miss') throw new Error('expected a miss');
    expect(await fresh.store({ ...old, body: { name: 'stored' } }, 60_000)).toBe(true);
    expect(await b.tier.lookup(key, tags)).toMatchObject({ kind: 'hit', response: { body: { name: 'stored' } } });
    a.cache.invalidate(['governance:list:entities']);
    await a.cache.settled();
    expect(await b.tier.lookup(key, tags)).toMatchObject({ kind: 'miss' });

    // A counter lost (evicted, or the data set emptied) is recreated at a value no entry was stored with.
    const again = await c.tier.lookup(key, tags);
    if (again?.kind !== 'miss') throw new Error('expected a miss');
    expect(await again.store(old, 60_000)).toBe(true);
    await admin!.del(`${prefix}cache:tag:governance:entity:1`);
    expect(await b.tier.lookup(key, tags)).toMatchObject({ kind: 'miss' });
  });

  it('Redis lost in the middle of a run: no errors, the local tier serves, and sharing resumes with Redis', async () => {
    const emulators = await startEmulators(20);
    const proxy = new RedisProxy(OWN_REDIS_URL);
    const url = await proxy.start();
    closers.push(() => proxy.close());
    const env = { REDIS_URL: url, REDIS_KEY_PREFIX: newPrefix() };
    const [a, b] = await Promise.all([startReplica(emulators, env), startReplica(emulators, env)]);
    const warm = await a.query(ENTITY_GRAPH, { first: 3 });
    expect(warm.errors).toBeUndefined();

    // Cut Redis while both replicas are in the middle of cold graphs.
    emulators.governance.control.clearRequests();
    const running = Promise.all([
      a.query(ENTITY_GRAPH, { first: 12 }),
      b.query(ENTITY_GRAPH, { first: 12 }),
      b.query(ENTITY_GRAPH, { first: 3 }),
    ]);
    // Their first upstream request is on its way (20 ms at the emulator). Not a fixed count: what
    // the graphs cost upstream depends on what they find of each other's in the shared tier.
    await until(() => emulators.governance.control.requests().requests.length >= 1, 'the graphs to start');
    proxy.cut();
    const during = await running;
    expect(during.map((r) => r.errors)).toEqual([undefined, undefined, undefined]);
    await until(() => !a.gateway.upstreams.sharedCache!.ready && !b.gateway.upstreams.sharedCache!.ready);

    // Without Redis: each replica's local tier still answers what it holds, without an upstream call.
    const before = reads(emulators);
    const local = await b.query(ENTITY_GRAPH, { first: 12 });
    expect(local.errors).toBeUndefined();
    expect(reads(emulators)).toBe(before);
    expect(local.data).toEqual(during[0].data);
    // A write meanwhile is kept and applied to Redis when it is back.
    const id = (during[0].data as { entities: { nodes: { id: string }[] } }).entities.nodes[0]!.id;
    const write = await a.query(
      'mutation ($id: ID!, $name: String!) { updateEntity(id: $id, input: { name: $name }) { id name } }',
      { id, name: 'Renamed during the outage' },
    );
    expect(write.errors).toBeUndefined();

    proxy.restore();
    await until(() => a.gateway.upstreams.sharedCache!.ready && b.gateway.upstreams.sharedCache!.ready);
    // b missed the message: its local copy was dropped on reconnecting, and Redis's copy is stale.
    const name = await b.query<{ entity: { name: string } }>('query ($id: ID!) { entity(id: $id) { name } }', { id });
    expect(name.data?.entity.name).toBe('Renamed during the outage');
    // Shared again: what b fetched now costs a nothing more.
    const afterRestore = reads(emulators);
    const fromB = await b.query(ENTITY_GRAPH, { first: 5 });
    const mid = reads(emulators);
    const fromA = await a.query(ENTITY_GRAPH, { first: 5 });
    expect(fromB.errors).toBeUndefined();
    expect(fromA.errors).toBeUndefined();
    expect(mid).toBeGreaterThan(afterRestore);
    expect(reads(emulators)).toBe(mid);
  });

  it('a hung Redis (connection open, no answers) costs one command timeout, then the local tier alone', async () => {
    const emulators = await startEmulators();
    const proxy = new RedisProxy(OWN_REDIS_URL);
    const url = await proxy.start();
    closers.push(() => proxy.close());
    const replica = await startReplica(
      emulators,
      { REDIS_URL: url, REDIS_KEY_PREFIX: newPrefix() },
      { redisCommandTimeoutMs: 300, sharedWaitMs: 2_000 },
    );
    await replica.query('{ __typename }');
    proxy.stall();
    const first = await replica.query(ENTITY_GRAPH, { first: 10 });
    expect(first.errors).toBeUndefined();
    expect(replica.gateway.upstreams.sharedCache!.ready).toBe(false);
    // Later reads do not ask the hung Redis again (each would wait a command timeout).
    const client = replica.gateway.upstreams.redis!.client;
    const lookups = vi.spyOn(client as unknown as { gatewayCacheLookup: () => Promise<unknown> }, 'gatewayCacheLookup');
    const second = await replica.query(ENTITY_GRAPH, { first: 11 });
    expect(second.errors).toBeUndefined();
    expect(lookups).not.toHaveBeenCalled();
    // Redis answers again: the tier catches up by itself and is asked again.
    proxy.restore();
    await until(() => replica.gateway.upstreams.sharedCache!.ready);
    expect((await replica.query(ENTITY_GRAPH, { first: 12 })).errors).toBeUndefined();
    expect(lookups).toHaveBeenCalled();
  });
});
