/**
 * Global Object Identification over HTTP: every record type is a `Node`, `node`/`nodes` read any of
 * them through the lookups' own loaders (the same upstream calls), no two objects of different types
 * share an `id` anywhere in a broad answer, lookups take both the global id and the upstream's own,
 * and a malformed or wrong-type id is BAD_USER_INPUT before any call.
 */
import { parse, print, visit, type SelectionSetNode } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { calls, forgetCalendarCache } from './support/calendar.js';
import { databaseIdOf, globalId, typeOf } from './support/global-ids.js';
import { apiCalls } from './support/governance.js';
import { startStack, type Stack } from './support/stack.js';

type Any = any;

const NODE_TYPES = ['Category', 'Entity', 'EntityType', 'Event', 'GovernanceLink', 'Organizer', 'Tag', 'Venue'];

let stack: Stack;
let url: string;

async function post(query: string, variables: Record<string, unknown> = {}): Promise<Any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables }),
  });
  return res.json();
}

async function data(query: string, variables?: Record<string, unknown>): Promise<Any> {
  const res = await post(query, variables);
  expect(res.errors).toBeUndefined();
  return res.data;
}

/** Every upstream call since the last `fresh()`, both upstreams, in a comparable form. */
const upstreamCalls = () => [...apiCalls(stack).map((c) => `${c.method} ${c.path}`), ...calls(stack)].sort();

/** Forgets what both caches hold and the request logs, so the next operation reads upstream. */
function fresh(): void {
  stack.gateway.upstreams.cache.clear();
  forgetCalendarCache(stack);
  stack.clearRequests();
}

/** One record id of each Node type, read from lists. */
async function oneOfEach(): Promise<Record<string, string>> {
  const d = await data(`{
    entities(kind: AI_SYSTEM, first: 1) { nodes { id links(first: 1) { nodes { id } } } }
    entityTypes(first: 1) { nodes { id } }
    events(first: 1) { nodes { id } }
    venues(first: 1) { nodes { id } }
    organizers(first: 1) { nodes { id } }
    categories(first: 1, hideEmpty: false) { nodes { id } }
    tags(first: 1, hideEmpty: false) { nodes { id } }
  }`);
  return {
    Entity: d.entities.nodes[0].id,
    GovernanceLink: d.entities.nodes[0].links.nodes[0].id,
    EntityType: d.entityTypes.nodes[0].id,
    Event: d.events.nodes[0].id,
    Venue: d.venues.nodes[0].id,
    Organizer: d.organizers.nodes[0].id,
    Category: d.categories.nodes[0].id,
    Tag: d.tags.nodes[0].id,
  };
}

/** The document with `__typename` in every selection set, as normalized caches add it. */
function withTypenames(query: string): string {
  const typename = { kind: 'Field', name: { kind: 'Name', value: '__typename' } } as const;
  return print(
    visit(parse(query), {
      SelectionSet: (set: SelectionSetNode) => ({ ...set, selections: [...set.selections, typename] }),
    }),
  );
}

/** Every object in an answer that has an `id`, as `id → the types seen with it`. */
function typesById(value: unknown, into = new Map<string, Set<string>>()): Map<string, Set<string>> {
  if (Array.isArray(value)) for (const v of value) typesById(v, into);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.id === 'string' && typeof o.__typename === 'string')
      into.set(o.id, (into.get(o.id) ?? new Set()).add(o.__typename));
    for (const v of Object.values(o)) typesById(v, into);
  }
  return into;
}

beforeAll(async () => {
  stack = await startStack();
  url = await stack.listen();
});

