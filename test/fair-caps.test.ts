/**
 * Callers' caps over HTTP, with JWT callers of two real issuers (JWKS on sockets) and the governance
 * emulator's own request log as witness: a caller's cap holds on every account rule, the long one
 * above all, so a greedy caller cannot spend it and a caller that comes later is served; an
 * issuer's callers are held together to its aggregate cap, each to its own (the default, 25 %),
 * and one issuer's client id never gets another issuer's entry; two replicas sharing Redis hold a
 * caller to one cap, through Redis and while it is killed. Each upstream request is put to its caller
 * by the `x-request-id` the gateway sends with it and answers with.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { createGateway } from '../src/app/gateway.js';
import { startCalendarEmulator } from '../src/emulators/calendar/index.js';
import { loadConfig } from '../src/config/config.js';
import { startGovernanceEmulator } from '../src/emulators/governance/index.js';
import { DEV_AUDIENCE, DevIssuer } from '../src/identity/dev-issuer.js';
import { maxInAnySpan, OwnRedis, requireRedis, uniquePrefix } from './support/redis.js';
import { until } from './support/wait.js';

const redis = await requireRedis();
/** 20 a second and 50 in 10 s: spent at its short rule's pace, a caller would spend the long one in 5 s. */
const RULES = 'minute:0,hour:0,20/1s,50/10s';
/**
 * The guard band added to each rule's span (a constant of the gateway, 250 ms for these windows): a
 * second, as in traffic-sliding.test.ts, so that a stalled event loop between admission and arrival
 * cannot put more into a span of the emulator's timestamps than the gateway counted in its own.
 */
const GUARD_MS = 1_000;
/** A caller that got nothing for this long is held back by a cap or the account (past the short rule's span). */
const STALLED_MS = 3_000;

const closers: (() => Promise<void>)[] = [];
let issuers: [DevIssuer, DevIssuer];
beforeAll(async () => {
  issuers = await Promise.all([DevIssuer.start(), DevIssuer.start()]);
  closers.push(() => Promise.all(issuers.map((i) => i.close())).then(() => undefined));
});
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

async function emulators() {
  const [governance, calendar] = await Promise.all([startGovernanceEmulator(), startCalendarEmulator()]);
  closers.push(
    () => governance.close(),
    () => calendar.close(),
  );
  return { governance, calendar };
}
type Emulators = Awaited<ReturnType<typeof emulators>>;

/** A gateway on a socket in front of the emulators, trusting both issuers; its /graphql URL. */
async function gateway(upstreams: Emulators, env: Record<string, string>): Promise<string> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ...emulatorEnv(upstreams.governance, upstreams.calendar),
    AUTH_ISSUERS: issuers.map((i) => `${i.issuer}|${DEV_AUDIENCE}|${i.jwksUrl}`).join(','),
    AUTH_ANONYMOUS: 'none',
    GOVERNANCE_RATE_LIMITS: RULES,
    GOVERNANCE_RATE_MARGIN: '1',
    CACHE_TTL_MS: '0',
    RESPONSE_CACHE: 'false',
    UPSTREAM_QUEUE_DEADLINE_MS: '300',
    ...env,
  });
  const governance = { ...config.traffic.governance, guardMs: GUARD_MS };
  const gw = createGateway({ config: { ...config, traffic: { ...config.traffic, governance } } });
  const server = createServer(gw.handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await gw.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
}

/** Which caller sent each operation, by the gateway's request id. */
const senders = new Map<string, string>();

/** A caller with a token; `send` reads a record that does not exist (one upstream call, never cached). */
async function caller(name: string, issuer: DevIssuer, claims: Record<string, string>, urls: string[]) {
  const token = await issuer.sign({ scope: 'governance:read', ...claims });
  let turn = 0;
  /** `other`: answers that are neither data nor RATE_LIMITED (there should be none). */
  const stats = { served: 0, refused: 0, lastServedAt: 0, other: [] as string[] };
  const send = async (): Promise<boolean> => {
    const res = await fetch(urls[turn++ % urls.length]!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: 'query($id: ID!) { entity(id: $id) { id } }', variables: { id: randomUUID() } }),
    }).catch((e: unknown) => e as Error);
    if (res instanceof Error) {
      stats.other.push(String(res));
      return false;
    }
    senders.set(res.headers.get('x-request-id') ?? '', name);
    const body = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
    const served = res.status === 200 && !body.errors;
    if (served) {
      stats.served++;
      stats.lastServedAt = Date.now();
    } else if (body.errors?.[0]?.extensions?.code === 'RATE_LIMITED') stats.refused++;
    else stats.other.push(`${res.status} ${JSON.stringify(body.errors)}`);
    return served;
  };
  return { name, send, stats };
}
type Caller = Awaited<ReturnType<typeof caller>>;

/** Stopped after the file at the latest (a test that failed half-way). */
const running = new Set<{ running: boolean }>();
afterAll(() => running.forEach((r) => (r.running = false)));

/** `c` sends from `loops` loops at once until stopped, a little apart after a refusal. */
function hammer(c: Caller, loops = 4): { stop: () => Promise<void> } {
  const state = { running: true };
  running.add(state);
  const all = Array.from({ length: loops }, async () => {
    while (state.running) if (!(await c.send())) await new Promise((r) => setTimeout(r, 25));
  });
  return {
    stop: async () => {
      state.running = false;
      await Promise.all(all);
      expect(c.stats.other).toEqual([]);
    },
  };
}

