/**
 * The graph's public contract, end to end: each operation of test/operations is sent over HTTP to a
 * gateway listening on a real port (emulators behind it, as `npm start` runs) and its answer is
 * checked the way a client of the graph would: shapes, ordering, paging, nulls for unknown ids, and
 * writes that later reads see. One stack, the checks in order (later ones use what earlier ones saw).
 * Every answer's `extensions.cost` is checked too: its `actual` calls are what the emulators saw and
 * its `estimated` is never below them (a cold record cache each time; the first read fetches the token).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operation } from './support/operations.js';
import { countRequests, startStack, type Stack } from './support/stack.js';

type Json = Record<string, any>;
let stack: Stack;
let url: string;
const stamp = `c${process.pid.toString(36)}`;

/**
 * Sends one named operation as a client would and returns its data; any error fails the check. The
 * record cache is emptied first, so that its cost is that of a cold run (the first one also reads
 * the token), and checked against the emulators' own logs.
 */
async function send(name: string, variables: Record<string, unknown> = {}): Promise<Json> {
  stack.gateway.upstreams.cache.clear();
  stack.clearRequests();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query: operation(name), variables, operationName: name }),
  });
  const body = (await res.json()) as { data?: Json; errors?: { message: string }[]; extensions?: Json };
  expect(body.errors?.map((e) => e.message) ?? [], `${name} answered with errors`).toEqual([]);
  expect(res.status).toBe(200);
  checkCost(name, body.extensions?.cost ?? {});
  return body.data!;
}

/** `extensions.cost` says the calls each emulator saw, its estimate is never below them, and it lists only upstreams used. */
function checkCost(name: string, cost: Json): void {
  for (const upstream of ['governance', 'calendar'] as const) {
    const seen = countRequests(stack[upstream]);
    expect(cost[upstream]?.actual ?? 0, `${name}: ${upstream} calls`).toBe(seen);
    expect(cost[upstream]?.estimated ?? 0, `${name}: ${upstream} estimate`).toBeGreaterThanOrEqual(seen);
    if (cost[upstream]) expect(cost[upstream].estimated + seen + cost[upstream].cacheHits).toBeGreaterThan(0);
  }
}

beforeAll(async () => {
  stack = await startStack();
  url = await stack.listen();
});
afterAll(() => stack.close());

