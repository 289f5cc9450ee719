/**
 * The gateway as an Apollo Federation v2 subgraph, checked with Apollo's own tools: its SDL carries
 * `@key(fields: "id")` on the seven entity types; `_entities` resolves representations through the
 * request's loaders (100 representations cost one upstream read per distinct record); and
 * `@apollo/composition` composes it with a second, Relay-style subgraph that extends `Entity` and
 * `Event` and defines its own `PageInfo`, `User` and `Node`, behind an `@apollo/gateway` router on
 * loopback, answering a query that crosses both. In production `_service` and `_entities` answer
 * only requests carrying the router's shared secret, and the router forwards the user's credential,
 * which the subgraph checks itself. Each root field's permission is in the SDL as `@requiresScopes`,
 * which composition keeps in the supergraph.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { composeServices } from '@apollo/composition';
import { ApolloGateway } from '@apollo/gateway';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { createHash } from 'node:crypto';
import { parse, print, visit, type DirectiveNode } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, countRequests, type Stack } from './support/stack.js';
import { startRouter, type Router } from './support/federation-router.js';

const ENTITY_TYPES = ['Category', 'Entity', 'EntityType', 'Event', 'Organizer', 'Tag', 'Venue'];
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

let stack: Stack;
let entityIds: string[];
let eventIds: string[];
let sdl: string;

beforeAll(async () => {
  // No response cache: every distinct record must cost exactly one read, visible in the emulator log.
  stack = await startStack({ env: { CACHE_MAX_BYTES: '0' } });
  const ids = await stack.query<{ entities: { nodes: { id: string }[] }; events: { nodes: { id: string }[] } }>(
    '{ entities(first: 5) { nodes { id } } events(first: 10) { nodes { id } } }',
  );
  expect(ids.errors).toBeUndefined();
  entityIds = ids.data!.entities.nodes.map((n) => n.id);
  // Some seeded events are password protected (a single read answers 403): keep five readable ones.
  eventIds = [];
  for (const { id } of ids.data!.events.nodes) {
    const one = await stack.query('query ($id: ID!) { event(id: $id) { id } }', { id });
    if (!one.errors && eventIds.length < 5) eventIds.push(String(id));
  }
  const service = await stack.query<{ _service: { sdl: string } }>('{ _service { sdl } }');
  sdl = service.data!._service.sdl;
});

describe('subgraph SDL', () => {
  it('links Federation v2 and keys the seven entity types by id', () => {
    expect(sdl).toMatch(/@link\(url: "https:\/\/specs\.apollo\.dev\/federation\/v2\.\d+"/);
    for (const type of ENTITY_TYPES) expect(sdl).toMatch(new RegExp(`type ${type}\\b[^{]*@key\\(fields: "id"\\)`));
  });
});

describe("the router's fields, to everyone else", () => {
  it('are described, and never offered in "Did you mean" hints', async () => {
    const fields = await stack.query<{ __type: { fields: { name: string; description: string | null }[] } }>(
      '{ __type(name: "Query") { fields { name description } } }',
    );
    const byName = Object.fromEntries(fields.data!.__type.fields.map((f) => [f.name, f.description]));
    expect(byName._entities).toMatch(/^Federation internals, for the federation router only/);
    expect(byName._service).toMatch(/^Federation internals, for the federation router only/);

    const typo = await stack.query('{ _entitie { __typename } }');
    expect(typo.errors![0]!.message).toBe(
      'Cannot query field "_entitie" on type "Query". Did you mean "entities" or "entity"?',
    );
    const service = await stack.query('{ _servic { sdl } }');
    expect(service.errors![0]!.message).toBe('Cannot query field "_servic" on type "Query".');
    // Other hints are kept whole.
    const other = await stack.query('{ entitie { totalCount } }');
    expect(other.errors![0]!.message).toMatch(/Did you mean "entities"/);
  });
});

describe('_entities', () => {
  it('resolves 100 representations with one upstream read per distinct record', async () => {
    expect(entityIds.length).toBe(5);
    expect(eventIds.length).toBe(5);
    const representations = Array.from({ length: 100 }, (_, i) =>
      i % 2 === 0
        ? { __typename: 'Entity', id: entityIds[(i / 2) % 5] }
        : { __typename: 'Event', id: eventIds[((i - 1) / 2) % 5] },
    );
    stack.clearRequests();
    // Aliased ids: Entity.id and Event.id differ in nullability, so they cannot share a response key.
    const res = await stack.query<{
      _entities: ({ __typename: string; entityId?: string; eventId?: string; name?: string; title?: string } | null)[];
    }>(
      `query ($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Entity { entityId: id name } ... on Event { eventId: id title } } }`,
      { r: representations },
    );
    expect(res.errors).toBeUndefined();
    const got = res.data!._entities;
    expect(got).toHaveLength(100);
    got.forEach((e, i) => {
      expect(e?.__typename).toBe(representations[i]!.__typename);
      expect(String(e?.entityId ?? e?.eventId)).toBe(representations[i]!.id);
    });
    expect(got.every((e) => Boolean(e?.name ?? e?.title))).toBe(true);
    expect(countRequests(stack.governance, 'GET /entities/:entityId')).toBe(5);
    expect(countRequests(stack.calendar, /^GET \/events\/:id/)).toBe(5);
    expect(countRequests(stack.governance, /^(?!POST .*token)/) + countRequests(stack.calendar)).toBe(10);
  });

  it('resolves an unknown id to null and other types through their own loaders', async () => {
    const types = await stack.query<{
      entityTypes: { nodes: { id: string; name: string }[] };
      venues: { nodes: { id: string; name: string }[] };
    }>('{ entityTypes(first: 1) { nodes { id name } } venues(first: 1) { nodes { id name } } }');
    const type = types.data!.entityTypes.nodes[0]!;
    const venue = types.data!.venues.nodes[0]!;
    const res = await stack.query<{ _entities: ({ typeName?: string; venueName?: string } | null)[] }>(
      `query ($r: [_Any!]!) { _entities(representations: $r) { ... on EntityType { typeName: name } ... on Venue { venueName: name } ... on Entity { name } ... on Event { title } } }`,
      {
        r: [
          { __typename: 'EntityType', id: type.id },
          { __typename: 'Venue', id: String(venue.id) },
          { __typename: 'Entity', id: '00000000-0000-4000-8000-000000000000' },
          { __typename: 'Event', id: 999_999 },
        ],
      },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!._entities).toEqual([{ typeName: type.name }, { venueName: venue.name }, null, null]);
  });

  it('checks every key as the lookups do: a malformed one is null with BAD_USER_INPUT, and nothing goes upstream', async () => {
    const malformed = [
      { __typename: 'Entity', id: 'not-a-uuid' },
      { __typename: 'EntityType', id: '..' },
      { __typename: 'Event', id: 'not-a-number' },
      { __typename: 'Venue', id: '../1' },
      { __typename: 'Organizer', id: -3 },
      { __typename: 'Category', id: '1.5' },
      { __typename: 'Tag', id: '' },
    ];
    stack.clearRequests();
    const res = await stack.query<{ _entities: ({ __typename: string; id?: string } | null)[] }>(
      `query ($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Entity { entityId: id name } } }`,
      { r: [{ __typename: 'Entity', id: entityIds[0] }, ...malformed] },
    );
    // The well-formed key still answers beside them.
    expect(res.data!._entities[0]).toMatchObject({ __typename: 'Entity', entityId: entityIds[0] });
    expect(res.data!._entities.slice(1)).toEqual(malformed.map(() => null));
    const errors = res.errors ?? [];
    expect(errors.map((e) => e.path)).toEqual(malformed.map((_, i) => ['_entities', i + 1]));
    for (const e of errors) {
      expect(e.extensions?.code).toBe('BAD_USER_INPUT');
      expect(e.message).toMatch(/"id" must be a (uuid|calendar record id)/);
    }
    // One read for the well-formed key (this stack caches nothing); none for the others.
    expect(countRequests(stack.governance, /^(?!POST .*token)/)).toBe(1);
    expect(countRequests(stack.calendar)).toBe(0);
  });
});

describe('composed with a second subgraph behind @apollo/gateway', () => {
  let router: Router;

  beforeAll(async () => {
    const gatewayUrl = await stack.listen();
    const riskUrl = await listen(createYoga({ schema: riskSubgraph(), graphqlEndpoint: '/graphql', logging: false }));
    const composed = composeServices([
      { name: 'gateway', typeDefs: parse(sdl), url: gatewayUrl },
      { name: 'risk', typeDefs: RISK_SDL, url: riskUrl },
    ]);
    expect(composed.errors ?? []).toEqual([]);
    // Composition keeps the permissions for routers that enforce them (Apollo Router, Hive, Cosmo)…
    expect(composed.supergraphSdl).toContain('@requiresScopes(scopes: [["governance:read"]])');
    // …which @apollo/gateway cannot, so it refuses SECURITY features: it gets the supergraph without
    // them (the subgraph enforces its permissions itself).
    const supergraphSdl = withoutRequiresScopes(composed.supergraphSdl!);
    router = await startRouter(new ApolloGateway({ supergraphSdl, logger: quietLogger }));
    servers.push(router.server);
  });

  afterAll(() => router?.stop());

  it('answers a query that crosses both subgraphs, in both directions', async () => {
    const [first, second] = entityIds as [string, string];
    const res = await router.query<{
      entity: { id: string; name: string; riskScore: number };
      event: { id: string; title: string; attendance: number };
      riskiest: { id: string; name: string; kind: string };
      reviewers: {
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: { id: string; name: string }[];
      };
      entities: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: { id: string }[] };
    }>(
      `query Cross($id: ID!, $eventId: ID!) {
        entity(id: $id) { id name riskScore }
        event(id: $eventId) { id title attendance }
        riskiest { id name kind riskScore }
        reviewers { pageInfo { hasNextPage endCursor } nodes { id name } }
        entities(first: 2) { pageInfo { hasNextPage endCursor } nodes { id } }
      }`,
      { id: first, eventId: eventIds[0] },
    );
    expect(res.errors).toBeUndefined();
    const direct = await stack.query<{
      entity: { name: string };
      event: { title: string };
      second: { name: string; kind: string };
    }>(
      'query ($a: ID!, $b: ID!, $e: ID!) { entity(id: $a) { name } event(id: $e) { title } second: entity(id: $b) { name kind } }',
      { a: first, b: second, e: eventIds[0] },
    );
    expect(res.data!.entity).toEqual({ id: first, name: direct.data!.entity.name, riskScore: riskScore(first) });
    expect(res.data!.event).toEqual({
      id: eventIds[0],
      title: direct.data!.event.title,
      attendance: riskScore(eventIds[0]!) * 10,
    });
    // The risk subgraph only knows an id; the router fetches the rest from this gateway.
    expect(res.data!.riskiest).toEqual({
      id: second,
      name: direct.data!.second.name,
      kind: direct.data!.second.kind,
      riskScore: riskScore(second),
    });
    // Each subgraph's PageInfo (shareable) and the other's own User answer side by side.
    expect(res.data!.reviewers).toEqual({ pageInfo: { hasNextPage: false, endCursor: 'r2' }, nodes: REVIEWERS });
    expect(res.data!.entities.nodes.map((n) => n.id)).toEqual(entityIds.slice(0, 2));
    expect(res.data!.entities.pageInfo.hasNextPage).toBe(true);
  });

  /** The second subgraph's pick: it knows ids only, from the list handed to it. */
  function riskSubgraph() {
    return buildSubgraphSchema({
      typeDefs: RISK_SDL,
      resolvers: {
        Query: {
          riskiest: () => ({ id: entityIds[1], riskScore: riskScore(entityIds[1]!) }),
          reviewers: () => ({
            pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: 'r1', endCursor: 'r2' },
            nodes: REVIEWERS,
          }),
        },
        Entity: { __resolveReference: (ref: { id: string }) => ({ id: ref.id, riskScore: riskScore(ref.id) }) },
        Event: { __resolveReference: (ref: { id: string }) => ({ id: ref.id, attendance: riskScore(ref.id) * 10 }) },
      },
    });
  }
});

