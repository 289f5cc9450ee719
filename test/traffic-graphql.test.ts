/**
 * Traffic control seen through GraphQL, against the real emulators: the per-operation budget refuses
 * an over-costly operation before any upstream call and, during execution, fails only the fields
 * beyond it; the account budget's RATE_LIMITED carries retryAfter; during a 429 pause a cached read
 * is answered stale and marked so in `extensions`; and a read after a mutation shows it.
 */
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { estimateOperationCost } from '../src/http/plugins/operation-cost.js';
import { schema } from '../src/app/schema.js';
import { operation } from './support/operations.js';
import { countRequests, startStack } from './support/stack.js';
import { until } from './support/wait.js';
import { databaseIdOf } from './support/global-ids.js';

const ENTITY_GRAPH = operation('EntityGraph');

describe('per-operation upstream budget', () => {
  it('estimates follow the fan-out: pages of a connection, its items times what is below them', () => {
    const cost = (doc: string, variables: Record<string, unknown> = {}) =>
      estimateOperationCost(schema, parse(doc), undefined, variables).total;
    expect(cost('{ entity(id: "00000000-0000-4000-8000-000000000000") { id name } }')).toEqual({ governance: 1 });
    expect(cost('{ entities(first: 120) { nodes { id } } }')).toEqual({ governance: 3 });
    // 1 page of 10 systems, 10 link pages, 10 × 10 counterpart records.
    expect(cost(ENTITY_GRAPH, { first: 10 })).toEqual({ governance: 111 });
    // Fragments and aliases count as what they select.
    expect(
      cost(
        'query { a: events(first: 5) { ...E } b: venue(id: "1") { id } } fragment E on EventConnection { nodes { venue { events(first: 3) { totalCount } } } }',
      ),
    ).toEqual({ calendar: 7 });
    expect(cost('{ __typename }')).toEqual({});
    // Arguments the resolver refuses before any call cost nothing (the client gets BAD_USER_INPUT, not a budget error).
    expect(cost('{ entities(first: 100000) { nodes { links(first: 50) { totalCount } } } }')).toEqual({});
    expect(cost('{ entityTypes(first: 2, last: 2) { totalCount } }')).toEqual({});
  });

  it('refuses an over-costly operation before execution, with zero upstream calls', async () => {
    const stack = await startStack({ env: { GATEWAY_MAX_UPSTREAM_CALLS_PER_OPERATION: '50' } });
    const res = await stack.query(ENTITY_GRAPH, { first: 10 });
    expect(res.data ?? null).toBeNull();
    expect(res.errors?.[0]?.extensions).toMatchObject({
      code: 'REQUEST_BUDGET_EXCEEDED',
      budget: 50,
      // 111 and the token read of a fresh gateway.
      estimatedCalls: { governance: 112 },
    });
    expect(countRequests(stack.governance)).toBe(0);
    expect(countRequests(stack.calendar)).toBe(0);
    // The same operation, smaller, runs.
    const small = await stack.query(ENTITY_GRAPH, { first: 2 });
    expect(small.errors).toBeUndefined();
    expect(countRequests(stack.governance)).toBeGreaterThan(0);
  });

  it('during execution, calls beyond the budget fail their fields with REQUEST_BUDGET_EXCEEDED and the rest is kept', async () => {
    // Lists one by one (no combined request of the organizers' events): each list is one call.
    const stack = await startStack({ env: { GATEWAY_MAX_UPSTREAM_CALLS_PER_OPERATION: '4', CACHE_REUSE: 'off' } });
    const ids = (
      await stack.query<{ entities: { nodes: { id: string }[] } }>('{ entities(first: 5) { nodes { id } } }')
    ).data!.entities.nodes.map((n) => n.id);
    stack.clearRequests();
    // Five reads by id, under aliases: the estimate (5) is over the budget, refused before any call.
    const doc = `{ ${ids.map((id, i) => `e${i}: entity(id: "${id}") { id name }`).join(' ')} }`;
    const refused = await stack.query(doc);
    expect(refused.errors?.[0]?.extensions?.code).toBe('REQUEST_BUDGET_EXCEEDED');
    expect(countRequests(stack.governance)).toBe(0);

    // A plain list is assumed 3 long: under an event with four organizers, their events cost one more
    // call than the estimate (1 + 3) allows; that field fails and the rest is kept.
    const created = await stack.query<{ createEvent: { id: string } }>(
      `mutation { createEvent(input: { title: "Four hosts", startDate: "2027-05-01 10:00:00", endDate: "2027-05-01 12:00:00",
        organizers: [{ name: "Host A" }, { name: "Host B" }, { name: "Host C" }, { name: "Host D" }] }) { id } }`,
    );
    expect(created.errors).toBeUndefined();
    stack.clearRequests();
    const res = await stack.query<{ event: { organizers: ({ events: { totalCount: number } | null } | null)[] } }>(
      'query($id: ID!) { event(id: $id) { title organizers { name events(first: 1) { totalCount } } } }',
      { id: created.data!.createEvent.id },
    );
    expect(res.extensions?.cost?.calendar).toMatchObject({ estimated: 4, actual: 4 });
    const over = (res.errors ?? []).filter((e) => e.extensions?.code === 'REQUEST_BUDGET_EXCEEDED');
    expect(over).toHaveLength(1);
    expect(res.errors).toHaveLength(1);
    expect(over[0]!.path?.at(-1)).toBe('events');
    const organizers = res.data!.event.organizers;
    expect(organizers).toHaveLength(4);
    expect(organizers.filter((o) => o?.events)).toHaveLength(3);
    expect(countRequests(stack.calendar)).toBe(4); // budget 4: the event, then three organizers' events
  });
});