describe('governance', () => {
  const seen: Json = {};

  it('EntityTypes lists the four AI kinds; EntityTypeById finds one of them', async () => {
    const types = (await send('EntityTypes')).entityTypes.nodes as Json[];
    expect(types.map((t) => t.name)).toEqual(expect.arrayContaining(['models', 'datasets', 'aisystems', 'aiagents']));
    const first = types[0]!;
    expect((await send('EntityTypeById', { id: first.id })).entityType).toMatchObject({
      id: first.id,
      name: first.name,
    });
  });

  it('EntitiesOfKind: 60 models over two upstream pages, Z to A, each a MODEL', async () => {
    const list = (await send('EntitiesOfKind', { first: 60 })).entities;
    expect(list.totalCount).toBeGreaterThanOrEqual(60);
    expect(list.edges).toHaveLength(60);
    const nodes = list.edges.map((e: Json) => e.node) as Json[];
    expect(new Set(nodes.map((n) => n.kind))).toEqual(new Set(['MODEL']));
    const names = nodes.map((n) => String(n.name).toLowerCase());
    names.forEach((n, i) => i > 0 && expect(names[i - 1]!.localeCompare(n, 'en')).toBeGreaterThanOrEqual(0));
    seen.model = nodes[0];
  });

  it('EntitiesOfKind: cursors walk every model exactly once', async () => {
    const ids: string[] = [];
    let after: string | null = null;
    let total = -1;
    for (let page = 0; page < 100; page++) {
      const list: Json = (await send('EntitiesOfKind', { first: 17, after })).entities;
      total = list.totalCount;
      ids.push(...list.edges.map((e: Json) => e.node.id));
      if (!list.pageInfo.hasNextPage) break;
      after = list.pageInfo.endCursor;
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(total);
  });

  it('EntityById: label, kind, type and dates of a model; an unknown id is null', async () => {
    const e = (await send('EntityById', { id: seen.model.id })).entity;
    expect(e).toMatchObject({ id: seen.model.id, kind: 'MODEL', type: { name: 'models' } });
    expect(e.displayLabel).toContain(String(e.number));
    expect(e.displayLabel).toContain(e.name);
    expect(Number.isNaN(Date.parse(e.createdAt))).toBe(false);
    seen.organizationId = e.organizationId;
    expect((await send('EntityById', { id: '00000000-0000-4000-8000-000000000000' })).entity).toBeNull();
  });

  it('EntityDetails and EntityTypeList, the examples of src/operations', async () => {
    const e = (await send('EntityDetails', { id: seen.model.id })).entity;
    expect(e).toMatchObject({ id: seen.model.id, kind: 'MODEL', type: { name: 'models', id: expect.any(String) } });
    expect((await send('EntityTypeList')).entityTypes.nodes.length).toBeGreaterThan(0);
  });

  it('EntityGraph: every link of an AI system names the other end, and an AI counterpart resolves to its entity', async () => {
    const systems = (await send('EntityGraph', { first: 10 })).entities.nodes as Json[];
    let links = 0;
    for (const system of systems) {
      for (const link of system.links.nodes as Json[]) {
        links += 1;
        const other = link.source.id === system.id ? link.target : link.source;
        expect(link.counterpart.id).toBe(other.id);
        expect(link.counterpart.id).not.toBe(system.id);
        if (link.counterpart.kind) expect(link.counterpart.entity?.id).toBe(link.counterpart.id);
        else expect(link.counterpart.entity).toBeNull();
        seen.link ??= { id: link.id, linkTypeId: link.relationshipType.id };
        if (!seen.modelLink && link.counterpart.kind === 'MODEL') {
          seen.modelLink = {
            system: system.id,
            systemIsSource: link.source.id === system.id,
            linkTypeId: link.relationshipType.id,
          };
          seen.linked = new Set((system.links.nodes as Json[]).map((l) => l.counterpart.id));
        }
      }
    }
    expect(links).toBeGreaterThan(0);
  });

  it('LinkById returns the link with both ends', async () => {
    const link = (await send('LinkById', seen.link)).link;
    expect(link.id).toBe(seen.link.id);
    expect(link.entity1.id).toBeTruthy();
    expect(link.entity2.id).toBeTruthy();
  });

  it('EntitySearch finds a model by a word of its name; EntitySummaries label what they find', async () => {
    const word = String(seen.model.name).split(/\s+/)[0]!;
    const found = (await send('EntitySearch', { text: word })).entities.nodes as Json[];
    expect(found.map((n) => n.id)).toContain(seen.model.id);
    const summaries = (await send('EntitySummaries', { text: word })).entitySummaries.nodes as Json[];
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries[0]!.displayLabel).toContain(summaries[0]!.name);
  });

  it('CreateDataset, RenameEntity and DeleteEntity: each later read sees the write', async () => {
    const created = (await send('CreateDataset', { organizationId: seen.organizationId, name: `Contract ${stamp}` }))
      .createEntity;
    expect(created.kind).toBe('DATASET');
    expect(created.attributes.map((a: Json) => a.name)).toContain('description');
    const renamed = (await send('RenameEntity', { id: created.id, name: `Renamed ${stamp}` })).updateEntity;
    expect(renamed.name).toBe(`Renamed ${stamp}`);
    expect((await send('EntityById', { id: created.id })).entity.name).toBe(`Renamed ${stamp}`);
    expect((await send('DeleteEntity', { id: created.id })).deleteEntity.deletedId).toBe(created.id);
    expect((await send('EntityById', { id: created.id })).entity).toBeNull();
  });

  it('MoveToStage moves a model, and the model shows its new stage', async () => {
    expect((await send('MoveToStage', { entityId: seen.model.id, stage: 'Development' })).moveEntityToStage.name).toBe(
      'Development',
    );
    expect((await send('EntityById', { id: seen.model.id })).entity.workflowStage?.name).toBe('Development');
  });

  it('LinkEntities and UnlinkEntities: an AI system to a model it was not linked to', async () => {
    const m = seen.modelLink;
    expect(m).toBeDefined();
    const models = (await send('EntitiesOfKind', { first: 50 })).entities.edges.map((e: Json) => e.node) as Json[];
    const model = models.find((n) => !seen.linked.has(n.id));
    expect(model).toBeDefined();
    const [from, to] = m.systemIsSource ? [m.system, model!.id] : [model!.id, m.system];
    const link = (await send('LinkEntities', { linkTypeId: m.linkTypeId, from, to })).createLink;
    expect(link).toMatchObject({ entity1: { id: from }, entity2: { id: to } });
    expect((await send('UnlinkEntities', { id: link.id, linkTypeId: m.linkTypeId })).deleteLink.deletedId).toBe(
      link.id,
    );
  });

  it('AddSchemaAttribute and AddAttributeOptions: the options add up', async () => {
    const attribute = (await send('AddSchemaAttribute', { name: `Residency ${stamp}` })).addSchemaAttribute;
    expect(attribute.responseType).toBe('SINGLE_SELECT');
    expect(attribute.options).toHaveLength(2);
    const options = (await send('AddAttributeOptions', { attributeId: attribute.id })).addAttributeOptions
      .options as Json[];
    expect(options.map((o) => o.option)).toEqual(expect.arrayContaining(['EU', 'US', 'Synthetic']));
  });
});

