/**
 * A fair share of the account for each caller. Who is served in what order and in what shares, on
 * the gateway's own admission line (`TrafficControl`: the fair queue, the account budget with its
 * pacing, callers' caps) driven by a clock the test moves, so nothing depends on how fast the machine
 * is: with a budget that fits half of the combined load, a polite caller sending a twentieth of a
 * greedy caller's load gets the next point after each of its requests arrives, and the greedy one
 * gets the rest; weights give more turns; a capped caller waits alone. The latencies of the same
 * contention over HTTP are a bench line (workload 16, docs/performance.md). Then a caller's cap on
 * its share, at the upstream level and over HTTP, against the real governance emulator.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config/config.js';
import { createGateway, type Gateway } from '../src/app/gateway.js';
import { startGovernanceEmulator } from '../src/emulators/governance/index.js';
import { startCalendarEmulator } from '../src/emulators/calendar/index.js';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { getEntity, seedIds, startEmulator, startGate } from './support/traffic.js';
import { fetchToken } from './support/governance.js';
import { UsageTracker } from '../src/core/usage.js';
import type { UpstreamError } from '../src/core/errors.js';
import { AccountBudget } from '../src/core/budget.js';
import { pacingRules } from '../src/core/fair-share.js';
import { PauseGate } from '../src/core/pause.js';
import { Ramp } from '../src/core/ramp.js';
import { TrafficControl, type Clock } from '../src/core/traffic.js';
import { maxInAnySpan } from './support/redis.js';

/** The account allows LIMIT per WINDOW (+ the default guard band, 250 ms): 20 a second, half of the load below. */
const WINDOW = 1_000;
const SPAN = 1_250;
const LIMIT = 25;
/** `smooth=25`: one point per SPAN / LIMIT, the account's even pace. */
const PACE = SPAN / LIMIT;
const GREEDY_EVERY = 25;
const POLITE_EVERY = 500;
const RUN_MS = 8_000;
/** How long a request may wait in line (UPSTREAM_QUEUE_DEADLINE_MS). */
const QUEUE_MS = 1_500;
/**
 * How much later than one pace a point may come: the line's own spread between replicas asking (up
 * to 5 ms), and one bucket of the account rule's count (a 50th of its window), which it counts whole.
 */
const LATE = 5 + WINDOW / 50;

/** A clock the test moves: timers run in time order, and the line's promises settle after each. */
class TestClock implements Clock {
  t = 1_000_000;
  private timers: { at: number; fn: () => void }[] = [];
  now = () => this.t;
  timer = (ms: number, fn: () => void) => {
    const entry = { at: this.t + Math.max(0, ms), fn };
    this.timers.push(entry);
    return () => void (this.timers = this.timers.filter((e) => e !== entry));
  };

