/**
 * The response cache, in-flight de-duplication and retries at the upstream level, against the real
 * governance emulator: credentials never share cached data or in-flight reads, identical concurrent
 * reads are sent once, invalidation wins over a read that raced a write, a 503 is retried for a read
 * and never for a create, and the per-operation call budget fails calls beyond it.
 */
import { describe, expect, it } from 'vitest';
import { type UpstreamError } from '../src/core/errors.js';
import { UsageTracker } from '../src/core/usage.js';
import { getEntity, seedIds, startEmulator, startGate } from './support/traffic.js';
import { until } from './support/wait.js';

const cached = (id: string) => ({ cache: { ttlMs: 60_000, tags: [`entity:${id}`] } });

describe('response cache and in-flight reads', () => {
  it("two credentials never see each other's cached data", async () => {
    const emulator = await startEmulator();
    const gate = await startGate(emulator);
    const full = await gate.caller('full');
    const read = await gate.caller('read');
    expect(full.identity).not.toBe(read.identity);
    const { ids } = await seedIds(gate, full);
    emulator.control.clearRequests();
    full.usage = new UsageTracker();

    await getEntity(gate, full, ids[0]!, cached(ids[0]!));
    await getEntity(gate, full, ids[0]!, cached(ids[0]!));
    expect(full.usage.get('governance')).toMatchObject({ requests: 1, cacheHits: 1 });
    await getEntity(gate, read, ids[0]!, cached(ids[0]!));
    expect(read.usage.get('governance')).toMatchObject({ requests: 1, cacheHits: 0 });
    expect(emulator.control.requests().total).toBe(2);
    // Each request carried its own credential (the emulator would have refused a wrong one).
    expect(gate.upstreams.cache.size).toBeGreaterThanOrEqual(2);
  });

  it('identical concurrent reads with one credential are sent once; another credential sends its own', async () => {
    const emulator = await startEmulator({ latency: { fixedMs: 80 } });
    const gate = await startGate(emulator);
    const full = await gate.caller('full');
    const read = await gate.caller('read');
    const { ids } = await seedIds(gate, full);
    emulator.control.clearRequests();
    const callers = Array.from({ length: 5 }, () => ({ ...full, usage: new UsageTracker() }));
    const answers = await Promise.all([
      ...callers.map((c) => getEntity(gate, c, ids[1]!)),
      getEntity(gate, read, ids[1]!),
    ]);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(emulator.control.requests().total).toBe(2);
    expect(callers.reduce((n, c) => n + c.usage.get('governance').requests, 0)).toBe(1);
  });

  it('when the caller that owns a shared read cancels, the others still get their answer', async () => {
    const emulator = await startEmulator({ latency: { fixedMs: 500 } });
    const gate = await startGate(emulator);
    const caller = await gate.caller();
    const { ids } = await seedIds(gate, caller);
    emulator.control.clearRequests();
    const abort = new AbortController();
    const owner = getEntity(gate, { ...caller, usage: new UsageTracker(), signal: abort.signal }, ids[3]!);
    const other = getEntity(gate, { ...caller, usage: new UsageTracker() }, ids[3]!);
    // Cancel once the shared read is on the wire (the emulator has logged it and holds the answer).
    await until(() => emulator.control.requests().total === 1);
    abort.abort();
    await expect(owner).rejects.toMatchObject({ kind: 'unavailable' });
    expect((await other).status).toBe(200);
  });

  it('an invalidation during a read in flight keeps its answer out of the cache, and a later read does not join it', async () => {
    const emulator = await startEmulator({ latency: { fixedMs: 150 } });
    const gate = await startGate(emulator);
    const caller = await gate.caller();
    const { ids } = await seedIds(gate, caller);
    emulator.control.clearRequests();
    const id = ids[2]!;
    const before = getEntity(gate, caller, id, cached(id));
    // The read is in flight once the emulator has logged it (its answer waits out the latency).
    await until(() => emulator.control.requests().total === 1);
    // A mutation of this entity lands now (the adapters call this after their writes).
    gate.upstreams.governance.cache.invalidate([`entity:${id}`]);
    const after = getEntity(gate, caller, id, cached(id));
    await Promise.all([before, after]);
    expect(emulator.control.requests().total).toBe(2);
    // The read that started after the write was cached; the older one was not allowed to be.
    const third = await getEntity(gate, caller, id, cached(id));
    expect(third.status).toBe(200);
    expect(emulator.control.requests().total).toBe(2);
  });
});

