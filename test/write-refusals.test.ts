/**
 * No silent writes, over HTTP against both emulators: a category or tag the site does not have is
 * refused before any write (listing the known slugs) unless the caller asks for it to be created;
 * each upstream refusal the graph can word says what is wrong and names the argument it concerns
 * (`extensions.argument`), on both upstreams; an upstream failure reads the same on both.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { calls } from './support/calendar.js';
import { apiCalls } from './support/governance.js';
import { startStack, type Stack } from './support/stack.js';

type Any = any;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const stamp = Date.now().toString(36);
const WHEN = 'startDate: "2027-09-01 18:00:00", endDate: "2027-09-01 20:00:00"';

let s: Stack;
let organizationId: string;

async function data(query: string, variables?: Record<string, unknown>): Promise<Any> {
  const res = await s.query<Any>(query, variables);
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data;
}

/** The one error of a refused operation: its message and extensions. */
async function refusal(query: string, variables?: Record<string, unknown>) {
  const res = await s.query<Any>(query, variables);
  expect(res.errors).toHaveLength(1);
  return { message: res.errors![0]!.message, extensions: res.errors![0]!.extensions as Any };
}

/** Calendar writes the emulator saw (anything but a read). */
const calendarWrites = () => calls(s).filter((c) => !c.startsWith('GET '));

beforeAll(async () => {
  s = await startStack({ env: { UPSTREAM_RETRIES: '0' } });
  organizationId = (await data('{ entities(kind: AI_SYSTEM, first: 1) { nodes { organizationId } } }')).entities
    .nodes[0].organizationId;
});
beforeEach(() => s.clearRequests());

describe('terms an event write names', () => {
  it('a typo in a category slug is refused with the known slugs, and nothing is written', async () => {
    const known = (await data('{ categories(first: 50, hideEmpty: false) { nodes { slug } } }')).categories.nodes.map(
      (c: Any) => c.slug,
    );
    s.clearRequests();
    const { message, extensions } = await refusal(
      `mutation { createEvent(input: { title: "Typo ${stamp}", ${WHEN}, categories: ["music", "musc"] }) { id } }`,
    );
    expect(extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'input.categories[1]' });
    expect(message).toContain('"musc"');
    for (const slug of known) expect(message).toContain(`"${slug}"`);
    expect(message).toContain('createMissingTerms');
    expect(calendarWrites()).toEqual([]);
    expect(calls(s)).toEqual(['GET /categories']);
    // Nothing was created either: the site still has the same categories.
    const after = (await data('{ categories(first: 50, hideEmpty: false) { nodes { slug } } }')).categories.nodes;
    expect(after.map((c: Any) => c.slug)).toEqual(known);
  });

  it('on update too, before the event is even read; an unknown id is refused even with createMissingTerms', async () => {
    const { id } = (await data(`mutation { createEvent(input: { title: "Tagged ${stamp}", ${WHEN} }) { id } }`))
      .createEvent;
    s.clearRequests();
    const typo = await refusal(`mutation($id: ID!) { updateEvent(id: $id, input: { tags: ["outdor"] }) { id } }`, {
      id,
    });
    expect(typo.extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'input.tags[0]' });
    expect(typo.message).toContain('"outdoor"');
    const byId = await refusal(
      `mutation($id: ID!) { updateEvent(id: $id, createMissingTerms: true, input: { categories: ["987654"] }) { id } }`,
      { id },
    );
    expect(byId.extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'input.categories[0]' });
    expect(byId.message).not.toContain('createMissingTerms');
    expect(calls(s).filter((c) => c.startsWith(`GET /events`) || !c.startsWith('GET '))).toEqual([]);
  });

  it('known terms are matched by id, slug or name and sent as ids; createMissingTerms creates the unknown names', async () => {
    const res = await data(
      `mutation { createEvent(createMissingTerms: true, input: { title: "Terms ${stamp}", ${WHEN},
        categories: ["2", "Jazz"], tags: ["live-music", "Brand new ${stamp}"] }) { categories { slug } tags { slug name } } }`,
    );
    expect(res.createEvent.categories.map((c: Any) => c.slug).sort()).toEqual(['jazz', 'music']);
    expect(res.createEvent.tags).toEqual(
      expect.arrayContaining([
        { slug: 'live-music', name: 'live music' },
        { slug: `brand-new-${stamp}`, name: `Brand new ${stamp}` },
      ]),
    );
    const body = JSON.parse(s.calendar.control.requests().requests.find((r) => r.method === 'POST')!.body!);
    expect(body.categories).toEqual([2, 3]);
    expect(body.tags).toEqual([16, `Brand new ${stamp}`]);
  });
});

