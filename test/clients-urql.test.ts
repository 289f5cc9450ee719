/**
 * urql as its documentation sets it up, against the production profile over HTTP: `@urql/core` with
 * `@urql/exchange-graphcache` given the schema (from schema.graphql: production serves no
 * introspection) and `relayPagination` on both kinds of connection, a bearer token in
 * `fetchOptions`, queries sent by GET as urql does by default (CSRF prevention lets a bearer
 * token's GET through without a header). The cache normalises every record type without a warning,
 * hands back exactly what the gateway answered, merges pages, and takes a mutation's answer in.
 */
import { Client, fetchExchange, type AnyVariables, type DocumentInput } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { relayPagination } from '@urql/exchange-graphcache/extras';
import { persistedExchange } from '@urql/exchange-persisted';
import type { DocumentNode } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { EventGraphDocument } from '../src/generated/graphql.js';
import { CALENDAR, ENTITY_LINKS, ENTITY_PAGE, EVENT_TITLES, RENAME_ENTITY } from './clients/documents.js';
import {
  clientIntrospection,
  rawAnswer,
  recordConsole,
  startClientGateway,
  valueTypes,
  withoutTypename,
} from './support/clients.js';

const printed = recordConsole();
const sent: { method: string; status: number; url: string }[] = [];
let url: string;
let authorization: string;

beforeAll(async () => {
  // `allow`: the safelist's hashes (src/generated/) as well as query text.
  const gateway = await startClientGateway({ PERSISTED_OPERATIONS: 'allow' });
  url = gateway.url;
  authorization = `Bearer ${await gateway.token('editor')}`;
});

const recordingFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  sent.push({ method: init?.method ?? 'GET', status: res.status, url: String(input) });
  return res;
};
const sentAfter = (count: number) => sent.slice(count).map(({ method, status }) => ({ method, status }));

/** A client with a cache of its own, as an app starts one (`keyed: false` leaves out the keys of values). */
function newClient({ keyed = true } = {}): Client {
  return new Client({
    url,
    fetchOptions: { headers: { authorization } },
    fetch: recordingFetch,
    exchanges: [
      cacheExchange({
        schema: clientIntrospection,
        // The schema's types without an `id` are values, embedded in their record (graphcache's docs).
        keys: keyed ? Object.fromEntries(valueTypes.map((name) => [name, () => null])) : {},
        resolvers: { Query: { entities: relayPagination() }, Entity: { links: relayPagination() } },
        logger: (severity, message) => printed.lines.push(`graphcache ${severity}: ${message}`),
      }),
      fetchExchange,
    ],
  });
}

async function network<D>(client: Client, query: DocumentInput<D, AnyVariables>, variables: AnyVariables): Promise<D> {
  const result = await client.query(query, variables, { requestPolicy: 'network-only' }).toPromise();
  expect(result.error).toBeUndefined();
  return result.data!;
}

const raw = (document: DocumentNode, variables: Record<string, unknown>) =>
  rawAnswer(url, authorization, document, variables);

type Page<N> = { edges: { cursor: string; node: N }[]; pageInfo: { endCursor: string; hasNextPage: boolean } };
type Entity = { id: string; name: string; links: Page<{ id: string }> & { totalCount: number } };
const ids = (page: Page<{ id: string }>) => page.edges.map((e) => e.node.id);