describe('Node', () => {
  it('every record type implements Node, and node(id:) answers each kind as its id names it', async () => {
    const schema = await data('{ __type(name: "Node") { possibleTypes { name } } }');
    expect(schema.__type.possibleTypes.map((t: Any) => t.name).sort()).toEqual(NODE_TYPES);

    const ids = await oneOfEach();
    for (const [type, id] of Object.entries(ids)) {
      expect(typeOf(id), type).toBe(type);
      const d = await data('query($id: ID!) { node(id: $id) { __typename id ... on Entity { databaseId } } }', { id });
      expect(d.node, type).toMatchObject({ __typename: type, id });
    }
  });

  it('nodes(ids:) mixes kinds in one call, in order, with the upstream calls of the lookups', async () => {
    const ids = await oneOfEach();
    const link = await data('query($id: ID!) { node(id: $id) { ... on GovernanceLink { linkType { id } } } }', {
      id: ids.GovernanceLink,
    });
    const lookups = `query($e: ID!, $t: ID!, $l: ID!, $lt: ID!, $ev: ID!, $v: ID!, $o: ID!, $c: ID!, $g: ID!) {
      entity(id: $e) { id name } entityType(id: $t) { id name } link(id: $l, linkTypeId: $lt) { id label }
      event(id: $ev) { id title } venue(id: $v) { id name } organizer(id: $o) { id name }
      category(id: $c) { id name } tag(id: $g) { id name } }`;
    const variables = {
      e: ids.Entity,
      t: ids.EntityType,
      l: ids.GovernanceLink,
      lt: link.node.linkType.id,
      ev: ids.Event,
      v: ids.Venue,
      o: ids.Organizer,
      c: ids.Category,
      g: ids.Tag,
    };
    fresh();
    const direct = await post(lookups, variables);
    expect(direct.errors).toBeUndefined();
    const lookupCalls = upstreamCalls();

    const order = Object.values(ids);
    fresh();
    const mixed = await post(
      `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id
        ... on Entity { name } ... on EntityType { name } ... on GovernanceLink { label } ... on Event { title }
        ... on Venue { name } ... on Organizer { name } ... on Category { name } ... on Tag { name } } }`,
      { ids: order },
    );
    expect(mixed.errors).toBeUndefined();
    expect(mixed.data.nodes.map((n: Any) => n.id)).toEqual(order);
    expect(mixed.data.nodes.map((n: Any) => n.__typename)).toEqual(Object.keys(ids));
    expect(upstreamCalls()).toEqual(lookupCalls);
    // Priced like the lookups: the same estimate, on each upstream.
    for (const upstream of ['governance', 'calendar'])
      expect(mixed.extensions.cost[upstream].estimated, upstream).toBe(direct.extensions.cost[upstream].estimated);
    console.log(`nodes(8 kinds): ${lookupCalls.length} upstream calls, as the 8 lookups make`);
  });
});

describe('one id, one object', () => {
  it('no two objects of different types share an id across a broad answer', async () => {
    const broad = withTypenames(`{
      entities(kind: AI_SYSTEM, first: 5) { nodes {
        id type { id } workflowStage { id } createdBy { id } lastModifiedBy { id }
        attributes { values { id } } options { values { id } }
        links(first: 10) { nodes { id relationshipType { id } linkType { id }
          source { id } target { id } counterpart { id entity { id type { id } } options { values { id } } } } } } }
      entitySummaries(first: 10) { nodes { id entity { id } } }
      entityTypes(first: 10) { nodes { id workflow { stages { id } } selectAttributes { name options { id } } } }
      relationshipTypes { id } organizations { id }
      events(first: 20) { nodes { id image { id } venue { id image { id } } organizers { id } categories { id parent { id } } tags { id } } }
      venues(first: 5) { nodes { id } } organizers(first: 5) { nodes { id } }
      categories(first: 20, hideEmpty: false) { nodes { id } } tags(first: 20, hideEmpty: false) { nodes { id } }
    }`);
    const res = await post(broad);
    expect(res.errors).toBeUndefined();
    const seen = typesById(res.data);
    const shared = [...seen].filter(([, types]) => types.size > 1).map(([id, types]) => [id, [...types]]);
    expect(shared).toEqual([]);
    // An entity and the link end that leads to it are one object: the same id, the same type.
    const counterparts = res.data.entities.nodes.flatMap((e: Any) => e.links.nodes.map((l: Any) => l.counterpart));
    for (const c of counterparts.filter((x: Any) => x.entity))
      expect(c).toMatchObject({ __typename: 'Entity', id: c.entity.id });
    // Summaries are objects of their own, beside the entity they summarize.
    for (const s of res.data.entitySummaries.nodes)
      expect(databaseIdOf(s.id, 'EntitySummary')).toBe(databaseIdOf(s.entity.id));
    console.log(
      `broad answer: ${seen.size} ids over ${new Set([...seen.values()].flatMap((t) => [...t])).size} types, none shared`,
    );
  });
});