describe('calendar refusals name their argument', () => {
  it('a duplicate tag or category name is term_exists, worded and naming input.name', async () => {
    for (const [mutation, name] of [
      ['createTag', 'outdoor'],
      ['createCategory', 'Music'],
    ] as const) {
      const { message, extensions } = await refusal(`mutation { ${mutation}(input: { name: "${name}" }) { id } }`);
      expect(extensions).toMatchObject({ code: 'BAD_USER_INPUT', upstreamCode: 'term_exists', argument: 'input.name' });
      expect(message).toMatch(/^A (tag|category) with this name already exists here/);
    }
  });

  it('no such venue, no such organizer, in a write and in a filter', async () => {
    const venue = await refusal(`mutation { createEvent(input: { title: "x", ${WHEN}, venueId: "987654" }) { id } }`);
    expect(venue.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'input.venueId' });
    expect(venue.message).toBe('"input.venueId" names a venue that does not exist.');
    const organizer = await refusal(
      `mutation { createEvent(input: { title: "x", ${WHEN}, organizerIds: ["987655"] }) { id } }`,
    );
    expect(organizer.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'input.organizerIds' });
    expect(organizer.message).toBe('"input.organizerIds" names an organizer that does not exist.');
    const filter = await refusal('{ events(filter: { venues: ["987654"] }) { totalCount } }');
    expect(filter.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'filter.venues' });
  });

  it('NOT_FOUND names the id or the slug that addressed the record', async () => {
    const cases = [
      ['mutation { updateEvent(id: "987654", input: { title: "x" }) { id } }', 'id', 'There is no event with that id.'],
      [
        'mutation { updateEvent(slug: "no-such-event", input: { title: "x" }) { id } }',
        'slug',
        'There is no event with that slug.',
      ],
      ['mutation { updateVenue(id: "987654", input: { name: "x" }) { id } }', 'id', 'The venue does not exist.'],
      [
        'mutation { deleteOrganizer(slug: "no-such-organizer") { deletedId } }',
        'slug',
        'There is no organizer with that slug.',
      ],
    ] as const;
    for (const [query, argument, message] of cases) {
      const res = await refusal(query);
      expect(res.extensions, query).toMatchObject({ code: 'NOT_FOUND', argument });
      expect(res.message).toBe(message);
    }
  });

  it('a trashed event is GONE, naming the argument', async () => {
    const { id } = (await data(`mutation { createEvent(input: { title: "Binned ${stamp}", ${WHEN} }) { id } }`))
      .createEvent;
    await data('mutation($id: ID!) { deleteEvent(id: $id) { deletedId } }', { id });
    const again = await refusal('mutation($id: ID!) { deleteEvent(id: $id) { deletedId } }', { id });
    expect(again.extensions).toMatchObject({ code: 'GONE', argument: 'id' });
  });
});

