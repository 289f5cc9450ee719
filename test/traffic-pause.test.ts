/**
 * The 429 pause, against the real emulator: after a 429 nothing is sent before Retry-After (seconds,
 * an HTTP date, or missing), the rejected request and everything queued meanwhile complete
 * afterwards (a write too: a 429 means it was not processed), reads with an expired cached answer
 * are served stale during the pause, the platform's svc-/ot- headers are logged (never a token),
 * and a pause longer than a request's deadline fails it RATE_LIMITED with retryAfter.
 */
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../src/core/errors.js';
import { parseRetryAfter, readRateLimitNotice } from '../src/core/retry-after.js';
import {
  getEntity,
  seedIds,
  sentAfterFirst429,
  startEmulator,
  startGate,
  type GovernanceEmulator,
} from './support/traffic.js';
import { until, untilNextWindow } from './support/wait.js';

/** Milliseconds between the first 429 in the log and the next request the emulator saw. */
function gapAfter429(emulator: GovernanceEmulator): { gap: number; after: number } {
  const log = emulator.control.requests().requests;
  const i = log.findIndex((r) => r.status === 429);
  expect(i).toBeGreaterThanOrEqual(0);
  const later = log.slice(i + 1);
  return { gap: Math.min(...later.map((r) => r.at)) - log[i]!.at, after: later.length };
}