describe('a link as each end lists it', () => {
  const LINK = `id databaseId label direction forwardLabel relationshipType { id name }
    source { id name } target { id name } counterpart { __typename id name }`;
  const links = `query($id: ID!) { entity(id: $id) { links(first: 50) { nodes { ${LINK} } } } }`;

  it('has one id per end, and node(id:) of each answers every field as that end listed it', async () => {
    const page = await data('{ entities(kind: AI_SYSTEM, first: 20) { nodes { id } } }');
    let pair: [Any, Any] | undefined;
    for (const { id } of page.entities.nodes) {
      const fromA = (await data(links, { id })).entity.links.nodes;
      const link = fromA.find((l: Any) => l.counterpart.__typename === 'Entity');
      if (!link) continue;
      const fromB = (await data(links, { id: link.counterpart.id })).entity.links.nodes;
      pair = [link, fromB.find((l: Any) => l.databaseId === link.databaseId)];
      break;
    }
    expect(pair?.[1], 'a link between two entities, listed by both').toBeDefined();
    const [fromA, fromB] = pair!;
    expect(fromA.id).not.toBe(fromB.id);
    expect(fromA.counterpart.id).not.toBe(fromB.counterpart.id);
    expect(fromA.relationshipType).not.toBeNull();
    for (const listed of [fromA, fromB]) {
      const read = await data(`query($id: ID!) { node(id: $id) { ... on GovernanceLink { ${LINK} } } }`, {
        id: listed.id,
      });
      expect(read.node).toEqual(listed);
    }
  });

  it("node(id:) naming an entity that is not one of the link's ends is null", async () => {
    const ids = await oneOfEach();
    const [linkId, linkTypeId] = databaseIdOf(ids.GovernanceLink!, 'GovernanceLink').split(':');
    const stranger = globalId('GovernanceLink', `${linkId}:${linkTypeId}:00000000-0000-4000-8000-000000000000`);
    expect(await data('query($id: ID!) { node(id: $id) { id } }', { id: stranger })).toEqual({ node: null });
  });
});

describe('both forms of an id', () => {
  it("every lookup takes the global id and the upstream's own (databaseId), and answers the same record", async () => {
    const ids = await oneOfEach();
    const lookups: [string, string][] = [
      ['entity', 'Entity'],
      ['entityType', 'EntityType'],
      ['event', 'Event'],
      ['venue', 'Venue'],
      ['organizer', 'Organizer'],
      ['category', 'Category'],
      ['tag', 'Tag'],
    ];
    for (const [field, type] of lookups) {
      const query = `query($id: ID!) { ${field}(id: $id) { id databaseId } }`;
      const global = (await data(query, { id: ids[type] }))[field];
      const upstream = (await data(query, { id: databaseIdOf(ids[type]!) }))[field];
      expect(upstream, field).toEqual(global);
      expect(global.databaseId, field).toBe(databaseIdOf(ids[type]!, type));
    }
    const link = await data(
      'query($id: ID!) { node(id: $id) { ... on GovernanceLink { databaseId linkType { id databaseId } } } }',
      {
        id: ids.GovernanceLink,
      },
    );
    const byLink = 'query($id: ID!, $t: ID!) { link(id: $id, linkTypeId: $t) { id } }';
    const a = await data(byLink, { id: ids.GovernanceLink, t: link.node.linkType.id });
    const b = await data(byLink, { id: link.node.databaseId, t: link.node.linkType.databaseId });
    // A listed link's id also names the entity that listed it, and answers that view with that id;
    // by its uuid, the link is read by itself and has the two-part id.
    const [linkId, linkTypeId] = databaseIdOf(ids.GovernanceLink!, 'GovernanceLink').split(':');
    expect(a.link).toEqual({ id: ids.GovernanceLink });
    expect(b.link).toEqual({ id: globalId('GovernanceLink', `${linkId}:${linkTypeId}`) });
  });

  it('federation keys on both: _entities resolves a representation by id and by databaseId', async () => {
    const ids = await oneOfEach();
    const reps = [
      { __typename: 'Entity', id: ids.Entity },
      { __typename: 'Entity', databaseId: databaseIdOf(ids.Entity!) },
      { __typename: 'Event', id: ids.Event },
      { __typename: 'Event', databaseId: databaseIdOf(ids.Event!) },
    ];
    const d = await data(
      'query($r: [_Any!]!) { _entities(representations: $r) { ... on Entity { id } ... on Event { id } } }',
      { r: reps },
    );
    expect(d._entities).toEqual([{ id: ids.Entity }, { id: ids.Entity }, { id: ids.Event }, { id: ids.Event }]);
  });
});

