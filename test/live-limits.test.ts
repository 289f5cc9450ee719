/**
 * What one caller's subscriptions may take, over SSE on a socket (graphql-sse) with JWT callers of a
 * real issuer: at most so many streams at once (the next one refused RATE_LIMITED, a stream's end
 * gives its place back, other callers unaffected); their polls together within the caller's rate
 * however many streams ask (the emulator's log as witness), each charged to the caller whose stream
 * asks soonest; a stream ends at its token's expiry with a last UNAUTHENTICATED error and
 * `complete`; and at the drain deadline a stream gets the documented last event and `complete`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type Client } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway } from '../src/app/gateway.js';
import { loadConfig, type Config } from '../src/config/config.js';
import { Drain } from '../src/http/drain.js';
import { DEV_AUDIENCE, DevIssuer } from '../src/identity/dev-issuer.js';
import { calls } from './support/calendar.js';
import { startStack, type Stack } from './support/stack.js';
import { quietFor } from './support/wait.js';

type Any = any;

let issuer: DevIssuer;
const clients: Client[] = [];
beforeAll(async () => {
  issuer = await DevIssuer.start();
});
afterAll(async () => {
  for (const c of clients) c.dispose();
  await issuer?.close();
});

const waitFor = <T>(fn: () => T) => vi.waitFor(fn, { timeout: 15_000, interval: 20 });

/** A reader's token: `client` is its fair-share key's client id (`<issuer>|<client>`). */
const reader = (client: string, exp?: number) =>
  issuer.sign({ sub: client, client_id: client, scope: 'governance:read calendar:read', ...(exp ? { exp } : {}) });

/** Subscribes with graphql-sse as `token`; `received` fills as events arrive, `completed` once the server ends it. */
function subscribe(url: string, token: string, query: string, variables: Record<string, unknown> = {}) {
  const client = createClient({
    url,
    singleConnection: false,
    retryAttempts: 0,
    headers: { authorization: `Bearer ${token}` },
  });
  clients.push(client);
  const received: Any[] = [];
  const state = { completed: false, completedAt: 0, error: undefined as unknown };
  const stop = client.subscribe(
    { query, variables },
    {
      next: (r) => void received.push(r),
      error: (e) => void (state.error = e),
      complete: () => void Object.assign(state, { completed: true, completedAt: Date.now() }),
    },
  );
  return { received, state, stop };
}

const EVENTS = 'subscription($f: EventFilter, $s: Int) { eventsChanged(filter: $f, pollIntervalSeconds: $s) { ids } }';
const ENTITY = 'subscription($id: ID!, $s: Int) { entityChanged(id: $id, pollIntervalSeconds: $s) { id } }';

