/**
 * Records, not requests (CACHE_REUSE): a record that came inside another answer (a list item, a
 * venue or organizers inside an event, a write's answer) answers the next lookup of it by id or
 * slug without a call; a partial record never does (a password-protected event as lists show it,
 * a governance basic-details item); one credential's records never answer another's lookup; a
 * write through another replica drops them on both; `off` makes today's calls and `shadow` only
 * counts. Calls are counted at the emulators, over real sockets.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { createGateway, type Gateway } from '../src/app/gateway.js';
import { startCalendarEmulator } from '../src/emulators/calendar/index.js';
import { normalizeEvent, normalizeVenue } from '../src/calendar/normalize.js';
import type { WireEvent, WireVenue } from '../src/calendar/wire.js';
import { loadConfig } from '../src/config/config.js';
import { ResponseCache } from '../src/core/cache.js';
import { startGovernanceEmulator } from '../src/emulators/governance/index.js';
import { calls } from './support/calendar.js';
import { parseMetrics, sum } from './support/prometheus.js';
import { REDIS_URL, requireRedis, uniquePrefix } from './support/redis.js';
import { startStack, type Stack } from './support/stack.js';
import { until } from './support/wait.js';

type Json = Record<string, any>;

const LIST = `{ events(first: 10) { nodes { id slug postStatus venue { id } organizers { id } } } }`;
const EVENT = `query($id: ID, $slug: String) { event(id: $id, slug: $slug) { id title slug description allDay cost venue { id name } organizers { id name } } }`;
const VENUE = `query($id: ID!) { venue(id: $id) { id name address city } }`;
const ORGANIZER = `query($id: ID!) { organizer(id: $id) { id name email } }`;

/** Whether the record cache holds an entry for this upstream path (the records of one answer are kept together). */
const holds = (gateway: Gateway, path: string) =>
  gateway.upstreams.cache.keys().some((k) => k.includes(`${path}\u0000`));

/** Calendar reads of single records the emulator saw since the last clear. */
const lookups = (stack: Stack) => calls(stack, /^GET \/(events|venues|organizers)\/(\d+|by-slug\/)/).length;

async function metric(gateway: Gateway, result: string): Promise<number> {
  const res = await gateway.yoga.fetch('http://gateway.test/metrics');
  return sum(parseMetrics(await res.text()), 'gateway_upstream_cache_total', { result });
}

/** A list of events, once its records are kept: the ids of an event with a venue and an organizer. */
async function listed(stack: Stack, headers?: Record<string, string>) {
  const res = await stack.query<Json>(LIST, undefined, headers);
  expect(res.errors).toBeUndefined();
  const event = (res.data!.events.nodes as Json[]).find(
    (e) => e.postStatus === 'PUBLISH' && e.venue && e.organizers.length > 0,
  )!;
  expect(event).toBeDefined();
  await until(() => holds(stack.gateway, `/events/${event.id}`), 'the listed events kept');
  return { id: event.id as string, slug: event.slug as string, venue: event.venue.id as string };
}

