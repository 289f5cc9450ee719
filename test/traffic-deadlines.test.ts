/**
 * Deadlines that hold, on the gateway's own timers: a 300 ms header timeout fires within 350 ms
 * (allowing for how late this machine's timers run right now), one upstream request gives up at its
 * total deadline across retries, and an operation over a stalled upstream is answered with a typed
 * error within its deadline, with the rest of its data.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { HttpTransport } from '../src/core/http.js';
import { UpstreamError } from '../src/core/errors.js';
import { createGateway } from '../src/app/gateway.js';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { loadConfig, type Config } from '../src/config/config.js';
import { fileRedis, uniquePrefix } from './support/redis.js';
import { startEmulator } from './support/traffic.js';
import { countRequests, startStack } from './support/stack.js';
import { until } from './support/wait.js';

type Any = any;

/**
 * Runs `fn` and says how long it took and the longest the event loop stalled meanwhile. The bounds
 * below are orders, not speeds: each asks that the deadline under test ended the wait before the
 * next thing that could have ended it (a longer timeout, the stall's own end), seconds later, so a
 * busy machine's lag cannot turn one into the other; the lag is allowed on top all the same.
 */
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; elapsed: number; lag: number }> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const start = performance.now();
  const value = await fn();
  const elapsed = performance.now() - start;
  loop.disable();
  return { value, elapsed, lag: loop.max / 1e6 };
}

const redisUrl = await fileRedis();