describe('urql with graphcache, schema-aware, in production', () => {
  it('sends a query by GET with the bearer token (no CSRF header), and the gateway answers it', async () => {
    const before = sent.length;
    const data = await network(newClient(), EVENT_TITLES, { first: 3 });
    expect(sentAfter(before)).toEqual([{ method: 'GET', status: 200 }]);
    expect(withoutTypename(data)).toEqual(await raw(EVENT_TITLES, { first: 3 }));
    // The token is what lets it in: the same GET without one is refused.
    const anonymous = new Client({ url, fetch: recordingFetch, exchanges: [fetchExchange] });
    const refused = await anonymous.query(EVENT_TITLES, { first: 3 }).toPromise();
    expect(refused.data).toBeUndefined();
    expect(sentAfter(sent.length - 1)).toEqual([{ method: 'GET', status: 401 }]);
  });

  it('sends a safelisted query by GET as its hash alone (persistedExchange), with the bearer token', async () => {
    const client = new Client({
      url,
      fetchOptions: { headers: { authorization } },
      fetch: recordingFetch,
      exchanges: [
        persistedExchange({
          preferGetForPersistedQueries: true,
          enforcePersistedQueries: true,
          // graphql-codegen's client preset puts each document's safelist hash in `__meta__`.
          generateHash: async (_text, document) => (document as { __meta__?: { hash?: string } }).__meta__?.hash,
        }),
        fetchExchange,
      ],
    });
    const before = sent.length;
    const result = await client.query(EventGraphDocument, { first: 2 }).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data?.events?.nodes).toHaveLength(2);
    expect(sentAfter(before)).toEqual([{ method: 'GET', status: 200 }]);
    const sentUrl = new URL(sent.at(-1)!.url);
    expect(sentUrl.searchParams.has('query')).toBe(false);
    expect(sentUrl.searchParams.get('extensions')).toContain('sha256Hash');
  });

  it('normalises every record type and hands back exactly what the gateway answered', async () => {
    const client = newClient();
    const entities = await network(client, ENTITY_PAGE, { first: 10 });
    const calendar = await network(client, CALENDAR, { first: 10 });
    expect(withoutTypename(entities)).toEqual(await raw(ENTITY_PAGE, { first: 10 }));
    expect(withoutTypename(calendar)).toEqual(await raw(CALENDAR, { first: 10 }));
    // Read again from the cache alone, after both answers were written into it.
    expect(client.readQuery(ENTITY_PAGE, { first: 10 })?.data).toEqual(entities);
    expect(client.readQuery(CALENDAR, { first: 10 })?.data).toEqual(calendar);
  });

  it('merges the pages of a Query connection (relayPagination)', async () => {
    const client = newClient();
    type Entities = { entities: Page<Entity> };
    const one = await network<Entities>(client, ENTITY_PAGE, { first: 5, kind: 'AI_SYSTEM' });
    const after = one.entities.pageInfo.endCursor;
    const both = await network<Entities>(client, ENTITY_PAGE, { first: 5, after, kind: 'AI_SYSTEM' });
    const whole = (await raw(ENTITY_PAGE, { first: 10, kind: 'AI_SYSTEM' })) as Entities;
    expect(ids(both.entities)).toEqual(ids(whole.entities));
    expect(new Set(ids(both.entities)).size).toBe(10);
  });

  it('merges the pages of a record’s links (relayPagination)', async () => {
    const page = (await raw(ENTITY_PAGE, { first: 20 })) as { entities: Page<Entity> };
    const linked = page.entities.edges.map((e) => e.node).find((e) => e.links.totalCount >= 4);
    expect(linked, 'an entity with four links or more').toBeDefined();
    const client = newClient();
    type Links = { entity: Entity };
    const one = await network<Links>(client, ENTITY_LINKS, { id: linked!.id, first: 2 });
    const after = one.entity.links.pageInfo.endCursor;
    const both = await network<Links>(client, ENTITY_LINKS, { id: linked!.id, first: 2, after });
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
    expect(withoutTypename(client.readQuery(ENTITY_LINKS, { id: a.id, first: 5 })?.data)).toEqual(
      await raw(ENTITY_LINKS, { id: a.id, first: 5 }),
    );
  });

  it('updates the cached record from a mutation’s answer, without reading it again', async () => {
    const client = newClient();
    const page = await network<{ entities: Page<Entity> }>(client, ENTITY_PAGE, { first: 10 });
    const target = page.entities.edges[3]!.node;
    const name = `${target.name} (renamed by urql)`;
    const result = await client.mutation(RENAME_ENTITY, { id: target.id, name }).toPromise();
    expect(result.error).toBeUndefined();
    expect(sentAfter(sent.length - 1)).toEqual([{ method: 'POST', status: 200 }]);
    const before = sent.length;
    const again = client.readQuery<{ entities: Page<Entity> }>(ENTITY_PAGE, { first: 10 })?.data;
    expect(again?.entities.edges[3]!.node.name).toBe(name);
    expect(sent.length).toBe(before);
  });

  it('printed no warning, "Invalid key" or any other, the whole file through', () => {
    expect(printed.lines).toEqual([]);
  });

  it('was listening: without the keys of values, graphcache warns about them', async () => {
    printed.lines.splice(0);
    await network(newClient({ keyed: false }), CALENDAR, { first: 10 });
    expect(printed.lines.join('\n')).toMatch(/Invalid key: [^]*config for `EventCostDetails`/);
    printed.lines.splice(0);
  });
});