describe('records inside answers answer lookups (CACHE_REUSE=on, the default)', () => {
  it('an event listed answers its lookup by id and by slug; the venue and organizers inside an event answer theirs: 0 calls', async () => {
    const stack = await startStack({ env: { RESPONSE_CACHE: 'false' } });
    const event = await listed(stack);
    stack.clearRequests();
    const byId = await stack.query<Json>(EVENT, { id: event.id });
    const bySlug = await stack.query<Json>(EVENT, { slug: event.slug });
    expect(byId.errors).toBeUndefined();
    expect(bySlug.data).toEqual(byId.data);
    expect(lookups(stack)).toBe(0);
    expect(await metric(stack.gateway, 'record')).toBeGreaterThanOrEqual(2);

    // An event read by id embeds its venue and organizers: they answer their own lookups.
    const other = await startStack({ env: { RESPONSE_CACHE: 'false' } });
    const read = await other.query<Json>(EVENT, { id: event.id });
    await until(() => holds(other.gateway, `/venues/${event.venue}`), 'the embedded venue kept');
    other.clearRequests();
    const venue = await other.query<Json>(VENUE, { id: event.venue });
    const organizer = await other.query<Json>(ORGANIZER, { id: read.data!.event.organizers[0].id });
    expect(venue.data!.venue).toMatchObject({ id: event.venue, name: read.data!.event.venue.name });
    expect(organizer.data!.organizer.name).toBe(read.data!.event.organizers[0].name);
    expect(lookups(other)).toBe(0);
  });

  it('a password-protected event, listed blanked, never answers a lookup: it goes upstream', async () => {
    const stack = await startStack({ env: { RESPONSE_CACHE: 'false' } });
    const res = await stack.query<Json>(`{ events(filter: { search: "Preview" }, first: 10) { nodes { id allDay } } }`);
    const protectedEvent = (res.data!.events.nodes as Json[])[0]!;
    expect(protectedEvent).toMatchObject({ allDay: null });
    // Records are kept in a callback queued (setImmediate) before the list's answer was: one queued after it runs later.
    await new Promise((resolve) => setImmediate(resolve));
    expect(holds(stack.gateway, `/events/${protectedEvent.id}`)).toBe(false);
    stack.clearRequests();
    const lookup = await stack.query<Json>(EVENT, { id: protectedEvent.id });
    expect(calls(stack, new RegExp(`^GET /events/${protectedEvent.id}$`))).toHaveLength(1);
    expect(lookup.data?.event ?? null).toBeNull();
  });

  it('a governance entity found by a full-details search answers its lookup (0 calls); a basic-details item never does', async () => {
    const stack = await startStack({ env: { RESPONSE_CACHE: 'false' } });
    const entityLookups = () => calls0(stack);
    const summaries = await stack.query<Json>(`{ entitySummaries(first: 3) { nodes { id } } }`);
    const basicId = summaries.data!.entitySummaries.nodes[0].id as string;
    stack.clearRequests();
    const basic = await stack.query<Json>(`query($id: ID!) { entity(id: $id) { id name } }`, { id: basicId });
    expect(basic.data!.entity.id).toBe(basicId);
    expect(entityLookups()).toBe(1);

    const full = await stack.query<Json>(`{ entities(kind: MODEL, first: 5) { nodes { id name number updatedAt } } }`);
    const listedEntity = full.data!.entities.nodes.find((e: Json) => e.id !== basicId) as Json;
    await until(() => holds(stack.gateway, `/entities/${listedEntity.id}`), 'the searched entities kept');
    stack.clearRequests();
    const one = await stack.query<Json>(`query($id: ID!) { entity(id: $id) { id name number updatedAt } }`, {
      id: listedEntity.id,
    });
    expect(one.data!.entity).toEqual(listedEntity);
    expect(entityLookups()).toBe(0);

    // A write's answer is kept too: the updated entity answers the next lookup with the new name.
    const renamed = await stack.query<Json>(
      `mutation($id: ID!) { updateEntity(id: $id, input: { name: "Renamed by a write" }) { id name } }`,
      { id: listedEntity.id },
    );
    expect(renamed.errors).toBeUndefined();
    await until(() => holds(stack.gateway, `/entities/${listedEntity.id}`), 'the written entity kept');
    stack.clearRequests();
    const after = await stack.query<Json>(`query($id: ID!) { entity(id: $id) { name } }`, { id: listedEntity.id });
    expect(after.data!.entity.name).toBe('Renamed by a write');
    expect(entityLookups()).toBe(0);
  });

  it("credentials never mix: one identity's records never answer another's lookup", async () => {
    const stack = await startStack({ env: { RESPONSE_CACHE: 'false', CALENDAR_AUTH_MODE: 'forward' } });
    const { username, appPassword } = stack.calendar.users.editor;
    const editor = { authorization: `Basic ${Buffer.from(`${username}:${appPassword}`).toString('base64')}` };
    const event = await listed(stack, editor);
    stack.clearRequests();
    await stack.query<Json>(EVENT, { id: event.id }, editor);
    expect(lookups(stack)).toBe(0); // the editor's own records answer the editor
    const anonymous = await stack.query<Json>(EVENT, { id: event.id });
    expect(anonymous.data!.event.id).toBe(event.id);
    expect(lookups(stack)).toBe(1); // but never an anonymous caller

    // An editor's write answers the editor's next lookup (forward mode: reads and writes share the credential).
    const written = await stack.query<Json>(
      `mutation($id: ID!) { updateVenue(id: $id, input: { name: "Renamed Hall" }) { id name } }`,
      { id: event.venue },
      editor,
    );
    expect(written.errors).toBeUndefined();
    await until(() => holds(stack.gateway, `/venues/${event.venue}`), 'the written venue kept');
    stack.clearRequests();
    const venue = await stack.query<Json>(VENUE, { id: event.venue }, editor);
    expect(venue.data!.venue.name).toBe('Renamed Hall');
    expect(lookups(stack)).toBe(0);
  });
});

describe('CACHE_REUSE=off and shadow', () => {
  it('off makes the calls of today, with the same answers; shadow serves nothing new but counts what it would have', async () => {
    const answers: Json[] = [];
    for (const reuse of ['on', 'off', 'shadow'] as const) {
      const stack = await startStack({ env: { RESPONSE_CACHE: 'false', CACHE_REUSE: reuse } });
      const listedRes = await stack.query<Json>(LIST);
      const event = (listedRes.data!.events.nodes as Json[])[0]!;
      // Records are kept in a callback queued (setImmediate) before the list's answer was: one queued
      // after it runs later, whatever the mode.
      await new Promise((resolve) => setImmediate(resolve));
      stack.clearRequests();
      const before = await metric(stack.gateway, 'record-shadow');
      const res = await stack.query<Json>(EVENT, { id: event.id });
      answers.push(res.data!);
      expect(lookups(stack)).toBe(reuse === 'on' ? 0 : 1);
      expect(await metric(stack.gateway, 'record')).toBe(reuse === 'on' ? 1 : 0);
      expect((await metric(stack.gateway, 'record-shadow')) - before).toBe(reuse === 'shadow' ? 1 : 0);
    }
    // A record kept from a list answers exactly as the read by id does.
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[2]).toEqual(answers[1]);
  });
});