describe('deadlines', () => {
  it('a 300 ms header timeout fires, never early, and before the stalled answer would come', async () => {
    const emulator = await startEmulator();
    emulator.control.setFaults([{ kind: 'stall', delayMs: 3_000 }]);
    const transport = new HttpTransport({
      upstream: 'governance',
      timeouts: { connectMs: 1_000, headersMs: 300, bodyMs: 1_000 },
      maxBodyBytes: 1_000_000,
    });
    try {
      for (let i = 0; i < 3; i++) {
        const {
          value: error,
          elapsed,
          lag,
        } = await timed(() =>
          transport
            .send({ method: 'GET', origin: emulator.origin, path: '/api/ai-governance/v1/entity-types' })
            .catch((e: unknown) => e),
        );
        expect(error).toBeInstanceOf(UpstreamError);
        expect((error as UpstreamError).message).toMatch(/did not answer in time/);
        expect(elapsed).toBeGreaterThanOrEqual(299);
        // The stalled answer comes at 3 s: the timeout, not the answer, ended the wait.
        expect(elapsed).toBeLessThan(3_000 + lag);
      }
    } finally {
      await transport.close();
    }
  });

  it('a stalled upstream: the request gives up at its total deadline across retries, the operation answers with a typed error and its other data', async () => {
    const stack = await startStack({
      env: { UPSTREAM_RETRIES: '5', GATEWAY_OPERATION_DEADLINE_MS: '10000' },
      configure: (c) => ({
        ...c,
        timeouts: { ...c.timeouts, headersMs: 5000 },
        traffic: { ...c.traffic, requestDeadlineMs: 800 },
      }),
    });
    await stack.query('{ entityTypes(first: 1) { totalCount } }'); // the token, outside the stall
    stack.governance.control.setFaults([{ kind: 'stall', delayMs: 10_000, pathPrefix: '/entity-types' }]);
    const {
      value: res,
      elapsed,
      lag,
    } = await timed(() => stack.query<Any>('{ entityTypes(first: 2) { totalCount } events(first: 1) { totalCount } }'));
    expect(res.status).toBe(200);
    expect(res.data.events.totalCount).toBeGreaterThan(0);
    expect(res.errors![0]!.extensions!.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(res.errors![0]!.path).toEqual(['entityTypes']);
    // One 5 s header timeout per attempt × 6 attempts would be 30 s; the request deadline ends it at
    // 0.8 s, before the first attempt's own header timeout (5 s) could.
    expect(elapsed).toBeGreaterThanOrEqual(799);
    expect(elapsed).toBeLessThan(5_000 + lag);
  });

  it('the operation deadline bounds an upstream request whose own deadline is longer', async () => {
    const stack = await startStack({
      env: { GATEWAY_OPERATION_DEADLINE_MS: '600' },
      configure: (c) => ({
        ...c,
        timeouts: { ...c.timeouts, headersMs: 5000 },
        traffic: { ...c.traffic, requestDeadlineMs: 10_000 },
      }),
    });
    await stack.query('{ entityTypes(first: 1) { totalCount } }');
    stack.governance.control.setFaults([{ kind: 'stall', delayMs: 10_000, pathPrefix: '/entity-types' }]);
    const {
      value: res,
      elapsed,
      lag,
    } = await timed(() => stack.query<Any>('{ entityTypes(first: 2) { totalCount } }'));
    expect(res.errors![0]!.extensions!.code).toBe('UPSTREAM_UNAVAILABLE');
    // 0.6 s, before the header timeout (5 s) or the request deadline (10 s) could end it.
    expect(elapsed).toBeGreaterThanOrEqual(599);
    expect(elapsed).toBeLessThan(5_000 + lag);
  });

  it('the wait for a slot ends at the request deadline, however many calls of higher priority keep coming', async () => {
    const stack = await startStack({
      env: { CALENDAR_MAX_CONCURRENT: '1', UPSTREAM_RETRIES: '0' },
      // No breaker: the deadline must hold without it.
      configure: (c) => ({
        ...c,
        breaker: { ...c.breaker, failures: 0 },
        traffic: { ...c.traffic, requestDeadlineMs: 800 },
      }),
    });
    const ids = (await stack.query<Any>('{ events(first: 30) { nodes { id } } }')).data.events.nodes.map(
      (n: { id: string }) => n.id,
    );
    stack.calendar.control.setFaults([{ kind: 'stall', delayMs: 10_000 }]);
    // Single reads (a higher priority than a list) arrive every 100 ms for 3 s, each holding the
    // one slot of the stalled calendar until its own deadline.
    let stop = false;
    const singles = (async () => {
      for (let i = 0; !stop && i < 30; i++) {
        void stack.query(`{ event(id: "${ids[i]}") { id } }`);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const before = countRequests(stack.calendar);
    await until(() => countRequests(stack.calendar) > before, 'a single read holding the stalled slot');
    const {
      value: res,
      elapsed,
      lag,
    } = await timed(() => stack.query<Any>('{ events(first: 1, filter: { search: "behind" }) { totalCount } }'));
    stop = true;
    await singles;
    expect(res.errors![0]!.extensions!.code).toBe('UPSTREAM_UNAVAILABLE');
    // 0.8 s, while higher-priority reads kept coming for 3 s: they did not keep it waiting.
    expect(elapsed).toBeGreaterThanOrEqual(799);
    expect(elapsed).toBeLessThan(3_000 + lag);
    // It gave up waiting for the slot: the search never reached the calendar.
    expect(stack.calendar.control.requests().requests.filter((r) => r.query.includes('behind'))).toEqual([]);
  });

  it.runIf(redisUrl)(
    "a wait for another replica's identical read counts toward the request deadline",
    async () => {
      const env = { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: uniquePrefix(), UPSTREAM_RETRIES: '0' };
      // No breaker; a request deadline longer than the wait for the other replica's read (2 s).
      const configure = (c: Config): Config => ({
        ...c,
        breaker: { ...c.breaker, failures: 0 },
        traffic: { ...c.traffic, requestDeadlineMs: 2_500 },
      });
      const stack = await startStack({ env, configure });
      const second = createGateway({
        config: configure(
          loadConfig({
            NODE_ENV: 'test',
            LOG_LEVEL: 'silent',
            ...emulatorEnv(stack.governance, stack.calendar),
            ...env,
          }),
        ),
      });
      try {
        await until(
          async () => (await (await second.yoga.fetch('http://gateway.test/ready')).json()).checks.redis === 'ok',
          'the second gateway on Redis',
        );
        stack.calendar.control.setFaults([{ kind: 'stall', delayMs: 10_000 }]);
        const read = '{ events(first: 1, filter: { search: "both" }) { totalCount } }';
        const first = stack.query<Any>(read);
        await until(() => countRequests(stack.calendar) > 0, "the first replica's read on the wire");
        const {
          value: res,
          elapsed,
          lag,
        } = await timed(async () => {
          const r = await second.yoga.fetch('http://gateway.test/graphql', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: read }),
          });
          return await r.json();
        });
        await first;
        expect(res.errors[0].extensions.code).toBe('UPSTREAM_UNAVAILABLE');
        // 2.5 s at most; 2 s waiting for the other replica's read, then a whole request deadline of
        // its own, would be 4.5 s.
        expect(elapsed).toBeLessThan(4_500 + lag);
      } finally {
        await second.close();
      }
    },
    30_000,
  );
});