const REVIEWERS = [
  { id: 'u1', name: 'Ada' },
  { id: 'u2', name: 'Grace' },
];

/** A typical Relay-style subgraph: its own Node, User and PageInfo, next to extensions of ours. */
const RISK_SDL = parse(/* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.6", import: ["@key", "@shareable"])
  interface Node {
    id: ID!
  }
  type User implements Node @key(fields: "id") {
    id: ID!
    name: String!
  }
  type PageInfo @shareable {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }
  type UserConnection {
    pageInfo: PageInfo!
    nodes: [User!]!
  }
  type Entity @key(fields: "id") {
    id: ID!
    riskScore: Int!
  }
  type Event @key(fields: "id") {
    id: ID!
    attendance: Int!
  }
  type Query {
    riskiest: Entity
    reviewers: UserConnection!
  }
`);

/** A stable number per id, so the test knows what the second subgraph must have answered. */
function riskScore(id: string): number {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) % 97;
  return h;
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
}

describe('in production', () => {
  const SECRET = 'router-secret-for-the-test';
  // The user's credential, which the router forwards (here an API key; a bearer JWT works the same).
  const USER_KEYS = `user|${createHash('sha256').update('user-key').digest('hex')}|governance:read calendar:read`;
  const env = { NODE_ENV: 'production', FEDERATION_SECRET: SECRET, LOG_LEVEL: 'silent', AUTH_API_KEYS: USER_KEYS };
  let prod: Stack;
  beforeAll(async () => {
    prod = await startStack({ env });
  });
  // A router's JSON POSTs pass production's CSRF prevention as they are: no other header needed.
  const headers = (extra: Record<string, string> = {}) => ({ authorization: 'Bearer user-key', ...extra });

  it('refuses _service and _entities without the router secret, or with a wrong one', async () => {
    const attempts: Record<string, string>[] = [{}, { 'x-federation-secret': 'guess' }, { 'x-federation-secret': '' }];
    for (const extra of attempts) {
      const sdl = await prod.query('{ _service { sdl } }', undefined, headers(extra));
      expect(sdl.data?._service).toBeUndefined();
      expect(sdl.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect(JSON.stringify(sdl)).not.toContain('@key');
      const entities = await prod.query(
        'query ($r: [_Any!]!) { _entities(representations: $r) { __typename } }',
        { r: [{ __typename: 'Entity', id: entityIds[0] }] },
        headers(extra),
      );
      expect(entities.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect(entities.data?._entities).toBeUndefined();
    }
  });

  it('answers the router, which sends the secret', async () => {
    const res = await prod.query<{ _service: { sdl: string } }>(
      '{ _service { sdl } }',
      undefined,
      headers({ 'x-federation-secret': SECRET }),
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!._service.sdl).toContain('@key(fields: "id")');
    const entities = await prod.query<{ _entities: { id: string }[] }>(
      'query ($r: [_Any!]!) { _entities(representations: $r) { ... on Entity { id } } }',
      { r: [{ __typename: 'Entity', id: entityIds[0] }] },
      headers({ 'x-federation-secret': SECRET }),
    );
    expect(entities.errors).toBeUndefined();
    expect(entities.data!._entities).toEqual([{ id: entityIds[0] }]);
  });

  it('with persisted operations only, still answers the router: its query plans are text, never in a safelist', async () => {
    const strict = await startStack({ env: { ...env, PERSISTED_OPERATIONS: 'only' } });
    const plan = 'query ($r: [_Any!]!) { _entities(representations: $r) { ... on Entity { id name } } }';
    const vars = { r: [{ __typename: 'Entity', id: entityIds[0] }] };
    const routed = await strict.query<{ _entities: { id: string }[] }>(
      plan,
      vars,
      headers({ 'x-federation-secret': SECRET }),
    );
    expect(routed.errors).toBeUndefined();
    expect(routed.data!._entities[0]!.id).toBe(entityIds[0]);
    // Anyone else sending text is refused before parsing, as before, a wrong secret included.
    for (const extra of [{}, { 'x-federation-secret': 'guess' }] as Record<string, string>[]) {
      const refused = await strict.query(plan, vars, headers(extra));
      expect(refused.status).toBe(400);
      expect(refused.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
    }
  });

  it('answers anyone when introspection is enabled (the SDL is public then)', async () => {
    const open = await startStack({ env: { ...env, FEDERATION_SECRET: '', ALLOW_INTROSPECTION: 'true' } });
    const res = await open.query<{ _service: { sdl: string } }>('{ _service { sdl } }', undefined, headers());
    expect(res.errors).toBeUndefined();
    expect(res.data!._service.sdl).toContain('type Entity');
  });
});

/** The supergraph without the requiresScopes feature: its @link, its definitions and its uses. */
function withoutRequiresScopes(supergraph: string): string {
  const isFeature = (d: DirectiveNode) =>
    d.name.value === 'requiresScopes' ||
    (d.name.value === 'link' && print(d).includes('specs.apollo.dev/requiresScopes'));
  const stripped = visit(parse(supergraph), {
    Directive: (d) => (isFeature(d) ? null : undefined),
    DirectiveDefinition: (d) => (d.name.value === 'requiresScopes' ? null : undefined),
    ScalarTypeDefinition: (d) => (d.name.value.startsWith('requiresScopes__') ? null : undefined),
  });
  return print(stripped);
}

const quietLogger = { debug() {}, info() {}, warn() {}, error() {} };