describe('the list shapes hold what the gateway reads', () => {
  it('json_ld, the one field a list item lacks, changes nothing the gateway reads', async () => {
    const stack = await startStack();
    const base = stack.config.calendar.url;
    const page = (await (await fetch(`${base}/events?per_page=20`)).json()) as { events: WireEvent[] };
    const id = page.events.find((e) => !Array.isArray(e.venue) && e.organizer.length > 0)!.id;
    const single = (await (await fetch(`${base}/events/${id}`)).json()) as WireEvent;
    const venue = (await (await fetch(`${base}/venues/${(single.venue as WireVenue).id}`)).json()) as WireVenue;
    expect(single.json_ld).toBeDefined();
    expect(venue.json_ld).toBeDefined();
    const without = <T>(w: T): T =>
      JSON.parse(JSON.stringify(w, (k, v: unknown) => (k === 'json_ld' ? undefined : v))) as T;
    const plain = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;
    expect(plain(normalizeEvent(without(single)))).toEqual(plain(normalizeEvent(single)));
    expect(plain(normalizeVenue(without(venue)))).toEqual(plain(normalizeVenue(venue)));
    // The venue embedded in the event is the standalone one (json_ld aside).
    expect(without(single.venue as WireVenue)).toEqual(without(venue));
    // And the list item is the single read minus json_ld.
    expect(page.events.find((e) => e.id === id)).toEqual(without(single));
  });
});

const redis = await requireRedis();
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

describe.skipIf(!redis)('harvested records in the shared tier', () => {
  it('a record harvested by one replica answers another through Redis, and a write through either drops it on both', async () => {
    const [governance, calendar] = await Promise.all([startGovernanceEmulator(), startCalendarEmulator()]);
    closers.push(() => Promise.all([governance.close(), calendar.close()]));
    const prefix = uniquePrefix();
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      ...emulatorEnv(governance, calendar),
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      RESPONSE_CACHE: 'false',
    };
    const replica = async () => {
      const gateway = createGateway({ config: loadConfig(env) });
      closers.push(() => gateway.close());
      await until(() => gateway.upstreams.sharedCache?.ready === true);
      return {
        gateway,
        query: async (query: string, variables?: Json) => {
          const res = await gateway.yoga.fetch('http://gateway.test/graphql', {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
            body: JSON.stringify({ query, variables }),
          });
          return (await res.json()) as { data?: Json; errors?: unknown[] };
        },
      };
    };
    const [a, b] = [await replica(), await replica()];
    const admin = new Redis(REDIS_URL);
    closers.push(async () => admin.disconnect());
    const reads = () =>
      calendar.control.requests().requests.filter((r) => /^GET \/events\/\d+$/.test(`${r.method} ${r.path}`));

    const list = await a.query(LIST);
    const id = (list.data!.events.nodes as Json[])[0]!.id as string;
    const key = ResponseCache.key('anonymous', 'GET', `${calendar.apiRoot}/events/${id}`);
    const entry = `${prefix}cache:entry:${createHash('sha256').update(key).digest('base64url')}`;
    await until(async () => (await admin.exists(entry)) === 1, 'the harvested record in Redis');

    calendar.control.clearRequests();
    const fromRedis = await b.query(EVENT, { id });
    expect(fromRedis.data!.event.id).toBe(id);
    expect(reads()).toHaveLength(0);
    expect(await metric(b.gateway, 'record-redis')).toBe(1);
    expect(holds(b.gateway, `/events/${id}`)).toBe(true);

    // A write through B drops the harvested copies in A's memory, B's and Redis.
    const write = await b.query(
      `mutation($id: ID!) { updateEvent(id: $id, input: { title: "Moved by B" }) { title } }`,
      {
        id,
      },
    );
    expect(write.errors).toBeUndefined();
    calendar.control.clearRequests();
    const onA = await a.query(EVENT, { id });
    expect(onA.data!.event.title).toBe('Moved by B');
    expect(reads()).toHaveLength(1);
    const onB = await b.query(EVENT, { id });
    expect(onB.data!.event.title).toBe('Moved by B');
  });
});

/** Governance reads of one entity by id since the last clear. */
function calls0(stack: Stack): number {
  return stack.governance.control
    .requests()
    .requests.filter((r) => /^GET \/entities\/[^/]+$/.test(`${r.method} ${pathOf(r)}`)).length;
}
const pathOf = (r: { path: string }) => r.path.replace(/^\/api\/ai-governance\/v1/, '').replace(/\?.*$/, '');
