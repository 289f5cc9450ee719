/**
 * Live updates over SSE (read with graphql-sse): a change made through another replica arrives
 * through Redis; a change made directly upstream arrives by polling within the interval; one poller
 * per credential and resource across replicas; polling stops with the last subscriber and yields to
 * ordinary queries when the budget is tight.
 */
import { createClient, type Client } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import type { Config } from '../src/config/config.js';
import { calls } from './support/calendar.js';
import { REDIS_URL, requireRedis, uniquePrefix } from './support/redis.js';
import { startStack, type Stack } from './support/stack.js';
import { quietFor } from './support/wait.js';

type Any = any;

const run = await requireRedis();
const clients: Client[] = [];
afterAll(() => {
  for (const c of clients) c.dispose();
});

/** Subscribes with graphql-sse; `received` fills as updates arrive; `completed` once the server ends it; `stop()` ends it. */
function subscribe(url: string, query: string, variables: Record<string, unknown>) {
  const client = createClient({ url, singleConnection: false, retryAttempts: 0 });
  clients.push(client);
  const received: Any[] = [];
  const errors: unknown[] = [];
  const state = { completed: false };
  const stop = client.subscribe(
    { query, variables },
    {
      next: (r) => void received.push(r),
      error: (e) => void errors.push(e),
      complete: () => void (state.completed = true),
    },
  );
  return { received, errors, stop, state };
}

const EVENT_CHANGED = 'subscription($id: ID!) { eventChanged(id: $id) { id origin deleted event { id title } } }';

async function firstEventId(stack: Stack): Promise<string> {
  const d = await stack.query<Any>('{ events(first: 1) { nodes { id } } }');
  return d.data.events.nodes[0].id;
}

/** Changes an event (or, without a title, trashes it) directly at the emulated site, behind the gateway's back. */
async function changeUpstream(stack: Stack, id: string, title?: string): Promise<void> {
  const { url, user, appPassword } = stack.config.calendar;
  const res = await fetch(`${url}/events/${id}`, {
    method: title === undefined ? 'DELETE' : 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${user}:${appPassword}`).toString('base64')}`,
    },
    body: title === undefined ? undefined : JSON.stringify({ title }),
  });
  expect(res.status).toBe(200);
}

/**
 * The tests poll every 20–100 ms, far more often than one caller's streams may by default
 * (`pollsPerMinutePerCaller` stretches them): that limit is lifted here, and checked on its own below.
 */

/** vi.waitFor with room for two replicas polling through Redis on a loaded machine. */
const waitFor = <T>(fn: () => T) => vi.waitFor(fn, { timeout: 15_000, interval: 20 });

