/**
 * Calendar writes through the graph over real HTTP against the emulator: every write route, the
 * partial-update case (the real plugin resets what a write leaves out), trash and 410, missing
 * records, reads after writes (cache invalidation), credentials (configured, subscriber, none,
 * forwarded) and that no credential or URL reaches a client.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type GraphQLResponse, type Stack } from './support/stack.js';
import { databaseIdOf, payloadId } from './support/global-ids.js';

type Json = Record<string, any>;
let s: Stack;
const stamp = Date.now().toString(36);

const calls = (stack: Stack) => stack.calendar.control.requests().requests.map((r) => `${r.method} ${r.path}`);
const q = (query: string, variables?: Record<string, unknown>, stack = s): Promise<GraphQLResponse<Json>> =>
  stack.query<Json>(query, variables);

const EVENT_FIELDS = `id title slug status startDate endDate timezone allDay featured sticky showMap showMapLink hideFromListings cost
  venue { id name city } organizers { id name email } categories { id name } tags { id name }`;

beforeAll(async () => {
  s = await startStack({ env: { UPSTREAM_RETRIES: '0' } });
});
beforeEach(() => s.clearRequests());

describe('events', () => {
  it('creates an event with an existing venue and organizers, visible to the next list read', async () => {
    // Warm the cache with a list, so the read after the write proves the invalidation.
    const before = await q(`{ events(filter: { search: "Launch${stamp}" }, first: 5) { totalCount } }`);
    expect(before.data!.events.totalCount).toBe(0);
    const v = await q(
      `mutation($n: String!) { createVenue(input: { name: $n, city: "Lisbon", country: "Portugal" }) { id name city country } }`,
      { n: `Hall ${stamp}` },
    );
    expect(v.data!.createVenue).toMatchObject({ name: `Hall ${stamp}`, city: 'Lisbon', country: 'Portugal' });
    const o = await q(
      `mutation($n: String!) { createOrganizer(input: { name: $n, email: "hello@example.org" }) { id name email } }`,
      { n: `Org ${stamp}` },
    );
    expect(o.data!.createOrganizer.email).toBe('hello@example.org');
    const res = await q(
      `mutation($v: ID!, $o: ID!, $t: String!) { createEvent(createMissingTerms: true, input: { title: $t, startDate: "2027-03-01 18:00:00", endDate: "2027-03-01 21:00:00",
        timezone: "Europe/Berlin", venueId: $v, organizerIds: [$o], featured: true, categories: ["music"], tags: ["Brand new ${stamp}"], cost: "$10" }) { ${EVENT_FIELDS} } }`,
      { v: v.data!.createVenue.id, o: o.data!.createOrganizer.id, t: `Launch${stamp} & Friends` },
    );
    expect(res.errors).toBeUndefined();
    const ev = res.data!.createEvent;
    expect(ev).toMatchObject({
      title: `Launch${stamp} & Friends`,
      startDate: '2027-03-01T18:00:00+01:00',
      endDate: '2027-03-01T21:00:00+01:00',
      timezone: 'Europe/Berlin',
      featured: true,
      status: 'publish',
      venue: { id: v.data!.createVenue.id, name: `Hall ${stamp}` },
      organizers: [{ id: o.data!.createOrganizer.id }],
    });
    expect(ev.categories.map((c: Json) => c.name)).toEqual(['Music']);
    expect(ev.tags.map((t: Json) => t.name)).toEqual([`Brand new ${stamp}`]);
    // The terms are checked before the write (one page each); the written event's venue, organizers
    // and terms come from its own payload: no read after the writes.
    const made = calls(s);
    expect(made.slice(0, 3)).toEqual(['GET /events', 'POST /venues', 'POST /organizers']);
    expect(made.slice(3, 5).sort()).toEqual(['GET /categories', 'GET /tags']);
    expect(made.slice(5)).toEqual(['POST /events']);

    const after = await q(`{ events(filter: { search: "Launch${stamp}" }, first: 5) { totalCount nodes { id } } }`);
    expect(after.data!.events.nodes.map((e: Json) => e.id)).toEqual([ev.id]);
  });

  it('creates the venue and organizers inline, and takes ISO 8601 dates with an offset', async () => {
    const res =
      await q(`mutation { createEvent(input: { title: "Inline ${stamp}", startDate: "2027-06-01T16:00:00Z", endDate: "2027-06-01T18:30:00+00:00",
      timezone: "America/New_York", venue: { name: "Pop-up ${stamp}", city: "Brooklyn" },
      organizers: [{ name: "Crew ${stamp}", email: "crew@example.org" }] }) { ${EVENT_FIELDS} } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data!.createEvent).toMatchObject({
      startDate: '2027-06-01T12:00:00-04:00',
      endDate: '2027-06-01T14:30:00-04:00',
      venue: { name: `Pop-up ${stamp}`, city: 'Brooklyn' },
      organizers: [{ name: `Crew ${stamp}`, email: 'crew@example.org' }],
    });
    const venue = await q(`query($id: ID!) { venue(id: $id) { name } }`, { id: res.data!.createEvent.venue.id });
    expect(venue.data!.venue.name).toBe(`Pop-up ${stamp}`);
  });

  it('updates only the fields given: the rest survives although the plugin resets what a write leaves out', async () => {
    const created =
      await q(`mutation { createEvent(createMissingTerms: true, input: { title: "Partial ${stamp}", startDate: "2027-04-01 10:00:00", endDate: "2027-04-01 12:00:00",
      timezone: "Europe/Lisbon", allDay: true, featured: true, sticky: true, showMap: true, showMapLink: true, hideFromListings: true, status: "draft",
      venueId: "10", organizerIds: ["25", "26"], categories: ["jazz"], tags: ["Kept ${stamp}"], cost: "$12" }) { ${EVENT_FIELDS} } }`);
    expect(created.errors).toBeUndefined();
    const ev = created.data!.createEvent;
    expect(ev).toMatchObject({
      allDay: true,
      featured: true,
      sticky: true,
      showMap: true,
      showMapLink: true,
      hideFromListings: true,
      status: 'draft',
    });
    expect(ev.tags).toHaveLength(1);

    const res = await q(
      `mutation($id: ID!) { updateEvent(id: $id, input: { title: "Partial ${stamp} (moved)" }) { ${EVENT_FIELDS} } }`,
      { id: ev.id },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.updateEvent).toEqual({
      ...ev,
      title: `Partial ${stamp} (moved)`,
      slug: res.data!.updateEvent.slug,
    });
    // Read the current event, then send the whole record.
    expect(calls(s).slice(-2)).toEqual([`GET /events/${databaseIdOf(ev.id)}`, `POST /events/${databaseIdOf(ev.id)}`]);

    // The quirk the read-modify-write works around: a bare partial write resets the flags.
    const basic = Buffer.from(`${s.calendar.users.editor.username}:${s.calendar.users.editor.appPassword}`).toString(
      'base64',
    );
    const raw = await fetch(`${s.calendar.apiRoot}/events/${databaseIdOf(ev.id)}`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Raw partial' }),
    });
    const rawBody = (await raw.json()) as Json;
    expect(rawBody.featured).toBe(false);
    expect(rawBody.status).toBe('publish');
  });

  it('updates and deletes a password-protected event with its password; without it the read before the write is FORBIDDEN', async () => {
    const slug = 'members-preview-evening';
    const locked = await q(`mutation($slug: String!) { updateEvent(slug: $slug, input: { cost: "$5" }) { id } }`, {
      slug,
    });
    expect(locked.errors![0]!.extensions).toMatchObject({
      code: 'FORBIDDEN',
      upstreamCode: 'event-password-protected',
    });
    expect(calls(s)).toEqual([`GET /events/by-slug/${slug}`]);
    s.clearRequests();

    const before = (
      await q(`query($slug: String!) { event(slug: $slug, password: "letmein") { ${EVENT_FIELDS} } }`, { slug })
    ).data!.event;
    const res = await q(
      `mutation($slug: String!) { updateEvent(slug: $slug, password: "letmein", input: { cost: "$5" }) { ${EVENT_FIELDS} } }`,
      { slug },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.updateEvent).toEqual({ ...before, cost: '$5' });
    const sent = s.calendar.control
      .requests()
      .requests.filter((r) => r.method === 'GET' && r.path === `/events/by-slug/${slug}`);
    expect(sent.map((r) => new URLSearchParams(r.query).get('password'))).toEqual(['letmein', 'letmein']);

    s.clearRequests();
    const del = await q(`mutation($id: ID!) { deleteEvent(id: $id, password: "letmein") { id status } }`, {
      id: before.id,
    });
    expect(del.data!.deleteEvent).toEqual({ id: payloadId('DeleteEventPayload', before.id), status: 'trash' });
    const [deleted] = s.calendar.control.requests().requests;
    expect([deleted!.method, deleted!.path, new URLSearchParams(deleted!.query).get('password')]).toEqual([
      'DELETE',
      `/events/${databaseIdOf(before.id)}`,
      'letmein',
    ]);
  });

  it('updates by slug, moves dates with an offset into the event time zone, and unlinks the venue with null', async () => {
    const created =
      await q(`mutation { createEvent(input: { title: "Slugged ${stamp}", startDate: "2027-05-01 10:00:00", endDate: "2027-05-01 12:00:00",
      timezone: "Europe/Berlin", venueId: "10" }) { id slug } }`);
    const { id, slug } = created.data!.createEvent;
    const res = await q(
      `mutation($slug: String!) { updateEvent(slug: $slug, input: { startDate: "2027-05-01T07:00:00Z", endDate: "2027-05-01T09:00:00Z", venueId: null }) { id startDate endDate venue { id } } }`,
      { slug },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.updateEvent).toEqual({
      id,
      startDate: '2027-05-01T09:00:00+02:00',
      endDate: '2027-05-01T11:00:00+02:00',
      venue: null,
    });
  });

  it('on update, new organizers join the current ones unless organizerIds is given, and a null venueId gives way to a new venue', async () => {
    const created =
      await q(`mutation { createEvent(input: { title: "Joined ${stamp}", startDate: "2027-08-01 10:00:00", endDate: "2027-08-01 12:00:00",
      venueId: "10", organizerIds: ["25"] }) { id } }`);
    const id = created.data!.createEvent.id;
    const added = await q(
      `mutation($id: ID!) { updateEvent(id: $id, input: { organizers: [{ name: "Guest ${stamp}" }], venueId: null, venue: { name: "Tent ${stamp}" } }) {
      venue { name } organizers { id name } } }`,
      { id },
    );
    expect(added.errors).toBeUndefined();
    expect(added.data!.updateEvent.venue).toEqual({ name: `Tent ${stamp}` });
    expect(added.data!.updateEvent.organizers.map((o: Json) => databaseIdOf(o.id) === '25' || o.name)).toEqual([
      true,
      `Guest ${stamp}`,
    ]);
    const replaced = await q(
      `mutation($id: ID!) { updateEvent(id: $id, input: { organizerIds: [], organizers: [{ name: "Solo ${stamp}" }] }) { organizers { name } } }`,
      { id },
    );
    expect(replaced.data!.updateEvent.organizers).toEqual([{ name: `Solo ${stamp}` }]);
  });

  it('a later field of one mutation sees an earlier write in the lists it reads again', async () => {
    const venues = await q(`{ venues(first: 50) { nodes { id events(first: 50) { totalCount nodes { id } } } } }`);
    const venue = (venues.data!.venues.nodes as Json[]).find(
      (v) => v.events.totalCount > 0 && v.events.totalCount <= 50,
    )!;
    const id = venue.events.nodes[0].id as string;
    const list = `venue { events(first: 50) { nodes { id title } } }`;
    const res = await q(
      `mutation($id: ID!) {
        a: updateEvent(id: $id, input: { title: "First ${stamp}" }) { ${list} }
        b: updateEvent(id: $id, input: { title: "Second ${stamp}" }) { ${list} } }`,
      { id },
    );
    expect(res.errors).toBeUndefined();
    const titleIn = (field: 'a' | 'b') =>
      (res.data![field].venue.events.nodes as Json[]).find((n) => n.id === id)?.title;
    expect(titleIn('a')).toBe(`First ${stamp}`);
    // The same list with the same arguments, read after the second write: not the first one's copy.
    expect(titleIn('b')).toBe(`Second ${stamp}`);
  });

  it('reads dates with different offsets and no time zone in the zone of the first', async () => {
    const res =
      await q(`mutation { createEvent(input: { title: "Offsets ${stamp}", startDate: "2027-09-01T10:00:00+01:00", endDate: "2027-09-01T12:00:00+02:00" }) {
      timezone startDate endDate } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data!.createEvent).toEqual({
      timezone: 'UTC+1',
      startDate: '2027-09-01T10:00:00+01:00',
      endDate: '2027-09-01T11:00:00+01:00',
    });
  });

  it('deletes into the trash, then GONE; missing events are NOT_FOUND', async () => {
    const created = await q(
      `mutation { createEvent(input: { title: "Doomed ${stamp}", startDate: "2027-07-01 10:00:00", endDate: "2027-07-01 11:00:00" }) { id } }`,
    );
    const id = created.data!.createEvent.id;
    const del = await q(
      `mutation($id: ID!) { deleteEvent(id: $id) { deletedId node { title postStatus } id status } }`,
      { id },
    );
    expect(del.data!.deleteEvent).toEqual({
      deletedId: id,
      node: { title: `Doomed ${stamp}`, postStatus: 'TRASH' },
      id: payloadId('DeleteEventPayload', id),
      status: 'trash',
    });
    const again = await q(`mutation($id: ID!) { deleteEvent(id: $id) { id } }`, { id });
    expect(again.data!.deleteEvent).toBeNull();
    expect(again.errors![0]!.extensions).toMatchObject({
      code: 'GONE',
      upstreamStatus: 410,
      upstreamCode: 'event-is-in-trash',
    });
    // A lookup of a trashed event is null with GONE, as a mutation on it.
    const read = await q(`query($id: ID!) { event(id: $id) { id } }`, { id });
    expect(read).toMatchObject({ data: { event: null } });
    expect(read.errors![0]!.extensions).toMatchObject({ code: 'GONE' });
    const update = await q(`mutation($id: ID!) { updateEvent(id: $id, input: { title: "x" }) { id } }`, { id });
    expect(update.errors![0]!.extensions).toMatchObject({ code: 'GONE' });

    for (const doc of [
      `mutation { deleteEvent(id: "987654321") { id } }`,
      `mutation { updateEvent(id: "987654321", input: { title: "x" }) { id } }`,
      `mutation { deleteEvent(slug: "no-such-event") { id } }`,
    ]) {
      const res = await q(doc);
      expect(res.errors?.[0]?.extensions, doc).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('refuses bad input before any call, and maps upstream validation to BAD_USER_INPUT with parameter names', async () => {
    const local =
      await q(`mutation { a: createEvent(input: { title: "x", startDate: "2027-01-01 10:00:00", startDay: "2027-01-01", endDate: "2027-01-01 10:00:00" }) { id }
      b: updateEvent(input: { title: "x" }) { id } c: createEvent(input: { title: "x", startDay: "2027-01-01", endDay: "2027-01-01", venueId: "ten" }) { id }
      d: createEvent(input: { title: "x", startDay: "2027-01-01", endDay: "2027-01-01", venueId: "10", venue: { name: "Also" } }) { id } }`);
    expect(local.data).toEqual({ a: null, b: null, c: null, d: null });
    // Mutations run in order, so the errors do too.
    expect(local.errors!.map((e) => e.extensions)).toEqual([
      { code: 'BAD_USER_INPUT', argument: 'input.startDay' },
      { code: 'BAD_USER_INPUT', argument: 'id' },
      { code: 'BAD_USER_INPUT', argument: 'input.venueId' },
      { code: 'BAD_USER_INPUT', argument: 'input.venue' },
    ]);
    expect(calls(s)).toEqual([]);

    // Time zones and URLs are checked by the gateway now: refused before any call.
    const zone = await q(
      `mutation { createEvent(input: { title: "x", startDate: "2027-01-01 10:00:00", endDate: "2027-01-01 11:00:00", timezone: "Mars/Olympus" }) { id } }`,
    );
    expect(zone.errors![0]!.extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'input.timezone' });
    const site = await q(
      `mutation { createEvent(input: { title: "x", startDate: "2027-01-01 10:00:00", endDate: "2027-01-01 11:00:00", website: "not a url" }) { id } }`,
    );
    expect(site.errors![0]!.extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'input.website' });
    expect(calls(s)).toEqual([]);
    const linked = await q(
      `mutation { createEvent(input: { title: "x", startDate: "2027-01-01 10:00:00", endDate: "2027-01-01 11:00:00", venueId: "987654" }) { id } }`,
    );
    expect(linked.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['venueId'] });
    const missing = await q(`mutation { createVenue(input: { name: "" }) { id } }`);
    expect(missing.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  });
});

describe('venues, organizers, categories and tags', () => {
  it('updates and deletes venues and organizers by id and slug; a second delete is GONE', async () => {
    const v = await q(
      `mutation { createVenue(input: { name: "Shed ${stamp}", city: "Porto", showMap: true }) { id slug } }`,
    );
    const { id, slug } = v.data!.createVenue;
    // Cached before the write; the write must drop it.
    expect((await q(`query($id: ID!) { venue(id: $id) { city } }`, { id })).data!.venue.city).toBe('Porto');
    const upd = await q(
      `mutation($slug: String!) { updateVenue(slug: $slug, input: { city: "Braga", zip: "4700" }) { id name city zip } }`,
      { slug },
    );
    expect(upd.data!.updateVenue).toEqual({ id, name: `Shed ${stamp}`, city: 'Braga', zip: '4700' });
    const read = await q(`query($id: ID!) { venue(id: $id) { city } }`, { id });
    expect(read.data!.venue.city).toBe('Braga');
    const del = await q(`mutation($id: ID!) { deleteVenue(id: $id) { id status } }`, { id });
    expect(del.data!.deleteVenue).toEqual({ id: payloadId('DeleteVenuePayload', id), status: 'trash' });
    const again = await q(`mutation($id: ID!) { deleteVenue(id: $id) { id } }`, { id });
    expect(again.errors![0]!.extensions).toMatchObject({ code: 'GONE', upstreamCode: 'venue-is-in-trash' });
    const none = await q(`mutation { updateVenue(id: "987654", input: { city: "x" }) { id } }`);
    expect(none.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND' });

    const o = await q(`mutation { createOrganizer(input: { name: "Team ${stamp}", phone: "+1 555" }) { id slug } }`);
    const org = o.data!.createOrganizer;
    const updO = await q(
      `mutation($id: ID!) { updateOrganizer(id: $id, input: { website: "https://team.example.org" }) { name phone website } }`,
      { id: org.id },
    );
    expect(updO.data!.updateOrganizer).toEqual({
      name: `Team ${stamp}`,
      phone: '+1 555',
      website: 'https://team.example.org',
    });
    const delO = await q(`mutation($slug: String!) { deleteOrganizer(slug: $slug) { id status } }`, { slug: org.slug });
    expect(delO.data!.deleteOrganizer).toEqual({ id: payloadId('DeleteOrganizerPayload', org.id), status: 'trash' });
    const againO = await q(`mutation($id: ID!) { deleteOrganizer(id: $id) { id } }`, { id: org.id });
    expect(againO.errors![0]!.extensions).toMatchObject({ code: 'GONE' });
  });

  it('creates, updates and deletes categories (with a parent) and tags; lists show the changes', async () => {
    const parent = await q(`mutation { createCategory(input: { name: "Parent ${stamp}" }) { id slug } }`);
    const child = await q(
      `mutation($p: ID!) { createCategory(input: { name: "Child ${stamp}", description: "Small", parentId: $p }) { id name slug description parent { id } } }`,
      {
        p: parent.data!.createCategory.id,
      },
    );
    expect(child.data!.createCategory).toMatchObject({
      name: `Child ${stamp}`,
      description: 'Small',
      parent: { id: parent.data!.createCategory.id },
    });
    const id = child.data!.createCategory.id;
    const upd = await q(
      `mutation($id: ID!) { updateCategory(id: $id, input: { name: "Renamed ${stamp}" }) { name parent { id } } }`,
      { id },
    );
    expect(upd.data!.updateCategory).toEqual({
      name: `Renamed ${stamp}`,
      parent: { id: parent.data!.createCategory.id },
    });
    const kids = await q(`query($id: ID!) { category(id: $id) { children(first: 5) { nodes { name } } } }`, {
      id: parent.data!.createCategory.id,
    });
    expect(kids.data!.category.children.nodes).toEqual([{ name: `Renamed ${stamp}` }]);
    const del = await q(`mutation($id: ID!) { deleteCategory(id: $id) { deletedId node { id name } } }`, { id });
    expect(del.data!.deleteCategory).toEqual({ deletedId: id, node: { id, name: `Renamed ${stamp}` } });
    const gone = await q(`query($id: ID!) { category(id: $id) { id } }`, { id });
    expect(gone.data!.category).toBeNull();
    const again = await q(`mutation($id: ID!) { deleteCategory(id: $id) { id } }`, { id });
    expect(again.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND' });

    const tag = await q(`mutation { createTag(input: { name: "Tag ${stamp}" }) { id name slug count } }`);
    expect(tag.data!.createTag).toMatchObject({ name: `Tag ${stamp}`, count: 0 });
    const tagId = tag.data!.createTag.id;
    const listed = await q(`{ tags(first: 50, hideEmpty: false, search: "Tag ${stamp}") { nodes { id } } }`);
    expect(listed.data!.tags.nodes).toEqual([{ id: tagId }]);
    const updT = await q(`mutation($id: ID!) { updateTag(id: $id, input: { slug: "t-${stamp}" }) { slug } }`, {
      id: tagId,
    });
    expect(updT.data!.updateTag.slug).toBe(`t-${stamp}`);
    const delT = await q(`mutation($id: ID!) { deleteTag(id: $id) { id } }`, { id: tagId });
    expect(delT.data!.deleteTag.id).toBe(payloadId('DeleteTagPayload', tagId));
    const after = await q(`{ tags(first: 50, hideEmpty: false, search: "Tag ${stamp}") { nodes { id } } }`);
    expect(after.data!.tags.nodes).toEqual([]);
  });
});

describe('upstream failures', () => {
  it('a write the upstream fails is UPSTREAM_UNAVAILABLE, sent once (writes are never retried), and leaks nothing', async () => {
    const retrying = await startStack({ env: { UPSTREAM_RETRIES: '2' } });
    retrying.calendar.control.setFaults([{ kind: 'status', status: 503, method: 'POST', pathPrefix: '/tags' }]);
    const res = await retrying.query<Json>(`mutation { createTag(input: { name: "Flaky ${stamp}" }) { id } }`);
    expect(res.errors![0]).toMatchObject({
      path: ['createTag'],
      extensions: { code: 'UPSTREAM_UNAVAILABLE', upstream: 'calendar' },
    });
    expect(calls(retrying)).toEqual(['POST /tags']);
    expect(JSON.stringify(res)).not.toMatch(/127\.0\.0\.1|wp-json|Basic /);
    // The same stack does retry a read.
    retrying.calendar.control.clearRequests();
    retrying.calendar.control.setFaults([
      { kind: 'status', status: 503, method: 'GET', pathPrefix: '/tags', times: 1 },
    ]);
    const read = await retrying.query<Json>(`{ tags(first: 1) { totalCount } }`);
    expect(read.errors).toBeUndefined();
    expect(calls(retrying)).toEqual(['GET /tags', 'GET /tags']);
  });
});

describe('credentials', () => {
  const write = `mutation { createTag(input: { name: "Nope ${stamp}" }) { id } }`;

  it('a subscriber is FORBIDDEN, and nothing of the credentials or URLs is shown', async () => {
    const sub = await startStack({
      env: { CALENDAR_USER: 'subscriber', CALENDAR_APP_PASSWORD: 'Zz99 Yy88 Xx77 Ww66 Vv55 Uu44' },
    });
    const res = await sub.query<Json>(write);
    expect(res.errors![0]!.extensions).toMatchObject({ code: 'FORBIDDEN', upstreamStatus: 403 });
    const text = JSON.stringify(res);
    for (const secret of ['Zz99', 'Basic', sub.calendar.origin, 'wp-json']) expect(text).not.toContain(secret);
    // Reads stay anonymous and public.
    const read = await sub.query<Json>(`{ events(first: 1) { totalCount } }`);
    expect(read.data!.events.totalCount).toBeGreaterThan(0);
  });

  it('without configured credentials writes are UNAUTHENTICATED', async () => {
    const anon = await startStack({
      configure: (c) => ({ ...c, calendar: { ...c.calendar, user: undefined, appPassword: undefined } }),
    });
    const res = await anon.query<Json>(write);
    expect(res.errors![0]!.extensions).toMatchObject({ code: 'UNAUTHENTICATED', upstreamStatus: 401 });
    expect(anon.calendar.control.requests().requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /tags 401',
    ]);
  });

  it('in forward mode the caller’s own Authorization is used, for reads too', async () => {
    const fwd = await startStack({ env: { CALENDAR_AUTH_MODE: 'forward' } });
    const { username, appPassword } = fwd.calendar.users.editor;
    const editor = { authorization: `Basic ${Buffer.from(`${username}:${appPassword}`).toString('base64')}` };
    const ok = await fwd.query<Json>(
      `mutation { createTag(input: { name: "Fwd ${stamp}" }) { name } }`,
      undefined,
      editor,
    );
    expect(ok.data!.createTag.name).toBe(`Fwd ${stamp}`);
    const none = await fwd.query<Json>(write);
    expect(none.errors![0]!.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
    // An editor's read sees drafts, which anonymous reads may not ask for.
    const drafts = await fwd.query<Json>(
      `{ events(filter: { status: ["draft"] }, first: 5) { totalCount } }`,
      undefined,
      editor,
    );
    expect(drafts.data!.events.totalCount).toBeGreaterThan(0);
    const bad = await fwd.query<Json>(`{ events(first: 1) { totalCount } }`, undefined, {
      authorization: 'Basic bm9ib2R5Ondyb25n',
    });
    expect(bad.errors![0]!.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
