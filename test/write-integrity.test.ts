/**
 * Write integrity over real HTTP, with the emulator's latency and jitter on: concurrent updates of
 * one event lose nothing (one gateway, and two gateways sharing the suite's Redis), a stale
 * `expectedVersion` is a CONFLICT that writes nothing, a retried create with the same idempotency
 * key creates one record, and a write whose answer is lost is UPSTREAM_OUTCOME_UNKNOWN, sent once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway, type Gateway } from '../src/app/gateway.js';
import { UsageTracker } from '../src/core/usage.js';
import { UpstreamError } from '../src/core/errors.js';
import { REDIS_URL, requireRedis, uniquePrefix } from './support/redis.js';
import { startStack, type Stack } from './support/stack.js';
import { until } from './support/wait.js';

type Json = Record<string, any>;
const LATENCY = { fixedMs: 3, jitterMs: 25 };

async function post(
  url: string,
  query: string,
  variables?: Json,
  headers?: Record<string, string>,
): Promise<{ status: number; data?: Json; errors?: Json[] }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, ...((await res.json()) as Json) };
}

const UPDATE = `mutation($id: ID!, $input: UpdateEventInput!, $v: String) { updateEvent(id: $id, input: $input, expectedVersion: $v) { id title cost featured sticky version } }`;
const READ = `query($id: ID!) { event(id: $id) { id title cost featured sticky hideFromListings version venue { databaseId } } }`;

async function createEvent(url: string, title: string): Promise<string> {
  const res = await post(
    url,
    `mutation($t: String!) { createEvent(input: { title: $t, startDate: "2027-06-01 10:00:00", endDate: "2027-06-01 12:00:00", timezone: "Europe/Lisbon", venueId: "10", hideFromListings: true }) { id } }`,
    { t: title },
  );
  expect(res.errors).toBeUndefined();
  return res.data!.createEvent.id as string;
}

/**
 * 20 pairs: in each, one update sets the title and the other the cost (or `featured` and `sticky`),
 * at the same time; afterwards the event must show both. Returns how many pairs lost a change.
 */
async function lostUpdates(
  urls: [string, string],
  id: string,
  fields: 'title+cost' | 'featured+sticky',
): Promise<number> {
  let lost = 0;
  for (let i = 0; i < 20; i++) {
    const [a, b] =
      fields === 'title+cost'
        ? [{ title: `Title ${i}` }, { cost: `$${i + 1}` }]
        : [{ featured: i % 2 === 0 }, { sticky: i % 2 === 0 }];
    const results = await Promise.all([
      post(urls[0], UPDATE, { id, input: a }),
      post(urls[1], UPDATE, { id, input: b }),
    ]);
    for (const r of results) expect(r.errors).toBeUndefined();
    const now = (await post(urls[0], READ, { id })).data!.event;
    const ok =
      fields === 'title+cost'
        ? now.title === `Title ${i}` && now.cost === `$${i + 1}`
        : now.featured === (i % 2 === 0) && now.sticky === (i % 2 === 0);
    // The fields the plugin resets on a write that leaves them out must survive too.
    if (!ok || now.hideFromListings !== true || now.venue?.databaseId !== '10') lost++;
  }
  return lost;
}

function serve(gateway: Gateway): Promise<{ url: string; server: Server }> {
  const server = createServer(gateway.yoga);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, server }),
    ),
  );
}

describe('concurrent updates of one event through one gateway', () => {
  let s: Stack;
  let url: string;
  beforeAll(async () => {
    s = await startStack({ calendar: { latency: LATENCY } });
    url = await s.listen();
  });

  it('20 pairs of concurrent updates of different fields lose nothing (title and cost; featured and sticky)', async () => {
    const id = await createEvent(url, 'Concurrent one');
    expect(await lostUpdates([url, url], id, 'title+cost')).toBe(0);
    expect(await lostUpdates([url, url], id, 'featured+sticky')).toBe(0);
  });
});

describe('concurrent updates through two gateways sharing Redis', () => {
  let s: Stack;
  let second: Gateway;
  let servers: Server[] = [];
  let urls: [string, string];
  let run = false;
  beforeAll(async () => {
    run = await requireRedis();
    if (!run) return;
    s = await startStack({ calendar: { latency: LATENCY }, env: { REDIS_URL, REDIS_KEY_PREFIX: uniquePrefix() } });
    second = createGateway({ config: s.config });
    const [one, two] = await Promise.all([serve(s.gateway), serve(second)]);
    servers = [one.server, two.server];
    urls = [one.url, two.url];
    await until(() => s.gateway.upstreams.redis?.ready && second.upstreams.redis?.ready, 'both gateways on Redis');
  });
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
    await second?.close();
  });

  it('20 pairs, one update through each replica, lose nothing', async (ctx) => {
    if (!run) return ctx.skip();
    const id = await createEvent(urls[0], 'Concurrent two');
    expect(await lostUpdates(urls, id, 'title+cost')).toBe(0);
    expect(await lostUpdates(urls, id, 'featured+sticky')).toBe(0);
  });
});