  /** Runs every timer due by `until`, earliest first; then the clock reads `until`. */
  async runUntil(until: number): Promise<void> {
    for (;;) {
      await settled();
      const next = this.timers.reduce<{ at: number; fn: () => void } | undefined>(
        (a, b) => (a && a.at <= b.at ? a : b),
        undefined,
      );
      if (!next || next.at > until) break;
      this.timers = this.timers.filter((e) => e !== next);
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = until;
    await settled();
  }
}
/** Every promise the timers' callbacks started has run as far as it can without time passing. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** The governance admission line as `createUpstreams` builds it (one process), on `clock`. */
function line(clock: TestClock, fairShare: string) {
  const config = loadConfig({
    NODE_ENV: 'test',
    GOVERNANCE_URL: 'http://127.0.0.1:9',
    CALENDAR_URL: 'http://127.0.0.1:9',
    GOVERNANCE_AUTH_MODE: 'forward',
    GOVERNANCE_RATE_LIMITS: `minute:0,hour:0,${LIMIT}/${WINDOW}ms`,
    GOVERNANCE_RATE_MARGIN: '1',
    FAIR_SHARE: fairShare,
  }).traffic;
  const budget = new AccountBudget({
    upstream: 'governance',
    rules: config.governance.rules,
    margin: 1,
    localShare: 1,
    pacing: (rules) => pacingRules(rules, config.fairShare.smooth),
  });
  const pause = new PauseGate({ upstream: 'governance' });
  const ramp = new Ramp({ upstream: 'governance', pause, stepMs: 500, paceMs: PACE, spanMs: SPAN, leaseMs: 10_000 });
  const traffic = new TrafficControl({
    upstream: 'governance',
    budget,
    pause,
    ramp,
    deadlineMs: QUEUE_MS,
    fairShare: config.fairShare,
    clock,
  });
  /** What became of each request: when it arrived, and when it was admitted (or why not). */
  const outcomes: { caller: string; at: number; admittedAt?: number; refused?: string }[] = [];
  /** `caller` asks for a point every `everyMs` from now until `untilMs` later. */
  const load = (caller: string, everyMs: number, untilMs: number) => {
    const start = clock.now();
    const ask = () => {
      const outcome: (typeof outcomes)[number] = { caller, at: clock.now() };
      outcomes.push(outcome);
      traffic.admit('single', 'GET /v1/entities/:id', clock.now() + QUEUE_MS, undefined, caller).then(
        () => void (outcome.admittedAt = clock.now()),
        (e: UpstreamError) => void (outcome.refused = e.message),
      );
      if (clock.now() + everyMs < start + untilMs) clock.timer(everyMs, ask);
    };
    ask();
  };
  return { traffic, outcomes, load };
}

describe('callers in turn on one admission line (a clock the test moves)', () => {
  it('the polite caller gets the next point after each of its requests; the greedy one gets the rest of the account', async () => {
    const clock = new TestClock();
    const { traffic, outcomes, load } = line(clock, 'smooth=25,*:share=100%');
    const start = clock.now();
    load('x|greedy', GREEDY_EVERY, RUN_MS);
    load('x|polite', POLITE_EVERY, RUN_MS);
    await clock.runUntil(start + RUN_MS + QUEUE_MS);
    const admitted = outcomes.filter((o) => o.admittedAt !== undefined);
    const polite = outcomes.filter((o) => o.caller === 'x|polite');
    const greedy = outcomes.filter((o) => o.caller === 'x|greedy');
    // Order: each polite request is admitted at the next point, with no greedy one before it.
    expect(polite.length).toBe(RUN_MS / POLITE_EVERY);
    for (const p of polite) {
      expect(p.refused).toBeUndefined();
      expect(p.admittedAt! - p.at).toBeLessThanOrEqual(PACE + LATE);
      const jumped = greedy.filter((g) => g.admittedAt! > p.at && g.admittedAt! < p.admittedAt!);
      expect(jumped).toEqual([]);
    }
    // Shares: the account at its pace, never more in any span; the greedy caller gets all the rest
    // and is refused (RATE_LIMITED, not starved) for what does not fit.
    const times = admitted.map((o) => o.admittedAt!);
    expect(maxInAnySpan(times, SPAN)).toBeLessThanOrEqual(LIMIT);
    // What the pace gives while requests wait, less what counting whole buckets costs (up to 2 %, and a bucket).
    const capacity = Math.floor((RUN_MS + QUEUE_MS) / PACE);
    expect(admitted.length).toBeGreaterThanOrEqual(Math.floor(capacity * 0.95));
    expect(admitted.length).toBeLessThanOrEqual(capacity + 1);
    expect(greedy.filter((g) => g.admittedAt !== undefined).length).toBe(admitted.length - polite.length);
    expect(greedy.filter((g) => g.refused?.includes('budget')).length).toBeGreaterThan(0);
    await traffic.stop();
  });

  it('weights give more turns: a caller of weight 3 gets three points of four while both wait', async () => {
    const clock = new TestClock();
    const { traffic, outcomes, load } = line(clock, 'smooth=25,*:share=100%,x|heavy:weight=3');
    const start = clock.now();
    load('x|heavy', GREEDY_EVERY, 4_000);
    load('x|light', GREEDY_EVERY, 4_000);
    await clock.runUntil(start + 4_000);
    // What was admitted while both had a backlog, after the first span (served in arrival order until the line formed).
    const got = (caller: string) =>
      outcomes.filter((o) => o.caller === caller && o.admittedAt! >= start + SPAN && o.admittedAt! < start + 4_000)
        .length;
    const [heavy, light] = [got('x|heavy'), got('x|light')];
    expect(Math.abs(heavy - 3 * light)).toBeLessThanOrEqual(3);
    await traffic.stop();
  });

  it('a capped caller waits alone: past its share of every rule, a newcomer is served at once', async () => {
    const clock = new TestClock();
    // No pacing: the capped caller could take the whole span at once.
    const { traffic, outcomes, load } = line(clock, '*:share=100%,x|batch:share=20%');
    const start = clock.now();
    load('x|batch', 10, 1_000);
    await clock.runUntil(start + 500);
    // 20 % of 25: five, at once; the rest waits for its own cap, or fails saying it is its share.
    expect(outcomes.filter((o) => o.admittedAt !== undefined).length).toBe(5);
    load('x|ui', 100, 300);
    await clock.runUntil(start + 501);
    const ui = outcomes.filter((o) => o.caller === 'x|ui');
    expect(ui[0]).toMatchObject({ admittedAt: start + 500 });
    await clock.runUntil(start + 2_000);
    expect(ui.every((o) => o.admittedAt !== undefined)).toBe(true);
    const refused = outcomes.filter((o) => o.caller === 'x|batch' && o.refused);
    expect(refused.length).toBeGreaterThan(0);
    for (const o of refused) expect(o.refused).toMatch(/Your share/);
    await traffic.stop();
  });
});

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

const emulators = async () => {
  const [governance, calendar] = await Promise.all([startGovernanceEmulator(), startCalendarEmulator()]);
  closers.push(
    () => governance.close(),
    () => calendar.close(),
  );
  return { governance, calendar };
};
type Emulators = Awaited<ReturnType<typeof emulators>>;

async function gateway(upstreams: Emulators, env: Record<string, string> = {}): Promise<string> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ...emulatorEnv(upstreams.governance, upstreams.calendar),
    GOVERNANCE_AUTH_MODE: 'forward',
    GOVERNANCE_RATE_LIMITS: `minute:0,hour:0,${LIMIT}/${WINDOW}ms`,
    GOVERNANCE_RATE_MARGIN: '1',
    CACHE_TTL_MS: '0',
    RESPONSE_CACHE: 'false',
    UPSTREAM_QUEUE_DEADLINE_MS: String(QUEUE_MS),
    ...env,
  });
  const gw: Gateway = createGateway({ config });
  const server: Server = createServer(gw.handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await gw.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
}