/** A stack that trusts the issuer; `live` sets the polling figures the test needs (a config object, not settings). */
async function stack(live: Partial<Config['live']> = {}, env: Record<string, string> = {}): Promise<Stack> {
  return startStack({
    env: { AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${issuer.jwksUrl}`, AUTH_ANONYMOUS: 'none', ...env },
    configure: (c) => ({ ...c, live: { ...c.live, ...live } }),
  });
}

describe('what one caller’s subscriptions may take', () => {
  it('at most LIVE_LIMITS streamsPerCaller streams: the next is refused RATE_LIMITED, an ended one gives its place back', async () => {
    const s = await stack();
    try {
      const url = await s.listen();
      const [mine, theirs] = await Promise.all([reader('dashboard'), reader('other-app')]);
      // Ten streams, each of its own filter (a poller each), the most one caller may hold.
      const open = Array.from({ length: 10 }, (_, i) => subscribe(url, mine, EVENTS, { f: { search: `q${i}` } }));
      await waitFor(() => expect(s.gateway.live.polling.stats().active).toBe(10));
      const refused = subscribe(url, mine, EVENTS, { f: { search: 'one too many' } });
      await waitFor(() => expect(refused.state.completed).toBe(true));
      expect(refused.received[0].errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', limit: 10 });
      expect(open.some((o) => o.state.completed)).toBe(false);
      // Another caller is not held by this one's streams.
      subscribe(url, theirs, EVENTS, { f: { search: 'theirs' } });
      await waitFor(() => expect(s.gateway.live.polling.stats().active).toBe(11));
      // One of the ten ends: its place is free again.
      open[0]!.stop();
      await waitFor(() => expect(s.gateway.live.polling.stats().active).toBe(10));
      subscribe(url, mine, EVENTS, { f: { search: 'in its place' } });
      await waitFor(() => expect(s.gateway.live.polling.stats().active).toBe(11));
    } finally {
      await s.close();
    }
  });

  it("one caller's streams together stay within its polls a minute, however many and however often they ask", async () => {
    // Ten streams asking for a poll every 50 ms would make 200 a second; the caller may cause 600 a
    // minute, so each of its ten polls once a second.
    const s = await stack({ minPollIntervalMs: 50, pollsPerMinutePerCaller: 600 });
    try {
      const url = await s.listen();
      const token = await reader('dashboard');
      const lists = () => calls(s, /^GET \/events$/).length;
      for (let i = 0; i < 10; i++) subscribe(url, token, EVENTS, { f: { search: `q${i}` }, s: 0 });
      // Each poller's first round goes at once.
      await waitFor(() => expect(lists()).toBeGreaterThanOrEqual(10));
      const before = lists();
      await quietFor(2_000, 'polls are counted over two seconds: a rate is an absence of the polls past it');
      // Ten a second, and a round more for the timers' phase.
      expect(lists() - before).toBeLessThanOrEqual(30);
      expect(lists() - before).toBeGreaterThanOrEqual(5);
    } finally {
      await s.close();
    }
  });

  it('a poll is charged to the caller whose stream asks for it soonest', async () => {
    const s = await stack({ minPollIntervalMs: 50, pollsPerMinutePerCaller: 1e6 }, { FAIR_SHARE: '*:share=100%' });
    try {
      const url = await s.listen();
      const [slow, fast] = await Promise.all([reader('slow-app'), reader('fast-app')]);
      const id = (
        await s.query<Any>('{ entities(first: 1) { nodes { id } } }', {}, { authorization: `Bearer ${slow}` })
      ).data.entities.nodes[0].id;
      const spent = (client: string) =>
        s.gateway.upstreams.governance.traffic.shares.spent().find(([k]) => k === `${issuer.issuer}|${client}`)?.[1] ??
        0;
      // The slow caller's stream starts the poller (its first round is the slow caller's) and asks every 300 s.
      subscribe(url, slow, ENTITY, { id, s: 300 });
      await waitFor(() => expect(s.gateway.live.polling.stats().polls).toBe(1));
      const slowBefore = spent('slow-app');
      // The fast caller's stream on the same record (one poller: the gateway's own credential) asks
      // every second: it brings the next round forward, and pays for the rounds it asks for.
      subscribe(url, fast, ENTITY, { id, s: 1 });
      await waitFor(() => expect(spent('fast-app')).toBeGreaterThanOrEqual(2));
      expect(spent('slow-app')).toBe(slowBefore);
    } finally {
      await s.close();
    }
  });

  it("a stream ends at its token's expiry: a last UNAUTHENTICATED error, then complete", async () => {
    const s = await stack();
    try {
      const url = await s.listen();
      const exp = Math.floor(Date.now() / 1000) + 3;
      const sub = subscribe(url, await reader('short-lived', exp), EVENTS, { f: { search: 'soon over' } });
      await waitFor(() => expect(s.gateway.live.polling.stats().active).toBe(1));
      await waitFor(() => expect(sub.state.completed).toBe(true));
      expect(sub.state.completedAt).toBeGreaterThanOrEqual(exp * 1000);
      expect(sub.received.at(-1).errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect(sub.state.error).toBeUndefined();
      // Its poller stopped with it.
      await waitFor(() => expect(s.gateway.live.polling.stats().active).toBe(0));
    } finally {
      await s.close();
    }
  });
});

describe('the limits across replicas', () => {
  it('with replicas sharing Redis, each holds its share of both limits, so that together they hold them', () => {
    const base = { NODE_ENV: 'test', GOVERNANCE_URL: 'http://127.0.0.1:9', CALENDAR_URL: 'http://127.0.0.1:9' };
    const env = {
      ...base,
      GOVERNANCE_AUTH_MODE: 'forward',
      LIVE_LIMITS: 'streamsPerCaller:10,pollsPerMinutePerCaller:60',
    };
    expect(loadConfig(env).live).toMatchObject({ maxStreamsPerCaller: 10, pollsPerMinutePerCaller: 60 });
    expect(loadConfig({ ...env, REDIS_URL: 'redis://127.0.0.1:1', GATEWAY_REPLICAS: '4' }).live).toMatchObject({
      maxStreamsPerCaller: 2,
      pollsPerMinutePerCaller: 15,
    });
  });
});

describe('subscriptions at shutdown', () => {
  it('at the drain deadline a stream gets a last SHUTTING_DOWN event, then complete', async () => {
    const s = await stack();
    const drain = new Drain({ drainMs: 300, retryAfterS: 1 });
    const gateway = createGateway({ config: s.config, extraPlugins: [drain.plugin()] });
    const server = createServer(drain.wrap(gateway.handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
      const sub = subscribe(url, await reader('dashboard'), EVENTS, { f: { search: 'until shutdown' } });
      await waitFor(() => expect(gateway.live.polling.stats().active).toBe(1));
      const report = await drain.begin();
      expect(report.cutOff).toEqual({ writes: 0, reads: 1 });
      await waitFor(() => expect(sub.state.completed).toBe(true));
      expect(sub.received.at(-1).errors[0].extensions.code).toBe('SHUTTING_DOWN');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gateway.close();
      await s.close();
    }
  });
});
