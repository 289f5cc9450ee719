/**
 * A fair share of the account for each caller, over HTTP against the real governance emulator: with a
 * budget that fits half of the combined load, a polite caller sending a twentieth of a greedy caller's
 * load is served in full, its p95 latency stays within 100 ms of its p95 alone, and the greedy caller
 * gets the rest of the budget; through one gateway, and through two replicas sharing Redis. The callers
 * are told apart by their own credentials (each forwards its own OAuth token to the platform). And a
 * caller's cap on its share of the budget holds it alone (at the upstream level).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config/config.js';
import { createGateway, type Gateway } from '../src/app/gateway.js';
import { startGovernanceEmulator } from '../src/governance/emulator/index.js';
import { startCalendarEmulator } from '../src/calendar/emulator/index.js';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { REDIS_URL, requireRedis, uniquePrefix } from './support/redis.js';
import { getEntity, seedIds, startEmulator, startGate } from './support/traffic.js';
import { fetchToken } from './support/governance.js';
import { UsageTracker } from '../src/core/usage.js';
import type { UpstreamError } from '../src/core/errors.js';

/** The account allows LIMIT per WINDOW (+ GUARD): 20 a second, half of the load below. */
const WINDOW = 1_000;
/** The default guard band of a 1 s window. */
const GUARD = 250;
const LIMIT = 25;
const GREEDY_PER_S = 40;
const POLITE_PER_S = 2;
const RUN_MS = 8_000;
/** How long a request may wait in line (UPSTREAM_QUEUE_DEADLINE_MS). */
const QUEUE_MS = 1_500;

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
    FAIR_SHARE: 'smooth=25',
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

interface Outcome {
  ms: number;
  served: boolean;
  code?: string;
  place?: number;
}

/** One read of a record that does not exist: one upstream call, never cached, never shared. */
async function read(url: string, bearer: string): Promise<Outcome> {
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}`, 'cost-detail': 'full' },
    body: JSON.stringify({ query: 'query($id: ID!) { entity(id: $id) { id } }', variables: { id: randomUUID() } }),
  });
  const body = (await res.json()) as {
    errors?: { extensions?: { code?: string } }[];
    extensions?: { cost?: { governance?: { actual: number; caller?: { place: number } } } };
  };
  const ms = performance.now() - started;
  const cost = body.extensions?.cost?.governance;
  return {
    ms,
    served: res.status === 200 && !body.errors && cost?.actual === 1,
    code: body.errors?.[0]?.extensions?.code,
    place: cost?.caller?.place,
  };
}

/** Sends `perSecond` reads for `ms` at an even pace, round robin over `urls`, without waiting for answers. */
async function load(urls: string[], bearer: string, perSecond: number, ms: number): Promise<Outcome[]> {
  const pending: Promise<Outcome>[] = [];
  const start = performance.now();
  const n = Math.round((perSecond * ms) / 1000);
  for (let i = 0; i < n; i++) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(read(urls[i % urls.length]!, bearer));
  }
  return Promise.all(pending);
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1]!;

/** What the account can give in `ms` at LIMIT per span (the first span's allowance plus the pace after it). */
const capacity = (ms: number) => LIMIT + Math.floor((LIMIT * ms) / (WINDOW + GUARD));

async function contend(upstreams: Emulators, greedyUrls: string[], politeUrls: string[]) {
  const [greedyToken, politeToken] = await Promise.all([fetchToken(upstreams, 'full'), fetchToken(upstreams, 'read')]);
  const alone = await load(politeUrls, politeToken, POLITE_PER_S, RUN_MS);
  expect(alone.every((o) => o.served)).toBe(true);
  // Let the window the polite caller used slide out, so both start on a full budget.
  await new Promise((r) => setTimeout(r, WINDOW + GUARD));
  const [greedy, polite] = await Promise.all([
    load(greedyUrls, greedyToken, GREEDY_PER_S, RUN_MS),
    load(politeUrls, politeToken, POLITE_PER_S, RUN_MS),
  ]);
  const figures = {
    politeAloneP95: Math.round(p95(alone.map((o) => o.ms))),
    politeP95: Math.round(p95(polite.map((o) => o.ms))),
    politeServed: polite.filter((o) => o.served).length,
    politeSent: polite.length,
    greedyServed: greedy.filter((o) => o.served).length,
    greedySent: greedy.length,
    greedyRefused: greedy.filter((o) => o.code === 'RATE_LIMITED').length,
    // Served at most: what the account gives while the load lasts and its last requests wait in line.
    capacity: capacity(RUN_MS + QUEUE_MS),
    atLeast: Math.floor(0.8 * capacity(RUN_MS)),
  };
  console.info(`fair share: ${JSON.stringify(figures)}`);
  return { greedy, polite, figures };
}

describe('a fair share of the account for each caller', () => {
  it('one gateway: the polite caller is served in full and on time, the greedy one gets the rest', async () => {
    const upstreams = await emulators();
    const url = await gateway(upstreams);
    const { figures, greedy } = await contend(upstreams, [url], [url]);
    expect(figures.politeServed).toBe(figures.politeSent);
    expect(figures.politeP95).toBeLessThanOrEqual(figures.politeAloneP95 + 100);
    // The greedy caller was refused (RATE_LIMITED), not starved: it got the budget the polite one left.
    expect(figures.greedyRefused).toBeGreaterThan(0);
    expect(figures.greedyServed + figures.politeServed).toBeGreaterThanOrEqual(figures.atLeast);
    expect(figures.greedyServed + figures.politeServed).toBeLessThanOrEqual(figures.capacity);
    // Its calls waited in line; the polite caller's report its place.
    expect(greedy.some((o) => (o.place ?? 0) > 1)).toBe(true);
  });

  it('two replicas sharing Redis: the polite caller is served in full and on time, the greedy one gets the rest', async () => {
    if (!(await requireRedis())) return;
    const upstreams = await emulators();
    const shared = { REDIS_URL, REDIS_KEY_PREFIX: uniquePrefix() };
    const [a, b] = await Promise.all([gateway(upstreams, shared), gateway(upstreams, shared)]);
    // The greedy caller spreads over both replicas; the polite one talks to one of them.
    const { figures } = await contend(upstreams, [a, b], [b]);
    expect(figures.politeServed).toBe(figures.politeSent);
    expect(figures.politeP95).toBeLessThanOrEqual(figures.politeAloneP95 + 100);
    expect(figures.greedyRefused).toBeGreaterThan(0);
    expect(figures.greedyServed + figures.politeServed).toBeGreaterThanOrEqual(figures.atLeast);
    expect(figures.greedyServed + figures.politeServed).toBeLessThanOrEqual(figures.capacity);
  });
});

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
    const url = await gateway(upstreams, { FAIR_SHARE: '*:share=20%', GATEWAY_OPERATION_DEADLINE_MS: '500' });
    const [mine, theirs] = await Promise.all([fetchToken(upstreams, 'full'), fetchToken(upstreams, 'read')]);
    // 20% of 25 per span: 5 reads.
    for (let i = 0; i < 5; i++) expect((await read(url, mine)).served).toBe(true);
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
    expect((await read(url, theirs)).served).toBe(true);
  });
});