/** One read of a record that does not exist: one upstream call, never cached, never shared. */
async function read(url: string, bearer: string): Promise<boolean> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}`, 'cost-detail': 'full' },
    body: JSON.stringify({ query: 'query($id: ID!) { entity(id: $id) { id } }', variables: { id: randomUUID() } }),
  });
  const body = (await res.json()) as {
    errors?: unknown[];
    extensions?: { cost?: { governance?: { actual: number } } };
  };
  return res.status === 200 && !body.errors && body.extensions?.cost?.governance?.actual === 1;
}

describe("a caller's cap on its share of the budget", () => {
  it('holds that caller alone: past its share its calls fail RATE_LIMITED with its own retry time, the others are served', async () => {
    const emulator = await startEmulator();
    const gate = await startGate(emulator, {
      GOVERNANCE_RATE_LIMITS: 'minute:0,hour:0,20/5s',
      GOVERNANCE_RATE_MARGIN: '1',
      UPSTREAM_QUEUE_DEADLINE_MS: '300',
      FAIR_SHARE: '*:share=100%,iss|batch:share=25%',
    });
    const caller = await gate.caller();
    const { ids } = await seedIds(gate, caller);
    const as = (client: string) => ({ ...caller, client, usage: new UsageTracker() });
    // 2 of the 20 points went to the token and the search; the batch caller may have 5.
    const [batch, ui] = await Promise.all([
      Promise.allSettled(ids.slice(0, 12).map((id) => getEntity(gate, as('iss|batch'), id))),
      Promise.allSettled(ids.slice(12, 18).map((id) => getEntity(gate, as('iss|ui'), id))),
    ]);
    expect(ui.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(batch.filter((r) => r.status === 'fulfilled').length).toBe(5);
    const refused = batch.flatMap((r) => (r.status === 'rejected' ? [r.reason as UpstreamError] : []));
    expect(refused.length).toBe(7);
    for (const e of refused) {
      expect(e).toMatchObject({ kind: 'rate-limited' });
      expect(e.message).toMatch(/Your share/);
      expect(e.retryAfter).toBeGreaterThanOrEqual(1);
    }
    expect(gate.upstreams.governance.traffic.shares.of('iss|batch')).toMatchObject({ share: 0.25, cap: 0.25 });
  });

  it('over HTTP: a caller whose share is spent past its deadline is refused 429 with Retry-After; another caller is served', async () => {
    const upstreams = await emulators();
    // 25 in 10 s: a share spent frees only seconds later, past an operation's deadline of 3 s (room
    // for a loaded machine to serve the reads before it).
    const url = await gateway(upstreams, {
      FAIR_SHARE: '*:share=20%',
      GOVERNANCE_RATE_LIMITS: `minute:0,hour:0,${LIMIT}/10s`,
      GATEWAY_OPERATION_DEADLINE_MS: '3000',
    });
    const [mine, theirs] = await Promise.all([fetchToken(upstreams, 'full'), fetchToken(upstreams, 'read')]);
    // 20% of 25 per span: 5 reads.
    for (let i = 0; i < 5; i++) expect(await read(url, mine)).toBe(true);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${mine}` },
      body: JSON.stringify({ query: '{ entity(id: "6f1c2b1e-0000-4000-8000-000000000000") { id } }' }),
    });
    expect(res.status).toBe(429);
    // One Retry-After header, for this caller.
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await res.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]!.extensions.code).toBe('RATE_LIMITED');
    expect(await read(url, theirs)).toBe(true);
  });
});