describe('account budget and 429 pause through GraphQL', () => {
  it('past its deadline a field fails RATE_LIMITED with extensions.retryAfter, the rest of the data kept', async () => {
    // The budget counts sliding spans (10 s here), not clock windows: the three requests below stay
    // counted for the rest of the test wherever in a clock window it starts.
    const stack = await startStack({
      env: {
        GOVERNANCE_RATE_LIMITS: 'minute:0,hour:1000,3/10s',
        GOVERNANCE_RATE_MARGIN: '1',
        UPSTREAM_QUEUE_DEADLINE_MS: '100',
        // The one caller spends the account: no cap on its share (25 % by default).
        FAIR_SHARE: '*:share=100%',
      },
    });
    const res = await stack.query<Record<string, unknown>>(
      '{ entities(first: 1) { nodes { id } } events(first: 1) { nodes { id } } }',
    );
    // token + search fit; nothing else is needed here.
    expect(res.errors).toBeUndefined();
    const ids =
      (await stack.query<{ entities: { nodes: { id: string }[] } }>('{ entities(first: 3) { nodes { id } } }')).data
        ?.entities.nodes ?? [];
    const doc = `{ ${['a', 'b', 'c'].map((k, i) => `${k}: entity(id: "${ids[i]?.id ?? '00000000-0000-4000-8000-000000000000'}") { id }`).join(' ')} events(first: 1) { nodes { id } } }`;
    const limited = await stack.query<Record<string, unknown>>(doc);
    const errors = limited.errors ?? [];
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect(e.extensions).toMatchObject({ code: 'RATE_LIMITED', upstream: 'governance' });
    expect(errors[0]!.extensions!.retryAfter).toBeGreaterThanOrEqual(1);
    // The calendar is another account: its data is there.
    expect((limited.data?.events as { nodes: unknown[] }).nodes).toHaveLength(1);
  });

  it('while paused by a 429, a cached read is answered stale and marked in extensions; everything completes after', async () => {
    const stack = await startStack({ env: { CACHE_TTL_MS: '30' } });
    const list = await stack.query<{ entities: { nodes: { id: string; name: string }[] } }>(
      '{ entities(first: 2) { nodes { id name } } }',
    );
    const [first, second] = list.data!.entities.nodes;
    const read = (id: string) =>
      stack.query<{ entity: { id: string; name: string } }>(`{ entity(id: "${id}") { id name } }`);
    expect((await read(first!.id)).data?.entity.name).toBe(first!.name);
    const cache = stack.gateway.upstreams.cache;
    const entry = () => cache.keys().find((k) => k.includes(`/entities/${databaseIdOf(first!.id)}`));
    await until(() => cache.get(entry() ?? '')?.fresh === false, 'the cached read to expire (kept for max-stale)');
    stack.clearRequests();
    stack.governance.control.setFaults([{ kind: 'rate-limit', times: 1, retryAfter: 1 }]);
    const paused = read(second!.id);
    const pause = stack.gateway.upstreams.governance.traffic.pause;
    await until(() => pause.remainingMs() > 0, 'the 429 pause');
    expect(pause.remainingMs()).toBeGreaterThan(0);
    const stale = await read(first!.id);
    expect(stale.data?.entity).toEqual({ id: first!.id, name: first!.name });
    expect(stale.extensions?.stale).toBe(true);
    expect(stale.extensions?.cost?.governance).toMatchObject({ actual: 0, staleHits: 1 });
    const after = await paused;
    expect(after.data?.entity.id).toBe(second!.id);
    expect(after.extensions?.stale).toBeUndefined();
    // The 429 and its retry; the stale read sent nothing.
    const paths = stack.governance.control.requests().requests.map((r) => r.path);
    expect(paths.filter((p) => p === `/entities/${databaseIdOf(second!.id)}`)).toHaveLength(2);
    expect(paths.filter((p) => p === `/entities/${databaseIdOf(first!.id)}`)).toHaveLength(0);
  });

  it('a read after a mutation shows the mutation, though the record was cached', async () => {
    const stack = await startStack();
    const list = await stack.query<{ entities: { nodes: { id: string }[] } }>(
      '{ entities(kind: MODEL, first: 1) { nodes { id } } }',
    );
    const id = list.data!.entities.nodes[0]!.id;
    const read = () => stack.query<{ entity: { name: string } }>(`{ entity(id: "${id}") { name } }`);
    await read();
    expect((await read()).extensions?.cost?.governance?.cacheHits).toBeGreaterThan(0);
    const name = `renamed ${Date.now()}`;
    const updated = await stack.query(`mutation { updateEntity(id: "${id}", input: { name: "${name}" }) { id name } }`);
    expect(updated.errors).toBeUndefined();
    expect((await read()).data?.entity.name).toBe(name);
  });
});

describe('calendar concurrency cap', () => {
  it('never has more than CALENDAR_MAX_CONCURRENT requests in flight at the WordPress site', async () => {
    const stack = await startStack({ env: { CALENDAR_MAX_CONCURRENT: '2' }, calendar: { latency: { fixedMs: 80 } } });
    const list = await stack.query<{ events: { nodes: { id: string }[] } }>('{ events(first: 6) { nodes { id } } }');
    const ids = list.data!.events.nodes.map((n) => n.id);
    expect(ids).toHaveLength(6);
    stack.clearRequests();
    const res = await stack.query(`{ ${ids.map((id, i) => `e${i}: event(id: "${id}") { id title }`).join(' ')} }`);
    // (A seeded event is password protected: its field is FORBIDDEN, which does not matter here.)
    expect(res.data).toBeTruthy();
    const arrivals = stack.calendar.control
      .requests()
      .requests.map((r) => r.at)
      .sort((a, b) => a - b);
    expect(arrivals).toHaveLength(6);
    // With two slots and 80 ms per answer, the third request can only start once the first is done.
    for (let i = 2; i < arrivals.length; i++) expect(arrivals[i]! - arrivals[i - 2]!).toBeGreaterThanOrEqual(75);
  });
});
