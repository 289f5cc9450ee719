/**
 * The governance account budget, at the upstream level against the real emulator with its account
 * rate limits scaled down: bursts wait instead of failing and never exceed the budget in a window,
 * token requests count, priorities order the queue, and a request past its deadline fails
 * `rate-limited` with a retry time.
 */
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../src/core/errors.js';
import { getEntity, maxPerWindow, seedIds, startEmulator, startGate } from './support/traffic.js';
import { until } from './support/wait.js';

const WINDOW = 1_000;

describe('governance account budget', () => {
  it('a burst waits for budget: every request succeeds, no window holds more than the budget, the emulator never answers 429', async () => {
    // The platform allows 20 per window; the gateway allows itself 90% of it: 18.
    const emulator = await startEmulator({
      rateLimits: { minute: 20, hour: 1_000 },
      windows: { minuteMs: WINDOW, hourMs: 60_000 },
    });
    const gate = await startGate(emulator, {
      GOVERNANCE_RATE_LIMITS: `minute:0,hour:0,20/${WINDOW}ms,1000/60s`,
    });
    const caller = await gate.caller();
    const { ids } = await seedIds(gate, caller);
    const started = Date.now();
    const results = await Promise.all(ids.slice(0, 50).map((id) => getEntity(gate, caller, id)));
    const elapsed = Date.now() - started;

    expect(results.every((r) => r.status === 200)).toBe(true);
    const log = emulator.control.requests().requests;
    expect(log.filter((r) => r.status === 429)).toEqual([]);
    // token + search + 50 reads, every one of them counted.
    expect(log.length).toBe(52);
    expect(gate.sentAt.length).toBe(52);
    expect(maxPerWindow(gate.sentAt, WINDOW)).toBeLessThanOrEqual(18);
    // 52 requests at 18 per window need at least two more windows after the first.
    expect(elapsed).toBeGreaterThan(WINDOW);
  });

  it('the hour rule holds too, and token requests count against it', async () => {
    const emulator = await startEmulator({
      rateLimits: { minute: 1_000, hour: 10 },
      windows: { minuteMs: 500, hourMs: 60_000 },
    });
    const gate = await startGate(emulator, {
      GOVERNANCE_RATE_LIMITS: 'minute:0,hour:0,1000/500ms,10/60s',
      GOVERNANCE_RATE_MARGIN: '1',
      UPSTREAM_QUEUE_DEADLINE_MS: '200',
    });
    const caller = await gate.caller(); // 1
    const { ids } = await seedIds(gate, caller); // 2
    const results = await Promise.allSettled(ids.slice(0, 12).map((id) => getEntity(gate, caller, id)));
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as UpstreamError] : []));
    expect(ok.length).toBe(8);
    expect(refused.length).toBe(4);
    for (const e of refused) {
      expect(e).toBeInstanceOf(UpstreamError);
      expect(e.kind).toBe('rate-limited');
      // The hour window (60 s) ends far beyond the deadline: the error says when to come back.
      expect(e.retryAfter).toBeGreaterThanOrEqual(1);
      expect(e.retryAfter).toBeLessThanOrEqual(61); // the window plus the guard band
    }
    expect(emulator.control.requests().total).toBe(10);
    expect(emulator.control.requests().requests.some((r) => r.status === 429)).toBe(false);
  });

  it('waiting requests are served by priority: a single read queued behind bulk pages goes first', async () => {
    const emulator = await startEmulator({ rateLimits: { minute: 1_000, hour: 10_000 } });
    const gate = await startGate(emulator, {
      GOVERNANCE_RATE_LIMITS: 'minute:0,hour:1000,4/700ms',
      GOVERNANCE_RATE_MARGIN: '1',
    });
    const caller = await gate.caller();
    const { ids } = await seedIds(gate, caller);
    // Let the span that the token and search used run out.
    const traffic = gate.upstreams.governance.traffic;
    const remaining = () => traffic.budget.status().rules.find((r) => r.rule === '4/700ms')!.remaining;
    await until(() => remaining() === 4, 'the token and search to leave the span');
    emulator.control.clearRequests();
    const bulk = ids.slice(0, 12).map((id) => getEntity(gate, caller, id, { kind: 'more-pages' }));
    await until(() => emulator.control.requests().total === 4 && traffic.queued === 8, 'four sent, eight waiting');
    const single = getEntity(gate, caller, ids[20]!, { kind: 'read' });
    await Promise.all([...bulk, single]);
    const order = emulator.control.requests().requests.map((r) => r.path);
    // Four went in the first window; the bulk read already at the head of the line takes the next
    // point, then the single read, ahead of the seven bulk reads that had waited longer.
    expect(order.indexOf(`/entities/${ids[20]}`)).toBeLessThanOrEqual(5);
    expect(order.length).toBe(13);
  });

  it('a request that cannot get budget before its deadline fails rate-limited with retryAfter, and is never sent', async () => {
    const emulator = await startEmulator();
    const gate = await startGate(emulator, {
      GOVERNANCE_RATE_LIMITS: 'minute:0,hour:1000,3/5s',
      GOVERNANCE_RATE_MARGIN: '1',
      UPSTREAM_QUEUE_DEADLINE_MS: '100',
    });
    const caller = await gate.caller();
    const { ids } = await seedIds(gate, caller);
    // The budget counts sliding spans (5 s), not clock windows: the token and search stay counted.
    emulator.control.clearRequests();
    const settled = await Promise.allSettled(ids.slice(0, 5).map((id) => getEntity(gate, caller, id)));
    const failures = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(failures.length).toBeGreaterThanOrEqual(2);
    for (const error of failures) {
      expect(error).toBeInstanceOf(UpstreamError);
      expect(error).toMatchObject({ kind: 'rate-limited', upstream: 'governance' });
      expect((error as UpstreamError).retryAfter).toBeGreaterThanOrEqual(1);
      // The window (5 s) plus the guard band.
      expect((error as UpstreamError).retryAfter).toBeLessThanOrEqual(6);
    }
    expect(emulator.control.requests().total).toBe(5 - failures.length);
  });

  it('the per-endpoint minute rule holds one endpoint back while others go on', async () => {
    const emulator = await startEmulator({
      rateLimits: { minute: 1_000, hour: 10_000, perEndpointMinute: 3 },
      windows: { minuteMs: 800 },
    });
    const gate = await startGate(emulator, {
      GOVERNANCE_RATE_LIMITS: 'minute:0,hour:10000,1000/800ms,endpoint:3/800ms',
      GOVERNANCE_RATE_MARGIN: '1',
    });
    const caller = await gate.caller();
    const { ids } = await seedIds(gate, caller);
    emulator.control.clearRequests();
    const started = Date.now();
    const reads = ids.slice(0, 7).map((id) => getEntity(gate, caller, id));
    await Promise.all([seedIds(gate, caller), ...reads]);
    const log = emulator.control.requests().requests;
    expect(log.some((r) => r.status === 429)).toBe(false);
    // Seven reads of one endpoint at three per window take three windows; the search did not wait for them:
    // it reached the upstream before the last reads did (order in the emulator's log, not a clock).
    expect(Date.now() - started).toBeGreaterThan(800);
    const searchAt = log.findIndex((r) => r.method === 'POST');
    expect(searchAt).toBeGreaterThanOrEqual(0);
    expect(log.slice(0, searchAt).filter((r) => r.method === 'GET').length).toBeLessThan(7);
  });
});