describe('429 pause', () => {
  it('nothing is sent before Retry-After; queued reads complete afterwards; stale answers are served meanwhile', async () => {
    const emulator = await startEmulator({ headerPrefix: 'both' });
    // One request at a time, so nothing is already in flight when the 429 comes back.
    const gate = await startGate(emulator, { GOVERNANCE_MAX_CONCURRENT: '1' });
    const caller = await gate.caller();
    const { ids } = await seedIds(gate, caller);
    // An answer that expires at once but is kept for max-stale.
    const cached = await getEntity(gate, caller, ids[40]!, { cache: { ttlMs: 20, tags: [`entity:${ids[40]}`] } });
    const cache = gate.upstreams.cache;
    await until(
      () => cache.get(cache.keys().find((k) => k.includes(ids[40]!)) ?? '')?.fresh === false,
      'the answer to expire',
    );
    emulator.control.clearRequests();
    emulator.control.setFaults([{ kind: 'rate-limit', every: 5, retryAfter: 1, times: 1 }]);

    const started = Date.now();
    const reads = ids.slice(0, 12).map((id) => getEntity(gate, caller, id));
    const pause = gate.upstreams.governance.traffic.pause;
    await until(() => pause.remainingMs() > 0, 'the 429 pause');
    expect(pause.remainingMs()).toBeGreaterThan(300);
    const staleCaller = { ...caller, usage: new (caller.usage.constructor as new () => typeof caller.usage)() };
    const stale = await getEntity(gate, staleCaller, ids[40]!, { cache: { ttlMs: 20, tags: [`entity:${ids[40]}`] } });
    expect(stale.body).toEqual(cached.body);
    expect(staleCaller.usage.get('governance')).toMatchObject({ requests: 0, cacheHits: 1, staleHits: 1 });
    expect(staleCaller.usage.stale).toBe(true);

    const results = await Promise.all(reads);
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    const { gap, after } = gapAfter429(emulator);
    expect(after).toBeGreaterThan(0);
    expect(gap).toBeGreaterThanOrEqual(990);
    // 12 reads, one of them twice (its 429, then its retry); the stale read sent nothing.
    expect(emulator.control.requests().total).toBe(13);

    // The 429's platform headers were read (both prefixes) and logged without any credential.
    const event = gate.events.find((e) => e.msg.includes('429'));
    expect(event).toMatchObject({
      upstream: 'governance',
      retryAfter: '1',
      pauseMs: 1000,
      period: 'MINUTE',
      prefixes: ['svc', 'ot'],
    });
    expect(typeof event!.eventId).toBe('string');
    expect(JSON.stringify(gate.events)).not.toContain(caller.headers.authorization!.slice(7));
  });

  it('a write answered 429 was not processed: it is sent again after the pause and creates exactly one record', async () => {
    const emulator = await startEmulator();
    const gate = await startGate(emulator);
    const caller = await gate.caller();
    const { orgId } = await seedIds(gate, caller);
    emulator.control.clearRequests();
    emulator.control.setFaults([
      { kind: 'rate-limit', method: 'POST', pathPrefix: '/entities', times: 1, retryAfter: 1 },
    ]);
    const name = `traffic-write-${Date.now()}`;
    const res = await gate.upstreams.governance.call(
      {
        method: 'POST',
        path: '/entities',
        query: { entityTypeName: 'models' },
        json: { name, organization: { id: orgId } },
        headers: caller.headers,
        idempotent: false,
        kind: 'write',
        operation: 'entities.create',
      },
      caller,
    );
    expect(res.status).toBe(201);
    const creates = emulator.control.requests().requests.filter((r) => r.method === 'POST' && r.path === '/entities');
    expect(creates.map((r) => r.status)).toEqual([429, 201]);
    expect(creates[1]!.at - creates[0]!.at).toBeGreaterThanOrEqual(990);
    const found = await gate.upstreams.governance.call(
      {
        method: 'POST',
        path: '/entity-basic-details/search',
        query: { size: 50 },
        json: { criteria: { fullText: name } },
        headers: caller.headers,
        idempotent: true,
        kind: 'page',
        operation: 'entities.basic',
      },
      caller,
    );
    expect((found.body as { content: { name: string }[] }).content.filter((e) => e.name === name)).toHaveLength(1);
  });

  it('rides out a real account block: Retry-After to the end of the window is honoured and every request completes', async () => {
    // The gateway's own budget is switched off, so the platform's limit is what stops it.
    const emulator = await startEmulator({
      rateLimits: { minute: 6, hour: 1_000 },
      windows: { minuteMs: 1_000, hourMs: 60_000 },
      headerPrefix: 'ot',
    });
    const gate = await startGate(emulator, { GOVERNANCE_RATE_LIMITS: 'minute:0,hour:0' });
    const caller = await gate.caller();
    const { ids } = await seedIds(gate, caller);
    // Start at the beginning of a window so that all ten fall in it and break its rule.
    await untilNextWindow(1_000);
    emulator.control.clearRequests();
    const results = await Promise.all(ids.slice(0, 10).map((id) => getEntity(gate, caller, id)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const log = emulator.control.requests().requests;
    const first429 = log.findIndex((r) => r.status === 429);
    expect(first429).toBeGreaterThanOrEqual(0);
    const retryAfterS = Number(gate.events.find((e) => e.msg.includes('429'))!.retryAfter);
    expect(gate.events.find((e) => e.msg.includes('429'))).toMatchObject({
      prefixes: ['ot'],
      allowed: 6,
      period: 'MINUTE',
    });
    // Requests already in flight when the 429 came back may land just after it; once the gateway
    // has read the 429 it sends nothing until Retry-After has passed.
    const { readAt, pauseMs, sends } = sentAfterFirst429(gate);
    expect(pauseMs).toBe(retryAfterS * 1000);
    expect(sends.length).toBeGreaterThan(0);
    expect(Math.min(...sends)).toBeGreaterThanOrEqual(readAt + pauseMs - 2);
  });

  it('Retry-After as an HTTP date, and a missing Retry-After (default pause) are both honoured', async () => {
    const emulator = await startEmulator();
    const gate = await startGate(emulator, { GOVERNANCE_MAX_CONCURRENT: '1' }, (c) => ({
      ...c,
      traffic: { ...c.traffic, defaultRetryAfterMs: 400 },
    }));
    const caller = await gate.caller();
    const { ids } = await seedIds(gate, caller);

    emulator.control.clearRequests();
    emulator.control.setFaults([{ kind: 'rate-limit', times: 1, retryAfter: null }]);
    await Promise.all(ids.slice(0, 3).map((id) => getEntity(gate, caller, id)));
    expect(gapAfter429(emulator).gap).toBeGreaterThanOrEqual(390);

    emulator.control.clearRequests();
    const at = new Date(Math.ceil((Date.now() + 1_500) / 1000) * 1000);
    emulator.control.setFaults([{ kind: 'rate-limit', times: 1, retryAfter: at.toUTCString() }]);
    await Promise.all(ids.slice(3, 6).map((id) => getEntity(gate, caller, id)));
    const log = emulator.control.requests().requests;
    const i = log.findIndex((r) => r.status === 429);
    const next = log.slice(i + 1);
    expect(next.length).toBe(3);
    expect(gate.sentAt.at(-1)!).toBeGreaterThanOrEqual(at.getTime() - 5);
  });

  it('a pause that outlasts the deadline fails the request RATE_LIMITED with retryAfter, and later ones at once without sending', async () => {
    const emulator = await startEmulator();
    const gate = await startGate(emulator, { UPSTREAM_QUEUE_DEADLINE_MS: '300' });
    const caller = await gate.caller();
    const { ids } = await seedIds(gate, caller);
    emulator.control.clearRequests();
    emulator.control.setFaults([{ kind: 'rate-limit', times: 1, retryAfter: 3 }]);
    const error = await getEntity(gate, caller, ids[0]!).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'rate-limited', retryAfter: 3 });
    const second = await getEntity(gate, caller, ids[1]!).catch((e: unknown) => e);
    expect(second).toMatchObject({ kind: 'rate-limited' });
    // At once, not after the 3 s pause: at least 2 of its 3 seconds were still ahead when it answered.
    expect((second as UpstreamError).retryAfter).toBeGreaterThanOrEqual(2);
    expect(emulator.control.requests().total).toBe(1);
  });
});

describe('Retry-After and rate-limit headers', () => {
  it('reads seconds, HTTP dates, garbage and absence; caps the pause', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('55', now)).toBe(55_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    const policy = { defaultMs: 1_000, maxMs: 60_000 };
    expect(readRateLimitNotice({}, policy, now).pauseMs).toBe(1_000);
    expect(readRateLimitNotice({ 'retry-after': '2135' }, policy, now).pauseMs).toBe(60_000);
    expect(
      readRateLimitNotice(
        {
          'retry-after': '55',
          'ot-requests-allowed': '20000',
          'ot-period': 'MINUTE',
          'ot-request-made': '20009',
          'ot-ratelimit-event-id': 'e1',
        },
        policy,
        now,
      ),
    ).toEqual({
      pauseMs: 55_000,
      retryAfter: '55',
      eventId: 'e1',
      allowed: 20_000,
      made: 20_009,
      period: 'MINUTE',
      prefixes: ['ot'],
    });
  });
});