const stalled = (c: Caller) => () => c.stats.served > 0 && Date.now() - c.stats.lastServedAt > STALLED_MS;

/** When each caller's reads reached the emulator. */
function arrivals(upstreams: Emulators): Map<string, number[]> {
  const by = new Map<string, number[]>();
  for (const r of upstreams.governance.control.requests().requests) {
    const who = r.requestId && senders.get(r.requestId);
    if (r.route !== 'GET /entities/:entityId' || !who) continue;
    by.set(who, [...(by.get(who) ?? []), r.receivedAt]);
  }
  return by;
}

/** Most of `times` in any span of each rule: 1 s and 10 s. */
const spans = (times: number[] = []) => [maxInAnySpan(times, 1_000), maxInAnySpan(times, 10_000)];

// Each test has emulators and gateways of its own, and asserts counts, not timing: they run at once.
describe.concurrent("callers' caps over HTTP", () => {
  it('a greedy caller is held to its share of the long rule too: a caller that comes after it is served', async () => {
    const upstreams = await emulators();
    const url = await gateway(upstreams, { FAIR_SHARE: '*:share=50%' });
    const [a] = issuers;
    const greedy = await caller('greedy', a, { sub: 'batch', client_id: 'batch' }, [url]);
    const polite = await caller('polite', a, { sub: 'ui', client_id: 'ui' }, [url]);
    const load = hammer(greedy);
    await until(stalled(greedy), 'the greedy caller held back', { timeout: 20_000 });
    // Half of each rule: 10 of its 20 a second, 25 of its 50 in 10 s, so the account has room.
    for (let i = 0; i < 5; i++) expect(await polite.send(), `polite read ${i}`).toBe(true);
    await load.stop();
    const [second, long] = spans(arrivals(upstreams).get('greedy'));
    expect(second).toBeLessThanOrEqual(10);
    expect(long).toBeLessThanOrEqual(25);
    expect(long).toBeGreaterThanOrEqual(20);
  }, 40_000);

  it("an issuer's callers are held together to its cap, each to its own; another issuer's client keeps its own entry", async () => {
    const upstreams = await emulators();
    const [a, b] = issuers;
    // Issuer A's callers together at most 30 %; its client `app` has no cap of its own. Issuer B's
    // `app` is another caller: the default (a quarter) holds it.
    const url = await gateway(upstreams, { FAIR_SHARE: `${a.issuer}|*:share=30%,${a.issuer}|app:share=100%` });
    const callers = await Promise.all([
      caller('a:u1', a, { sub: 'u1' }, [url]),
      caller('a:u2', a, { sub: 'u2' }, [url]),
      caller('a:app', a, { sub: 'svc', client_id: 'app' }, [url]),
      caller('b:app', b, { sub: 'svc', client_id: 'app' }, [url]),
    ]);
    const loads = callers.map((c) => hammer(c, 2));
    for (const c of callers) await until(stalled(c), `${c.name} held back`, { timeout: 20_000 });
    await Promise.all(loads.map((l) => l.stop()));
    const by = arrivals(upstreams);
    const fromA = ['a:u1', 'a:u2', 'a:app'].flatMap((n) => by.get(n) ?? []);
    // 30 % of 50: 15 in any 10 s span, and 6 of 20 a second.
    const [aSecond, aLong] = spans(fromA);
    expect(aSecond).toBeLessThanOrEqual(6);
    expect(aLong).toBeLessThanOrEqual(15);
    expect(aLong).toBeGreaterThanOrEqual(10);
    // The default share, a quarter: 5 a second, 12 in 10 s.
    for (const n of ['a:u1', 'a:u2']) expect(spans(by.get(n))[1]).toBeLessThanOrEqual(12);
    const [bSecond, bLong] = spans(by.get('b:app'));
    expect(bSecond).toBeLessThanOrEqual(5);
    expect(bLong).toBeLessThanOrEqual(12);
    expect(bLong).toBeGreaterThanOrEqual(8);
  }, 40_000);

  it.skipIf(!redis)(
    'two replicas sharing Redis hold a caller to one cap, also while their Redis is killed; a newcomer is served',
    async () => {
      const own = new OwnRedis();
      await own.start();
      closers.push(() => own.stop());
      const upstreams = await emulators();
      const env = { FAIR_SHARE: '*:share=50%', REDIS_URL: own.url, REDIS_KEY_PREFIX: uniquePrefix() };
      const urls = await Promise.all([gateway(upstreams, env), gateway(upstreams, env)]);
      const [a] = issuers;
      const greedy = await caller('greedy', a, { sub: 'batch', client_id: 'batch' }, urls);
      const polite = await caller('polite', a, { sub: 'ui', client_id: 'ui' }, [urls[1]]);
      const load = hammer(greedy);
      // Killed once the greedy caller spent some of its cap through both replicas.
      await until(() => greedy.stats.served >= 12, 'the greedy caller under way', { timeout: 20_000 });
      await own.stop();
      await until(stalled(greedy), 'the greedy caller held back', { timeout: 20_000 });
      for (let i = 0; i < 3; i++) expect(await polite.send(), `polite read ${i}`).toBe(true);
      await load.stop();
      const [second, long] = spans(arrivals(upstreams).get('greedy'));
      expect(second).toBeLessThanOrEqual(10);
      expect(long).toBeLessThanOrEqual(25);
    },
    60_000,
  );
});
