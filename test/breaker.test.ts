/**
 * The circuit breaker per upstream, against a black-holed calendar emulator (it accepts connections
 * and never answers): three waves of 30 operations, each with a search of its own so none shares a
 * read. Wave 1 ends within the request deadline; waves 2 and 3 fail the calendar fields at once
 * (UPSTREAM_UNAVAILABLE with a retryAfter) and keep the governance data; /ready and /metrics show the
 * state; once the upstream is back, one probe closes the breaker. With two gateways on one Redis,
 * the second fails fast as soon as the first has opened. A 4xx never opens it.
 */
import { describe, expect, it, vi } from 'vitest';
import { createGateway, type Gateway } from '../src/app/gateway.js';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { loadConfig, type Config } from '../src/config/config.js';
import { UpstreamError } from '../src/core/errors.js';
import { fileRedis, uniquePrefix } from './support/redis.js';
import { startStack, type Stack } from './support/stack.js';
import { until } from './support/wait.js';

/** The answer of `operation` (and of the single reads below): data, and errors with their extensions. */
interface Answer {
  data?: { entityTypes?: { totalCount: number }; events?: { totalCount: number } | null } | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

/** What /ready says, as far as these tests read it. */
interface Readiness {
  upstreams: Record<string, { breaker?: string }>;
  checks: Record<string, string>;
}

/** The documented request deadline (UPSTREAM_REQUEST_DEADLINE_MS), left at its default. */
const DEADLINE_MS = loadConfig({ NODE_ENV: 'test' }).traffic.requestDeadlineMs;
/** An open breaker answers without waiting on anything: every answer well inside a tenth of the deadline. */
const FAIL_FAST_MS = DEADLINE_MS / 10;
const ENV = { CACHE_TTL_MS: '120000' };
/** The breaker's threshold at its default; it stays open through the waves. */
const OPEN_LONG = (c: Config): Config => ({ ...c, breaker: { ...c.breaker, openMs: 120_000 } });
const BLACK_HOLE = [{ kind: 'stall' as const, delayMs: 60_000 }];

async function post(gateway: Gateway, query: string): Promise<Answer> {
  const res = await gateway.yoga.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return (await res.json()) as Answer;
}

const operation = (tag: string) =>
  `{ entityTypes(first: 1) { totalCount } events(first: 1, filter: { search: "${tag}" }) { totalCount } }`;

/** 30 operations at once; each one's duration and answer. */
async function wave(gateways: Gateway[], name: string) {
  return Promise.all(
    Array.from({ length: 30 }, async (_, i) => {
      const started = performance.now();
      const body = await post(gateways[i % gateways.length]!, operation(`${name}-${i}`));
      return { ms: performance.now() - started, body };
    }),
  );
}

const redisUrl = await fileRedis();

const max = (xs: number[]) => Math.max(...xs);

function expectCalendarUnavailable(answers: { body: Answer }[]) {
  for (const { body } of answers) {
    expect(body.data?.entityTypes?.totalCount).toBeGreaterThan(0);
    expect(body.data?.events).toBeNull();
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', upstream: 'calendar' });
  }
}

async function ready(gateway: Gateway): Promise<Readiness> {
  return (await (await gateway.yoga.fetch('http://gateway.test/ready')).json()) as Readiness;
}

// At once: each test has its own emulators and gateways, and the longest two mostly wait out the deadline.
describe.concurrent('circuit breaker', () => {
  it('three waves against a black-holed upstream: the first within the deadline, then at once; one probe closes it', async () => {
    const stack = await startStack({ env: ENV, configure: OPEN_LONG });
    await wave([stack.gateway], 'warm');
    stack.calendar.control.setFaults(BLACK_HOLE);

    const first = await wave([stack.gateway], 'w1');
    expect(max(first.map((a) => a.ms))).toBeLessThan(DEADLINE_MS + 1_000);
    expectCalendarUnavailable(first);
    expect((await ready(stack.gateway)).upstreams.calendar?.breaker).toBe('open');

    const sentBefore = stack.calendar.control.requests().total;
    // Refused before anything: no calendar call of waves 2 and 3 waits for a connection slot or for
    // the account's budget (the spies pass every call through).
    const { limiter, traffic } = stack.gateway.upstreams.calendar;
    const waits = [vi.spyOn(limiter, 'schedule'), vi.spyOn(traffic, 'admit')];
    for (const name of ['w2', 'w3']) {
      const answers = await wave([stack.gateway], name);
      // At once: nothing goes upstream (below) and no answer waits for a deadline. How fast "at once" is
      // belongs to the bench; here it is held an order of magnitude under the deadline.
      expect(max(answers.map((a) => a.ms))).toBeLessThan(FAIL_FAST_MS);
      expectCalendarUnavailable(answers);
      expect(answers[0]?.body.errors?.[0]?.extensions?.retryAfter).toBeGreaterThanOrEqual(1);
    }
    for (const wait of waits) expect(wait).not.toHaveBeenCalled();
    // Nothing more reached the calendar while the breaker was open (the /ready probe aside).
    expect(stack.calendar.control.requests().total - sentBefore).toBeLessThanOrEqual(1);
    const metrics = await (await stack.gateway.yoga.fetch('http://gateway.test/metrics')).text();
    expect(metrics).toMatch(/gateway_upstream_breaker_open\{upstream="calendar"\} 1/);
    await stack.close();
  }, 120_000);

  it("a refused call's error carries no frames: graphql-js copies its stack onto the field's error", () => {
    // Formatting its frames through the source maps (the production start) cost more than the rest of the refusal.
    const refused = new UpstreamError('calendar', 'unavailable', 'The calendar service is failing.', { breaker: true });
    expect(refused.stack).toBe('UpstreamError: The calendar service is failing.');
  });

  it('closes after one successful probe once the upstream is back', async () => {
    const stack = await startStack({
      env: { ...ENV, UPSTREAM_RETRIES: '0' },
      configure: (c) => ({ ...c, breaker: { ...c.breaker, openMs: 300 } }),
    });
    stack.calendar.control.setFaults([{ kind: 'status', status: 503 }]);
    await wave([stack.gateway], 'down');
    expect(stack.gateway.upstreams.calendar.breakerState).toBe('open');
    stack.calendar.control.setFaults([]);
    stack.calendar.control.clearRequests();
    await until(async () => {
      const body = await post(stack.gateway, operation('back'));
      return body.data?.events?.totalCount !== undefined;
    }, 'an answer from the calendar again');
    expect(stack.gateway.upstreams.calendar.breakerState).toBe('closed');
    // Refused calls sent nothing: what reached the calendar is the probe and the calls after it.
    const answers = await wave([stack.gateway], 'after');
    expect(answers.every((a) => a.body.errors === undefined)).toBe(true);
  }, 60_000);

  it('a 4xx is an answer: it never opens the breaker', async () => {
    const stack = await startStack({ env: ENV });
    for (let i = 0; i < 10; i++) await post(stack.gateway, `{ event(id: "98765${i}") { id } }`);
    expect(stack.gateway.upstreams.calendar.breakerState).toBe('closed');
  });

  it.runIf(redisUrl)(
    'two gateways on one Redis: the second fails fast as soon as the first has opened',
    async () => {
      const prefix = uniquePrefix();
      const stack: Stack = await startStack({
        env: { ...ENV, REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: prefix },
        configure: OPEN_LONG,
      });
      const second = createGateway({
        config: OPEN_LONG(
          loadConfig({
            NODE_ENV: 'test',
            LOG_LEVEL: 'silent',
            ...emulatorEnv(stack.governance, stack.calendar),
            ...ENV,
            REDIS_URL: redisUrl!,
            REDIS_KEY_PREFIX: prefix,
          }),
        ),
      });
      try {
        for (const g of [stack.gateway, second]) await wave([g], 'warm');
        await until(async () => (await ready(second)).checks.redis === 'ok', 'the second gateway on Redis');
        stack.calendar.control.setFaults(BLACK_HOLE);

        const first = await wave([stack.gateway], 'r1');
        expect(max(first.map((a) => a.ms))).toBeLessThan(DEADLINE_MS + 1_000);
        await until(() => second.upstreams.calendar.breakerState === 'open', "the second gateway's breaker opening");
        const sent = stack.calendar.control.requests().total;
        const answers = await wave([second], 'r2');
        expect(max(answers.map((a) => a.ms))).toBeLessThan(FAIL_FAST_MS);
        expectCalendarUnavailable(answers);
        expect(stack.calendar.control.requests().total).toBe(sent);

        // Both together, wave after wave: none outlives the deadline.
        const both = await wave([stack.gateway, second], 'r3');
        expect(max(both.map((a) => a.ms))).toBeLessThan(DEADLINE_MS + 1_000);
      } finally {
        await second.close();
      }
    },
    120_000,
  );
});