describe('calendar', () => {
  const seen: Json = {};

  it('UpcomingEvents: 60 events over two upstream pages, in start order', async () => {
    const events = (await send('UpcomingEvents', { first: 60 })).events;
    expect(events.totalCount).toBeGreaterThanOrEqual(60);
    expect(events.nodes).toHaveLength(60);
    const starts = (events.nodes as Json[]).map((e) => Date.parse(e.startDate));
    starts.forEach((t, i) => {
      expect(Number.isNaN(t)).toBe(false);
      if (i > 0) expect(t).toBeGreaterThanOrEqual(starts[i - 1]!);
    });
    seen.event = events.nodes[0];
  });

  it('EventGraph: events with venues and organizers in one query', async () => {
    const events = (await send('EventGraph', { first: 20 })).events.nodes as Json[];
    expect(events.some((e) => e.venue)).toBe(true);
    expect(events.some((e) => e.organizers.length > 0)).toBe(true);
  });

  it('EventById and EventBySlug find the same event, its title decoded; an unknown id is null', async () => {
    const event = (await send('EventById', { id: seen.event.id })).event;
    expect(event.id).toBe(seen.event.id);
    expect(event.title).not.toMatch(/&#\d+;|&amp;/);
    expect((await send('EventBySlug', { slug: seen.event.slug })).event?.id).toBe(seen.event.id);
    expect((await send('EventById', { id: '987654321' })).event).toBeNull();
  });

  it('EventDetails, the example of src/operations', async () => {
    const event = (await send('EventDetails', { id: seen.event.id })).event;
    expect(event).toMatchObject({ id: seen.event.id, title: seen.event.title, version: expect.any(String) });
  });

  it('FilteredEvents: featured: true lets only featured events through', async () => {
    const word = String(seen.event.title).split(/\s+/)[0]!;
    const events = (await send('FilteredEvents', { text: word })).events.nodes as Json[];
    expect(events.filter((e) => e.featured !== true)).toEqual([]);
  });

  it('Venues and VenueBySlug; Organizers and OrganizerById', async () => {
    const venue = ((await send('Venues', { text: 'a' })).venues.nodes as Json[])[0];
    expect(venue).toBeDefined();
    expect((await send('VenueBySlug', { slug: venue!.slug })).venue?.id).toBe(venue!.id);
    const organizer = ((await send('Organizers')).organizers.nodes as Json[])[0];
    expect(organizer).toBeDefined();
    expect((await send('OrganizerById', { id: organizer!.id })).organizer?.id).toBe(organizer!.id);
  });

  it('Categories (one with a parent) and Tags', async () => {
    const categories = (await send('Categories')).categories.nodes as Json[];
    expect(categories.some((c) => c.parent)).toBe(true);
    const tags = (await send('Tags')).tags.nodes as Json[];
    expect(tags.length).toBeGreaterThan(0);
    // Named by slug: both taxonomies' terms are read before the write, and the estimate counts them.
    const filed = (
      await send('CreateEventWithTerms', {
        title: `Filed ${stamp}`,
        categories: [categories[0]!.slug],
        tags: [tags[0]!.slug],
      })
    ).createEvent;
    expect(filed.categories.map((c: Json) => c.slug)).toEqual([categories[0]!.slug]);
    expect(filed.tags.map((t: Json) => t.slug)).toEqual([tags[0]!.slug]);
  });

  it('CreateVenue, CreateEvent, UpdateEvent (the other fields kept) and DeleteEvent (to the trash)', async () => {
    const venue = (await send('CreateVenue', { name: `Hall ${stamp}` })).createVenue;
    const event = (await send('CreateEvent', { title: `Launch ${stamp}`, venueId: venue.id })).createEvent;
    expect(event).toMatchObject({ venue: { id: venue.id }, featured: true });
    const updated = (await send('UpdateEvent', { id: event.id, title: `Launch ${stamp}, moved` })).updateEvent;
    expect(updated).toMatchObject({ title: `Launch ${stamp}, moved`, featured: true });
    expect((await send('DeleteEvent', { id: event.id })).deleteEvent.status).toBe('trash');
  });

  it('CreateOrganizer, CreateCategory and CreateTag', async () => {
    expect((await send('CreateOrganizer', { name: `Org ${stamp}` })).createOrganizer.email).toBe('events@example.org');
    expect((await send('CreateCategory', { name: `Cat ${stamp}` })).createCategory.slug).toBeTruthy();
    expect((await send('CreateTag', { name: `Tag ${stamp}` })).createTag.slug).toBeTruthy();
  });
});