describe.runIf(run)('subscriptions across replicas (Redis)', () => {
  let a: Stack;
  let b: Stack;
  let urlA: string;
  let urlB: string;

  beforeAll(async () => {
    const prefix = uniquePrefix();
    const live = {
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      CACHE_TTL_MS: '30000',
    };
    const fast = (c: Config): Config => ({
      ...c,
      live: { ...c.live, pollsPerMinutePerCaller: 1e6, minPollIntervalMs: 50, pollIntervalMs: 100 },
    });
    a = await startStack({ env: live, configure: fast });
    // Replica B talks to the same emulated upstreams as A.
    b = await startStack({ env: { ...live, ...emulatorEnv(a.governance, a.calendar) }, configure: fast });
    [urlA, urlB] = await Promise.all([a.listen(), b.listen()]);
    await waitFor(() => expect(a.gateway.upstreams.redis?.ready && b.gateway.upstreams.redis?.ready).toBe(true));
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('a subscriber on one replica receives an update made through another, re-read with its own credential', async () => {
    const id = await firstEventId(a);
    const sub = subscribe(urlA, EVENT_CHANGED, { id });
    await waitFor(() =>
      expect(a.gateway.live.polling.stats().polls + a.gateway.live.polling.stats().leasedElsewhere).toBeGreaterThan(0),
    );
    const title = `Through B ${Date.now()}`;
    const res = await b.query<Any>(
      'mutation($id: ID!, $t: String!) { updateEvent(id: $id, input: { title: $t }) { id } }',
      { id, t: title },
    );
    expect(res.errors).toBeUndefined();
    await waitFor(() => expect(sub.received.some((r) => r.data?.eventChanged?.event?.title === title)).toBe(true));
    const update = sub.received.find((r) => r.data?.eventChanged?.event?.title === title);
    expect(update.data.eventChanged).toMatchObject({ id, origin: 'GATEWAY', deleted: false });
    sub.stop();
  });

  it('an update made directly upstream arrives by polling, from one poller across both replicas', async () => {
    const d = await a.query<Any>('{ events(first: 3) { nodes { id } } }');
    const id = d.data.events.nodes[2].id;
    const before = { a: a.gateway.live.polling.stats(), b: b.gateway.live.polling.stats() };
    const onA = subscribe(urlA, EVENT_CHANGED, { id });
    const onB = subscribe(urlB, EVENT_CHANGED, { id });
    // Both replicas start a poller for (configured credential, event:id); the lease lets one poll.
    await waitFor(() => {
      const polls =
        a.gateway.live.polling.stats().polls - before.a.polls + (b.gateway.live.polling.stats().polls - before.b.polls);
      expect(polls).toBeGreaterThanOrEqual(2);
    });
    const pollsA = a.gateway.live.polling.stats().polls - before.a.polls;
    const pollsB = b.gateway.live.polling.stats().polls - before.b.polls;
    expect(Math.min(pollsA, pollsB), `polls on A ${pollsA}, on B ${pollsB}`).toBe(0);
    expect(
      a.gateway.live.polling.stats().leasedElsewhere + b.gateway.live.polling.stats().leasedElsewhere,
    ).toBeGreaterThan(before.a.leasedElsewhere + before.b.leasedElsewhere);

    // Nothing changed yet: the polls so far found nothing to report.
    expect([...onA.received, ...onB.received]).toEqual([]);
    const title = `Behind the gateway ${Date.now()}`;
    await changeUpstream(a, id, title);
    for (const sub of [onA, onB]) {
      await waitFor(() => expect(sub.received.some((r) => r.data?.eventChanged?.event?.title === title)).toBe(true));
      expect(sub.received.find((r) => r.data?.eventChanged?.event?.title === title).data.eventChanged.origin).toBe(
        'POLL',
      );
    }

    // The last subscriber leaving stops the pollers on both replicas: no more reads of the event.
    onA.stop();
    onB.stop();
    await waitFor(() => expect(a.gateway.live.polling.stats().active + b.gateway.live.polling.stats().active).toBe(0));
    // A poll that was on the wire when they left may still arrive: wait until nothing is.
    const idle = (s: typeof a) => s.gateway.upstreams.calendar.limiter.load.running === 0;
    await waitFor(() => expect(idle(a) && idle(b)).toBe(true));
    a.clearRequests();
    await quietFor(300, 'three polling intervals: a stopped poller must send nothing, and an absence has no event');
    expect(calls(a, new RegExp(`^GET /events/${id}$`))).toEqual([]);
  });
});

describe('subscriptions on one gateway', () => {
  it('eventsChanged sends the ids of events changed through the gateway and found by polling, each version once', async () => {
    const s = await startStack({
      configure: (c) => ({
        ...c,
        live: { ...c.live, pollsPerMinutePerCaller: 1e6, minPollIntervalMs: 50, pollIntervalMs: 100 },
      }),
    });
    try {
      const url = await s.listen();
      const events = (await s.query<Any>('{ events(first: 2) { nodes { id } } }')).data.events.nodes;
      const sub = subscribe(url, 'subscription { eventsChanged { ids origin } }', {});
      await waitFor(() => expect(s.gateway.live.polling.stats().polls).toBeGreaterThan(0));
      await s.query('mutation($id: ID!, $t: String!) { updateEvent(id: $id, input: { title: $t }) { id } }', {
        id: events[0].id,
        t: `Gateway change ${Date.now()}`,
      });
      await waitFor(() =>
        expect(sub.received).toContainEqual({ data: { eventsChanged: { ids: [events[0].id], origin: 'GATEWAY' } } }),
      );
      await changeUpstream(s, events[1].id, `Listed change ${Date.now()}`);
      await waitFor(() =>
        expect(
          sub.received.some(
            (r) => r.data?.eventsChanged?.origin === 'POLL' && r.data.eventsChanged.ids.includes(events[1].id),
          ),
        ).toBe(true),
      );
      // Polling found the gateway's change too, by then or in that very poll: the subscriber had that version.
      const sent = sub.received.flatMap((r) => r.data.eventsChanged.ids as string[]);
      expect(sent.filter((id) => id === events[0].id)).toEqual([events[0].id]);
      sub.stop();
    } finally {
      await s.close();
    }
  });

  it('with a tiny budget, polling takes at most its share and ordinary queries keep theirs', async () => {
    // 30 requests a minute; polls may use 10% of it: 3 a minute, however short the interval.
    const s = await startStack({
      env: {
        CALENDAR_RATE_LIMITS: 'minute:30',
        // The one caller's queries spend what polling leaves: no cap on its share (25 % by default).
        FAIR_SHARE: '*:share=100%',
        LIVE_LIMITS: 'budgetPercent:10',
        CACHE_TTL_MS: '0',
      },
      configure: (c) => ({
        ...c,
        live: { ...c.live, pollsPerMinutePerCaller: 1e6, minPollIntervalMs: 20, pollIntervalMs: 20 },
      }),
    });
    try {
      const url = await s.listen();
      const id = await firstEventId(s);
      const sub = subscribe(url, EVENT_CHANGED, { id });
      await waitFor(() => expect(s.gateway.live.polling.stats().yielded).toBeGreaterThanOrEqual(10));
      expect(s.gateway.live.polling.stats().polls).toBeLessThanOrEqual(3);
      // Twenty ordinary reads in the same minute all get through: polling left them the budget.
      for (let i = 0; i < 20; i++) {
        const res = await s.query<Any>('query($id: ID!) { event(id: $id) { id } }', { id });
        expect(res.errors, `read ${i}`).toBeUndefined();
      }
      expect(s.gateway.live.polling.stats().polls).toBeLessThanOrEqual(3);
      expect(s.gateway.live.polling.stats().changes).toBe(0);
      expect(sub.received).toEqual([]);
      sub.stop();
      await waitFor(() => expect(s.gateway.live.polling.stats().active).toBe(0));
    } finally {
      await s.close();
    }
  });

  it('each push reads its nested lists again: the second change shows in the list under the second push', async () => {
    const s = await startStack({
      configure: (c) => ({
        ...c,
        live: { ...c.live, pollsPerMinutePerCaller: 1e6, minPollIntervalMs: 50, pollIntervalMs: 100 },
      }),
    });
    try {
      const url = await s.listen();
      const venues = await s.query<Any>(
        '{ venues(first: 50) { nodes { events(first: 50) { totalCount nodes { id } } } } }',
      );
      const venue = (venues.data.venues.nodes as Any[]).find(
        (v) => v.events.totalCount > 0 && v.events.totalCount <= 50,
      );
      const id = venue.events.nodes[0].id as string;
      const sub = subscribe(
        url,
        'subscription($id: ID!) { eventChanged(id: $id) { event { venue { events(first: 50) { nodes { id title } } } } } }',
        { id },
      );
      await waitFor(() => expect(s.gateway.live.polling.stats().polls).toBeGreaterThan(0));
      const titleIn = (push: Any) =>
        (push.data.eventChanged.event.venue.events.nodes as Any[]).find((n) => n.id === id)?.title;
      // Polling may push the same change again later; some push after each write must show it.
      for (const title of ['Pushed once', 'Pushed twice']) {
        await s.query('mutation($id: ID!, $t: String!) { updateEvent(id: $id, input: { title: $t }) { id } }', {
          id,
          t: title,
        });
        await waitFor(() => expect(sub.received.map(titleIn)).toContain(title));
      }
      sub.stop();
    } finally {
      await s.close();
    }
  });

  it('eventChanged sends an event trashed directly upstream once, as deleted, then ends', async () => {
    const s = await startStack({
      configure: (c) => ({
        ...c,
        live: { ...c.live, pollsPerMinutePerCaller: 1e6, minPollIntervalMs: 50, pollIntervalMs: 100 },
      }),
    });
    try {
      const url = await s.listen();
      const id = await firstEventId(s);
      const sub = subscribe(url, EVENT_CHANGED, { id });
      const polling = s.gateway.live.polling;
      // A second poll has begun: the first one's reading (the event as it was) is what the trash is told from.
      await waitFor(() => expect(polling.stats().polls).toBeGreaterThanOrEqual(2));
      await changeUpstream(s, id);
      // The site answers the trashed event 403 event-no-longer-available (GONE): the poll finds it gone.
      await waitFor(() => expect(sub.state.completed).toBe(true));
      expect(sub.received).toEqual([{ data: { eventChanged: { id, origin: 'POLL', deleted: true, event: null } } }]);
      expect(sub.errors).toEqual([]);
      await waitFor(() => expect(polling.stats().active).toBe(0));
    } finally {
      await s.close();
    }
  });

  it('refuses a bad id before subscribing; entityChanged sends a change once and a delete once, then ends', async () => {
    const s = await startStack({
      configure: (c) => ({
        ...c,
        live: { ...c.live, pollsPerMinutePerCaller: 1e6, minPollIntervalMs: 50, pollIntervalMs: 100 },
      }),
    });
    try {
      const url = await s.listen();
      const bad = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        body: JSON.stringify({ query: 'subscription { eventChanged(id: "x") { id } }' }),
      });
      const body = await bad.json();
      expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'id' });

      const org = (await s.query<Any>('{ entities(kind: AI_SYSTEM, first: 1) { nodes { organizationId } } }')).data
        .entities.nodes[0].organizationId;
      const created = (
        await s.query<Any>(
          'mutation($o: ID!) { createEntity(input: { kind: DATASET, name: "Watched", organizationId: $o }) { id } }',
          { o: org },
        )
      ).data.createEntity.id;
      const sub = subscribe(
        url,
        'subscription($id: ID!) { entityChanged(id: $id) { id origin deleted entity { name } } }',
        { id: created },
      );
      const polling = s.gateway.live.polling;
      await waitFor(() => expect(polling.stats().polls).toBeGreaterThan(0));
      await s.query('mutation($id: ID!) { updateEntity(id: $id, input: { name: "Watched, renamed" }) { id } }', {
        id: created,
      });
      // The write's own push (GATEWAY), or the poller's if it read the new version first: one of them.
      const renamed = { id: created, deleted: false, entity: { name: 'Watched, renamed' } };
      await waitFor(() => expect(sub.received).toHaveLength(1));
      expect(sub.received[0].data.entityChanged).toMatchObject(renamed);
      // The poller finds the rename too; the subscriber already had that version.
      await waitFor(() => expect(polling.stats().changes).toBeGreaterThan(0));
      await s.query('mutation($id: ID!) { deleteEntity(id: $id) { deletedId } }', { id: created });
      await waitFor(() => expect(sub.state.completed).toBe(true));
      // The bus keeps order: the poller's rename came before the delete, and was not sent.
      expect(sub.received).toHaveLength(2);
      expect(sub.received[1].data.entityChanged).toMatchObject({ id: created, deleted: true, entity: null });
      expect(sub.errors).toEqual([]);
      // The stream's end let its poller go.
      await waitFor(() => expect(polling.stats().active).toBe(0));
    } finally {
      await s.close();
    }
  });
});
