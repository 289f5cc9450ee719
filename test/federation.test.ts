/**
 * The gateway as an Apollo Federation v2 subgraph: its SDL carries `@key(fields: "id")` on the seven
 * entity types and each root field's permission as `@requiresScopes` (kept by composition; left out
 * under FEDERATION_REQUIRES_SCOPES=false); `_entities` resolves representations through the request's
 * loaders (100 representations cost one upstream read per distinct record) and checks every key
 * first. In production `_service` and `_entities` answer only requests carrying the router's shared
 * secret. The routers themselves in front of it: test/federation-routers.test.ts.
 */
import { createHash } from 'node:crypto';
import { parse } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { startStack, countRequests, type Stack } from './support/stack.js';

const ENTITY_TYPES = ['Category', 'Entity', 'EntityType', 'Event', 'Organizer', 'Tag', 'Venue'];
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
    expect(sdl).toContain('@requiresScopes(scopes: [["governance:read"]])');
  });

  it('comes without @requiresScopes under FEDERATION_REQUIRES_SCOPES=false, the rest the same', async () => {
    const plain = await startStack({ env: { FEDERATION_REQUIRES_SCOPES: 'false' } });
    const other = (await plain.query<{ _service: { sdl: string } }>('{ _service { sdl } }')).data!._service.sdl;
    expect(other).not.toContain('requiresScopes');
    expect(other).toMatch(
      /@link\(url: "https:\/\/specs\.apollo\.dev\/federation\/v2\.9", import: \["@key", "@shareable", "@cost", "@listSize"\]\)/,
    );
    const types = (text: string) => {
      const doc = parse(text);
      const keys = (text.match(/@key\(fields: "id"\)/g) ?? []).length;
      return { definitions: doc.definitions.length, keys, costs: (text.match(/@cost\(/g) ?? []).length };
    };
    expect(types(other)).toEqual(types(sdl));
    expect(types(other).keys).toBe(ENTITY_TYPES.length);
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