describe('governance refusals name their argument', () => {
  /** A seeded model-to-vendor link: its link type, model and vendor. */
  async function sourcedModel(): Promise<{ linkTypeId: string; model: string; vendor: string }> {
    const d = await data(
      '{ entities(kind: MODEL, first: 30) { nodes { id links(first: 5) { nodes { relationshipType { id } counterpart { id typeName } } } } } }',
    );
    for (const m of d.entities.nodes)
      for (const l of m.links.nodes)
        if (l.counterpart.typeName === 'vendors')
          return { linkTypeId: l.relationshipType.id, model: m.id, vendor: l.counterpart.id };
    throw new Error('the seed has no model linked to a vendor');
  }
  const link = (t: string, a: string, b: string, bType = 'vendors') =>
    refusal(
      'mutation($t: ID!, $a: ID!, $b: ID!, $bt: String!) { createLink(input: { linkTypeId: $t, entity1: { id: $a, kind: MODEL }, entity2: { id: $b, typeName: $bt } }) { id } }',
      { t, a, b, bt: bType },
    );

  it('already linked, linked to itself, an unknown end, a link type that does not join the kinds', async () => {
    const { linkTypeId, model, vendor } = await sourcedModel();
    const twice = await link(linkTypeId, model, vendor);
    expect(twice.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      upstream: 'governance',
      argument: 'input.entity2.id',
    });
    expect(twice.message).toBe('The two records are already linked with this link type.');

    const missing = await link(linkTypeId, model, UNKNOWN);
    expect(missing.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'input.entity2.id' });
    expect(missing.message).toBe('"input.entity2.id" names a record that does not exist.');

    const { id: dataset } = (
      await data(
        'mutation($o: ID!, $n: String!) { createEntity(input: { kind: DATASET, name: $n, organizationId: $o }) { id } }',
        {
          o: organizationId,
          n: `Unlinkable ${stamp}`,
        },
      )
    ).createEntity;
    const kinds = await link(linkTypeId, model, dataset, 'datasets');
    expect(kinds.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'input.linkTypeId' });
    expect(kinds.message).toMatch(/does not link records of these two kinds/);

    // A link type that joins AI systems to AI systems, from a seeded link of one.
    const systems = await data(
      '{ entities(kind: AI_SYSTEM, first: 10) { nodes { id links(first: 10) { nodes { relationshipType { id } counterpart { kind } } } } } }',
    );
    const composed = systems.entities.nodes
      .flatMap((n: Any) => n.links.nodes.map((l: Any) => ({ system: n.id, ...l })))
      .find((l: Any) => l.counterpart.kind === 'AI_SYSTEM');
    const self = await refusal(
      'mutation($t: ID!, $a: ID!) { createLink(input: { linkTypeId: $t, entity1: { id: $a, kind: AI_SYSTEM }, entity2: { id: $a, kind: AI_SYSTEM } }) { id } }',
      { t: composed.relationshipType.id, a: composed.system },
    );
    expect(self.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'input.entity2.id' });
    expect(self.message).toBe('A record cannot be linked to itself.');
  });

  it('an unknown organization is BAD_USER_INPUT on input.organizationId, on create and on update', async () => {
    const create = await refusal(
      'mutation($o: ID!) { createEntity(input: { kind: DATASET, name: "Nowhere", organizationId: $o }) { id } }',
      { o: UNKNOWN },
    );
    expect(create.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'input.organizationId' });
    const { id } = (
      await data(
        'mutation($o: ID!, $n: String!) { createEntity(input: { kind: DATASET, name: $n, organizationId: $o }) { id } }',
        {
          o: organizationId,
          n: `Moving ${stamp}`,
        },
      )
    ).createEntity;
    // The record exists: an unknown organization is not the record's NOT_FOUND.
    const update = await refusal(
      'mutation($id: ID!, $o: ID!) { updateEntity(id: $id, input: { organizationId: $o }) { id } }',
      {
        id,
        o: UNKNOWN,
      },
    );
    expect(update.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'input.organizationId' });
    expect(update.message).toBe('"input.organizationId" names an organization that does not exist.');
  });
});

describe('upstream failures', () => {
  it('read the same on both upstreams', async () => {
    const fresh = await startStack({ env: { UPSTREAM_RETRIES: '0', CACHE_TTL_MS: '0' } });
    fresh.governance.control.setFaults([{ kind: 'status', status: 500, pathPrefix: '/entities' }]);
    fresh.calendar.control.setFaults([{ kind: 'status', status: 500, pathPrefix: '/events' }]);
    const res = await fresh.query<Any>(`{ entity(id: "${UNKNOWN}") { id } events(first: 1) { totalCount } }`);
    expect(res.errors).toHaveLength(2);
    const byField = new Map(res.errors!.map((e) => [e.path![0], e]));
    expect(byField.get('entity')!.message).toBe('The governance service failed (HTTP 500); try again later.');
    expect(byField.get('events')!.message).toBe('The calendar service failed (HTTP 500); try again later.');
    for (const e of res.errors!)
      expect(e.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', upstreamStatus: 500 });
    expect(apiCalls(fresh).filter((r) => r.status === 500)).toHaveLength(1);
    await fresh.close();
  });
});
