/**
 * Apollo Client as its documentation sets it up, against the production profile over HTTP: an
 * `InMemoryCache` with `possibleTypes` from the schema and `relayStylePagination` on both kinds of
 * connection, an `HttpLink` with a bearer token and `useGETForQueries` (CSRF prevention lets a
 * bearer token's GET through without a header). The cache normalises every record type without a
 * warning, hands back exactly what the gateway answered, merges pages, and takes a mutation's answer
 * in.
 */
import type * as Apollo from '@apollo/client';
import type { ApolloClient, OperationVariables } from '@apollo/client';
import type * as ApolloUtilities from '@apollo/client/utilities';
import type { DocumentNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALENDAR, ENTITY_LINKS, ENTITY_PAGE, EVENT_TITLES, RENAME_ENTITY } from './clients/documents.js';
import { possibleTypes, rawAnswer, recordConsole, startClientGateway, withoutTypename } from './support/clients.js';

const printed = recordConsole();
const sent: { method: string; status: number }[] = [];
let url: string;
let authorization: string;
let apollo: typeof Apollo;
let relayStylePagination: typeof ApolloUtilities.relayStylePagination;

afterAll(() => delete (globalThis as { __DEV__?: boolean }).__DEV__);

beforeAll(async () => {
  // Apollo's development build, whose checks and warnings a bundler's dev server turns on (its
  // `development` export condition); Node's default condition loads the silent production one.
  (globalThis as { __DEV__?: boolean }).__DEV__ = true;
  apollo = await import('@apollo/client');
  ({ relayStylePagination } = await import('@apollo/client/utilities'));
  const { loadDevMessages, loadErrorMessages } = await import('@apollo/client/dev');
  loadDevMessages();
  loadErrorMessages();
  const gateway = await startClientGateway();
  url = gateway.url;
  authorization = `Bearer ${await gateway.token('editor')}`;
});

/** A client with a cache of its own, as an app starts one. */
function newClient(): ApolloClient {
  return new apollo.ApolloClient({
    link: new apollo.HttpLink({
      uri: url,
      headers: { authorization },
      useGETForQueries: true,
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        sent.push({ method: init?.method ?? 'GET', status: res.status });
        return res;
      },
    }),
    cache: new apollo.InMemoryCache({
      possibleTypes,
      typePolicies: {
        // The arguments that pick a list, not a page of it: each list is paged on its own.
        Query: { fields: { entities: relayStylePagination(['kind', 'search', 'filters', 'stage', 'stages']) } },
        Entity: { fields: { links: relayStylePagination(['counterpartKinds', 'orderBy', 'search']) } },
      },
    }),
  });
}

async function network<D>(client: ApolloClient, query: DocumentNode, variables: OperationVariables): Promise<D> {
  const result = await client.query<D>({ query, variables, fetchPolicy: 'network-only' });
  expect(result.error).toBeUndefined();
  return result.data as D;
}

const raw = (document: DocumentNode, variables: Record<string, unknown>) =>
  rawAnswer(url, authorization, document, variables);

type Page<N> = { edges: { cursor: string; node: N }[]; pageInfo: { endCursor: string; hasNextPage: boolean } };
type Entity = { id: string; name: string; links: Page<{ id: string }> & { totalCount: number } };
const ids = (page: Page<{ id: string }>) => page.edges.map((e) => e.node.id);

