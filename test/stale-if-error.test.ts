/**
 * Stale if error: when an upstream fails (a 5xx) or its breaker is open, a read still in the cache
 * (expired, within CACHE_MAX_STALE_MS) is answered from it, marked as stale-if-blocked marks it
 * (`extensions.stale`, `staleHits` in `extensions.cost`); past the max staleness the field fails.
 */
import { describe, expect, it } from 'vitest';
import { startStack } from './support/stack.js';
import { untilClock } from './support/wait.js';

/** What READ answers: the calendar part null once its record is gone. */
interface ReadData {
  entityTypes: { totalCount: number };
  events: { nodes: { id: string; title: string }[] } | null;
}

const TTL_MS = 300;
const MAX_STALE_MS = 2_000;
const READ = '{ entityTypes(first: 1) { totalCount } events(first: 2) { nodes { id title } } }';

describe('stale if error', () => {
  it('serves an expired record while the upstream fails or its breaker is open, never past the max staleness', async () => {
    const stack = await startStack({
      env: {
        CACHE_TTL_MS: String(TTL_MS),
        CACHE_MAX_STALE_MS: String(MAX_STALE_MS),
        UPSTREAM_RETRIES: '0',
        RESPONSE_CACHE: 'false',
      },
      configure: (c) => ({ ...c, breaker: { failures: 2, openMs: 60_000 } }),
    });
    const fresh = await stack.query<ReadData>(READ);
    expect(fresh.errors).toBeUndefined();
    const storedAt = Date.now();
    await untilClock(storedAt + TTL_MS + 50);
    stack.calendar.control.setFaults([{ kind: 'status', status: 503 }]);

    // The upstream answers 503 (twice, which opens the breaker), then the breaker refuses: stale each time.
    for (let i = 0; i < 3; i++) {
      const stale = await stack.query<ReadData>(READ);
      expect(stale.errors).toBeUndefined();
      expect(stale.data?.events).toEqual(fresh.data?.events);
      expect(stale.extensions!.stale).toBe(true);
      expect(stale.extensions!.cost!.calendar).toMatchObject({ staleHits: 1 });
    }
    expect(stack.gateway.upstreams.calendar.breakerState).toBe('open');

    // Past the max staleness the record is gone: the field fails, the other upstream's data stays.
    await untilClock(storedAt + TTL_MS + MAX_STALE_MS + 100);
    const gone = await stack.query<ReadData>(READ);
    expect(gone.data?.events).toBeNull();
    expect(gone.data?.entityTypes.totalCount).toBeGreaterThan(0);
    expect(gone.errors![0]!.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', upstream: 'calendar' });
    expect(gone.extensions!.stale).toBeUndefined();
  }, 30_000);

  it('a stalled upstream that fails only after the max staleness gets no stale answer: the record is gone by then', async () => {
    const stack = await startStack({
      env: { CACHE_TTL_MS: String(TTL_MS), CACHE_MAX_STALE_MS: '1000', UPSTREAM_RETRIES: '0', RESPONSE_CACHE: 'false' },
      // The request's deadline (10 s by default) outlasts the record's max staleness.
      configure: (c) => ({ ...c, traffic: { ...c.traffic, requestDeadlineMs: 2_500 } }),
    });
    expect((await stack.query<ReadData>(READ)).errors).toBeUndefined();
    const storedAt = Date.now();
    await untilClock(storedAt + TTL_MS + 50);
    stack.calendar.control.setFaults([{ kind: 'stall', delayMs: 30_000 }]);

    const late = await stack.query<ReadData>(READ);
    expect(Date.now()).toBeGreaterThan(storedAt + TTL_MS + 1_000);
    expect(late.data?.events).toBeNull();
    expect(late.errors![0]!.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', upstream: 'calendar' });
    expect(late.extensions!.stale).toBeUndefined();
  }, 30_000);
});