describe('bad ids', () => {
  it('a malformed or wrong-type id is BAD_USER_INPUT naming the argument, before any upstream call', async () => {
    const ids = await oneOfEach();
    const cases: [string, Record<string, unknown>, string][] = [
      ['query($id: ID!) { node(id: $id) { id } }', { id: 'not an id' }, 'id'],
      ['query($id: ID!) { node(id: $id) { id } }', { id: globalId('Nothing', '1') }, 'id'],
      ['query($id: ID!) { node(id: $id) { id } }', { id: globalId('AttributeValue', databaseIdOf(ids.Entity!)) }, 'id'],
      ['query($id: ID!) { node(id: $id) { id } }', { id: globalId('Entity', 'not-a-uuid') }, 'id'],
      ['query($id: ID!) { node(id: $id) { id } }', { id: globalId('Event', '-3') }, 'id'],
      ['query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: [ids.Event, 'garbage'] }, 'ids[1]'],
      ['query($id: ID!) { entity(id: $id) { id } }', { id: ids.Event }, 'id'],
      ['query($id: ID!) { event(id: $id) { id } }', { id: ids.Entity }, 'id'],
      ['query($id: ID!) { category(id: $id) { id } }', { id: ids.Tag }, 'id'],
      ['query($id: ID!) { venue(id: $id) { id } }', { id: globalId('Venue', 'x') }, 'id'],
      ['mutation($id: ID!) { deleteEntity(id: $id) { deletedId } }', { id: ids.EntityType }, 'id'],
      ['mutation($id: ID!) { updateEvent(id: $id, input: { title: "x" }) { id } }', { id: ids.Venue }, 'id'],
      [
        'mutation($id: ID!) { createEvent(input: { title: "x", startDate: "2027-01-01 10:00:00", endDate: "2027-01-01 11:00:00", venueId: $id }) { id } }',
        { id: ids.Organizer },
        'input.venueId',
      ],
    ];
    for (const [query, variables, argument] of cases) {
      stack.clearRequests();
      const res = await post(query, variables);
      expect(res.errors?.[0]?.extensions, `${query} ${JSON.stringify(variables)}`).toMatchObject({
        code: 'BAD_USER_INPUT',
        argument,
      });
      expect(upstreamCalls(), query).toEqual([]);
    }
  });

  it('an unknown record of a Node type is null, as its lookup is', async () => {
    const d = await data('query($a: ID!, $b: ID!) { a: node(id: $a) { id } b: node(id: $b) { id } }', {
      a: globalId('Entity', '00000000-0000-4000-8000-000000000000'),
      b: globalId('Event', '987654321'),
    });
    expect(d).toEqual({ a: null, b: null });
  });
});