describe('preconditions, idempotency keys and lost answers', () => {
  let s: Stack;
  let url: string;
  const posts = (path: RegExp) =>
    s.calendar.control.requests().requests.filter((r) => r.method === 'POST' && path.test(r.path)).length;
  beforeAll(async () => {
    s = await startStack({
      calendar: { latency: LATENCY },
      configure: (c) => ({ ...c, timeouts: { ...c.timeouts, headersMs: 1500 } }),
    });
    url = await s.listen();
  });

  it('a stale expectedVersion gets CONFLICT with the current version and writes nothing; the current one writes', async () => {
    const id = await createEvent(url, 'Versioned');
    const v1 = (await post(url, READ, { id })).data!.event.version as string;
    const changed = await post(url, UPDATE, { id, input: { title: 'Changed by a colleague' }, v: v1 });
    expect(changed.errors).toBeUndefined();
    const v2 = changed.data!.updateEvent.version as string;
    expect(v2).not.toBe(v1);

    s.clearRequests();
    const stale = await post(url, UPDATE, { id, input: { title: 'My stale edit' }, v: v1 });
    expect(stale.data!.updateEvent).toBeNull();
    expect(stale.errors![0]!.extensions).toMatchObject({ code: 'CONFLICT', currentVersion: v2 });
    expect(posts(/^\/events\//)).toBe(0);
    expect((await post(url, READ, { id })).data!.event.title).toBe('Changed by a colleague');

    const fresh = await post(url, UPDATE, { id, input: { title: 'My fresh edit' }, v: v2 });
    expect(fresh.errors).toBeUndefined();
    expect(fresh.data!.updateEvent.title).toBe('My fresh edit');

    // Venues, organizers, terms and governance records take the same precondition.
    const venue = (await post(url, `{ venue(id: "10") { version } }`)).data!.venue.version as string;
    const v = await post(
      url,
      `mutation($v: String) { updateVenue(id: "10", input: { city: "Faro" }, expectedVersion: $v) { city } }`,
      { v: `${venue}x` },
    );
    expect(v.errors![0]!.extensions).toMatchObject({ code: 'CONFLICT', currentVersion: venue });
    const entity = (await post(url, `{ entities(kind: MODEL, first: 1) { nodes { id version } } }`)).data!.entities
      .nodes[0];
    const e = await post(
      url,
      `mutation($id: ID!) { updateEntity(id: $id, input: { name: "Stale" }, expectedVersion: "nope") { id } }`,
      { id: entity.id },
    );
    expect(e.errors![0]!.extensions).toMatchObject({ code: 'CONFLICT', currentVersion: entity.version });
    const ok = await post(
      url,
      `mutation($id: ID!, $v: String) { updateEntity(id: $id, input: { name: "Current" }, expectedVersion: $v) { name version } }`,
      { id: entity.id, v: entity.version },
    );
    expect(ok.data!.updateEntity.name).toBe('Current');
  });

  it('a retried create with the same idempotency key creates one record; another input with that key is refused', async () => {
    s.clearRequests();
    const create = `mutation($t: String!) { createEvent(input: { title: $t, startDate: "2027-07-01 10:00:00", endDate: "2027-07-01 11:00:00" }) { id title } }`;
    const headers = { 'idempotency-key': `create-${Date.now()}` };
    const first = await post(url, create, { t: 'Idempotent' }, headers);
    const retries = await Promise.all([1, 2, 3].map(() => post(url, create, { t: 'Idempotent' }, headers)));
    expect(first.errors).toBeUndefined();
    for (const r of retries) expect(r.data!.createEvent).toEqual(first.data!.createEvent);
    expect(posts(/^\/events$/)).toBe(1);

    const other = await post(url, create, { t: 'Something else' }, headers);
    expect(other.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(posts(/^\/events$/)).toBe(1);

    // Concurrent first attempts: one creates, the others wait their turn or see it running.
    const cmid = `cmid-${Date.now()}`;
    const venue = `mutation($c: String) { createVenue(input: { name: "Idempotent hall" }, clientMutationId: $c) { id } }`;
    const together = await Promise.all([1, 2, 3, 4].map(() => post(url, venue, { c: cmid })));
    const ids = new Set(together.filter((r) => !r.errors).map((r) => r.data!.createVenue.id));
    expect(ids.size).toBe(1);
    for (const r of together.filter((x) => x.errors))
      expect(r.errors![0]!.extensions).toMatchObject({ code: 'CONFLICT', reason: 'IDEMPOTENCY_KEY_IN_USE' });
    expect(posts(/^\/venues$/)).toBe(1);
  });

  it('a write applied but answered by a reset is UPSTREAM_OUTCOME_UNKNOWN, sent once, and the re-read sees it', async () => {
    const id = await createEvent(url, 'Lost answer');
    await post(url, READ, { id }); // cached
    for (const [kind, applied] of [
      ['apply-then-reset', 'unknown'],
      ['apply-then-stall', 'unknown'],
      ['apply-then-cut-body', true],
    ] as const) {
      s.calendar.control.setFaults([{ kind, method: 'POST', pathPrefix: '/events/', times: 1, delayMs: 3_000 }]);
      s.clearRequests();
      const res = await post(url, UPDATE, { id, input: { title: `After ${kind}` } });
      expect(res.data!.updateEvent, kind).toBeNull();
      expect(res.errors![0]!.extensions, kind).toMatchObject({
        code: 'UPSTREAM_OUTCOME_UNKNOWN',
        upstream: 'calendar',
        applied,
      });
      expect(posts(/^\/events\//), kind).toBe(1);
      // The write was applied; the cache was dropped, so the advised re-read shows it.
      expect((await post(url, READ, { id })).data!.event.title, kind).toBe(`After ${kind}`);
    }
    s.calendar.control.clearFaults();
  });

  it('a create whose answer is lost is not created again by a retry with its key', async () => {
    s.calendar.control.setFaults([{ kind: 'apply-then-reset', method: 'POST', pathPrefix: '/events', times: 1 }]);
    s.clearRequests();
    const create = `mutation { createEvent(input: { title: "Lost create", startDate: "2027-08-01 10:00:00", endDate: "2027-08-01 11:00:00" }, clientMutationId: "lost-${Date.now()}") { id } }`;
    const first = await post(url, create);
    expect(first.errors![0]!.extensions).toMatchObject({ code: 'UPSTREAM_OUTCOME_UNKNOWN' });
    const retry = await post(url, create);
    expect(retry.errors![0]!.extensions).toMatchObject({ code: 'UPSTREAM_OUTCOME_UNKNOWN' });
    expect(posts(/^\/events$/)).toBe(1);
    s.calendar.control.clearFaults();
  });

  it('a write cut off by the process stopping (its request aborted after it was sent) is outcome-unknown; one never sent stays unavailable', async () => {
    const { calendar } = s.gateway.upstreams;
    const write = (signal: AbortSignal, path = '/tags') =>
      calendar.call(
        {
          method: 'POST',
          path,
          json: { name: 'stopping' },
          idempotent: false,
          kind: 'write',
          operation: 'tags.create',
        },
        { identity: 'test', usage: new UsageTracker(), signal },
      );
    s.calendar.control.setFaults([
      { kind: 'apply-then-stall', method: 'POST', pathPrefix: '/tags', times: 1, delayMs: 2_000 },
    ]);
    s.clearRequests();
    const stop = new AbortController();
    const pending = write(stop.signal).catch((e: unknown) => e);
    await vi.waitFor(() => expect(posts(/^\/tags$/)).toBe(1));
    stop.abort();
    const error = (await pending) as UpstreamError;
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.kind).toBe('outcome-unknown');

    // The gateway shutting down while a write is on the wire: outcome unknown, not unavailable.
    const stopping = createGateway({ config: s.config });
    s.calendar.control.setFaults([
      { kind: 'apply-then-stall', method: 'POST', pathPrefix: '/tags', times: 1, delayMs: 2_000 },
    ]);
    s.clearRequests();
    const inFlight = stopping.upstreams.calendar
      .call(
        {
          method: 'POST',
          path: '/tags',
          json: { name: 'shutdown' },
          idempotent: false,
          kind: 'write',
          operation: 'tags.create',
        },
        { identity: 'test', usage: new UsageTracker() },
      )
      .catch((e: unknown) => e);
    await vi.waitFor(() => expect(posts(/^\/tags$/)).toBe(1));
    await stopping.close();
    expect(((await inFlight) as UpstreamError).kind).toBe('outcome-unknown');
    s.calendar.control.clearFaults();

    const refused = createGateway({
      config: { ...s.config, calendar: { ...s.config.calendar, url: 'http://127.0.0.1:1/wp-json/calendar/events/v1' } },
    });
    try {
      const e = (await refused.upstreams.calendar
        .call(
          {
            method: 'POST',
            path: '/tags',
            json: { name: 'never sent' },
            idempotent: false,
            kind: 'write',
            operation: 'tags.create',
          },
          { identity: 'test', usage: new UsageTracker() },
        )
        .catch((x: unknown) => x)) as UpstreamError;
      expect([e.kind, e.sent]).toEqual(['unavailable', false]);
    } finally {
      await refused.close();
    }
  });
});