describe('retries', () => {
  it('a read answered 503 is retried and succeeds', async () => {
    const emulator = await startEmulator();
    const gate = await startGate(emulator);
    const caller = await gate.caller();
    const { ids } = await seedIds(gate, caller);
    emulator.control.clearRequests();
    emulator.control.setFaults([{ kind: 'status', status: 503, times: 2 }]);
    caller.usage = new UsageTracker();
    const res = await getEntity(gate, caller, ids[0]!);
    expect(res.status).toBe(200);
    expect(emulator.control.requests().requests.map((r) => r.status)).toEqual([503, 503, 200]);
    expect(caller.usage.get('governance').requests).toBe(3);
  });

  it('a read keeps failing after the bounded retries: the last answer is returned', async () => {
    const emulator = await startEmulator();
    const gate = await startGate(emulator, { UPSTREAM_RETRIES: '2' });
    const caller = await gate.caller();
    const { ids } = await seedIds(gate, caller);
    emulator.control.clearRequests();
    emulator.control.setFaults([{ kind: 'status', status: 503 }]);
    const res = await getEntity(gate, caller, ids[0]!);
    expect(res.status).toBe(503);
    expect(emulator.control.requests().total).toBe(3);
  });

  it('a reset connection on a read is retried', async () => {
    const emulator = await startEmulator();
    const gate = await startGate(emulator);
    const caller = await gate.caller();
    const { ids } = await seedIds(gate, caller);
    emulator.control.clearRequests();
    emulator.control.setFaults([{ kind: 'reset', times: 1 }]);
    expect((await getEntity(gate, caller, ids[0]!)).status).toBe(200);
    expect(emulator.control.requests().total).toBe(2);
  });

  it('a create answered 503 is not retried (it may have been processed)', async () => {
    const emulator = await startEmulator();
    const gate = await startGate(emulator);
    const caller = await gate.caller();
    const { orgId } = await seedIds(gate, caller);
    emulator.control.clearRequests();
    emulator.control.setFaults([{ kind: 'status', status: 503, method: 'POST', pathPrefix: '/entities' }]);
    const res = await gate.upstreams.governance.call(
      {
        method: 'POST',
        path: '/entities',
        query: { entityTypeName: 'models' },
        json: { name: 'never twice', organization: { id: orgId } },
        headers: caller.headers,
        idempotent: false,
        kind: 'write',
        operation: 'entities.create',
      },
      caller,
    );
    expect(res.status).toBe(503);
    expect(emulator.control.requests().total).toBe(1);
  });
});

describe('per-operation call budget (execution time)', () => {
  it('calls beyond the budget fail budget-exceeded without being sent; cache hits and shared reads are free', async () => {
    const emulator = await startEmulator();
    const gate = await startGate(emulator);
    const setup = await gate.caller();
    const { ids } = await seedIds(gate, setup);
    emulator.control.clearRequests();
    const caller = { ...setup, usage: new UsageTracker({ maxCallsPerUpstream: 3 }) };
    await getEntity(gate, caller, ids[0]!, cached(ids[0]!));
    await getEntity(gate, caller, ids[0]!, cached(ids[0]!)); // cache hit: free
    const settled = await Promise.allSettled(ids.slice(1, 5).map((id) => getEntity(gate, caller, id)));
    const refused = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as UpstreamError] : []));
    expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(refused).toHaveLength(2);
    for (const e of refused) expect(e).toMatchObject({ kind: 'budget-exceeded', upstream: 'governance' });
    expect(emulator.control.requests().total).toBe(3);
  });
});