describe('Apollo Client with InMemoryCache and relayStylePagination, in production', () => {
  it('sends a query by GET with the bearer token (no CSRF header), and the gateway answers it', async () => {
    const before = sent.length;
    const data = await network(newClient(), EVENT_TITLES, { first: 3 });
    expect(sent.slice(before)).toEqual([{ method: 'GET', status: 200 }]);
    expect(withoutTypename(data)).toEqual(await raw(EVENT_TITLES, { first: 3 }));
  });

  it('normalises every record type and hands back exactly what the gateway answered', async () => {
    const client = newClient();
    const entities = await network(client, ENTITY_PAGE, { first: 10 });
    const calendar = await network(client, CALENDAR, { first: 10 });
    expect(withoutTypename(entities)).toEqual(await raw(ENTITY_PAGE, { first: 10 }));
    expect(withoutTypename(calendar)).toEqual(await raw(CALENDAR, { first: 10 }));
    // Read again from the cache alone, after both answers were written into it.
    expect(client.readQuery({ query: ENTITY_PAGE, variables: { first: 10 } })).toEqual(entities);
    expect(client.readQuery({ query: CALENDAR, variables: { first: 10 } })).toEqual(calendar);
  });

  it('merges the pages of a Query connection (relayStylePagination)', async () => {
    const client = newClient();
    type Entities = { entities: Page<Entity> };
    const one = await network<Entities>(client, ENTITY_PAGE, { first: 5, kind: 'AI_SYSTEM' });
    const after = one.entities.pageInfo.endCursor;
    await network<Entities>(client, ENTITY_PAGE, { first: 5, after, kind: 'AI_SYSTEM' });
    const both = client.readQuery<Entities>({ query: ENTITY_PAGE, variables: { first: 5, kind: 'AI_SYSTEM' } })!;
    const whole = (await raw(ENTITY_PAGE, { first: 10, kind: 'AI_SYSTEM' })) as Entities;
    expect(ids(both.entities)).toEqual(ids(whole.entities));
    expect(new Set(ids(both.entities)).size).toBe(10);
  });

  it('merges the pages of a record’s links (relayStylePagination)', async () => {
    const page = (await raw(ENTITY_PAGE, { first: 20 })) as { entities: Page<Entity> };
    const linked = page.entities.edges.map((e) => e.node).find((e) => e.links.totalCount >= 4);
    expect(linked, 'an entity with four links or more').toBeDefined();
    const client = newClient();
    type Links = { entity: Entity };
    const one = await network<Links>(client, ENTITY_LINKS, { id: linked!.id, first: 2 });
    const after = one.entity.links.pageInfo.endCursor;
    await network<Links>(client, ENTITY_LINKS, { id: linked!.id, first: 2, after });
    const both = client.readQuery<Links>({ query: ENTITY_LINKS, variables: { id: linked!.id, first: 2 } })!;
    const whole = (await raw(ENTITY_LINKS, { id: linked!.id, first: 4 })) as Links;
    expect(ids(both.entity.links)).toEqual(ids(whole.entity.links));
    expect(new Set(ids(both.entity.links)).size).toBe(4);
  });

  // A listed link's id names the record that listed it, so the cache keeps both ends' views.
  it('keeps a link as each of its two ends lists it', async () => {
    const page = (await raw(ENTITY_PAGE, { first: 20 })) as { entities: Page<Entity> };
    type Link = { id: string; counterpart: { entity: { id: string } | null } };
    type Links = { entity: { links: Page<Link> } };
    const a = page.entities.edges.map((e) => e.node).find((e) => e.links.totalCount > 0)!;
    const client = newClient();
    const fromA = await network<Links>(client, ENTITY_LINKS, { id: a.id, first: 5 });
    const b = fromA.entity.links.edges.map((e) => e.node.counterpart.entity).find(Boolean)!;
    await network(client, ENTITY_LINKS, { id: b.id, first: 50 });
    expect(withoutTypename(client.readQuery({ query: ENTITY_LINKS, variables: { id: a.id, first: 5 } }))).toEqual(
      await raw(ENTITY_LINKS, { id: a.id, first: 5 }),
    );
  });

  it('updates the cached record from a mutation’s answer, without reading it again', async () => {
    const client = newClient();
    const page = await network<{ entities: Page<Entity> }>(client, ENTITY_PAGE, { first: 10 });
    const target = page.entities.edges[3]!.node;
    const name = `${target.name} (renamed by Apollo)`;
    await client.mutate({ mutation: RENAME_ENTITY, variables: { id: target.id, name } });
    expect(sent.at(-1)).toEqual({ method: 'POST', status: 200 });
    const before = sent.length;
    const again = client.readQuery<{ entities: Page<Entity> }>({ query: ENTITY_PAGE, variables: { first: 10 } });
    expect(again?.entities.edges[3]!.node.name).toBe(name);
    expect(sent.length).toBe(before);
  });

  it('printed no warning the whole file through, with the development build listening', () => {
    expect(printed.lines).toEqual([]);
    // The channel is open: a write missing a field the query selects is reported.
    newClient().writeQuery({ query: EVENT_TITLES, variables: { first: 1 }, data: { events: { nodes: [{}] } } });
    expect(printed.lines.splice(0).join('\n')).toMatch(/^Missing field 'id' while writing result/);
  });
});
