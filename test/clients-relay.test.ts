/**
 * Relay as its documentation sets it up, against the production profile over HTTP: relay-compiler
 * compiles the frontend operations of test/clients/relay/ against schema.graphql (in the test, into
 * a temporary project: see test/support/relay.ts), and relay-runtime (an Environment whose Network
 * POSTs to the gateway with a bearer token, a Store) runs them: fetchQuery, a Query connection paged
 * by its @refetchable pagination query, a record's links paged through @connection, a mutation whose
 * updater inserts the created record into a connection. Relay keys its store by `id` alone, so the
 * reads are compared with what the gateway answered (a Category read as a Venue would differ), and
 * nothing may print a warning ("conflicting types" is Relay's word for two types sharing an id).
 */
import {
  commitMutation,
  ConnectionHandler,
  createOperationDescriptor,
  Environment,
  fetchQuery,
  getSelector,
  Network,
  RecordSource,
  Store,
  type ConcreteRequest,
  type ReaderFragment,
  type SingularReaderSelector,
} from 'relay-runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import { rawAnswer, recordConsole, startClientGateway, withoutTypename } from './support/clients.js';
import { compileRelay, type RelayBuild } from './support/relay.js';

const printed = recordConsole();
let build: RelayBuild;
let url: string;
let authorization: string;

beforeAll(async () => {
  [build] = await Promise.all([
    compileRelay(),
    startClientGateway().then(async (gateway) => {
      url = gateway.url;
      authorization = `Bearer ${await gateway.token('editor')}`;
    }),
  ]);
}, 60_000);

/** An environment with a store of its own, as an app starts one. */
function newEnvironment(): Environment {
  return new Environment({
    network: Network.create(async (params, variables) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify({ query: params.text, variables }),
      });
      return res.json();
    }),
    store: new Store(new RecordSource()),
  });
}

const query = (name: string) => build.artifact<ConcreteRequest>(name);
const fragment = (name: string) => build.artifact<ReaderFragment>(name);

/** What a component's `useFragment` would read. */
function read<T>(environment: Environment, node: ReaderFragment, ref: unknown): T {
  return environment.lookup(getSelector(node, ref) as SingularReaderSelector).data as T;
}

async function fetchAndRead(environment: Environment, request: ConcreteRequest, variables: Record<string, unknown>) {
  await fetchQuery(environment, request, variables).toPromise();
  return environment.lookup(createOperationDescriptor(request, variables).fragment).data as Record<string, unknown>;
}

type Connection<N> = {
  totalCount: number;
  pageInfo: { endCursor: string; hasNextPage: boolean };
  edges: { node: N }[];
};
type Node = { id: string };
const ids = (connection: Connection<Node>) => connection.edges.map((e) => e.node.id);
const raw = (request: ConcreteRequest | string, variables: Record<string, unknown>) =>
  rawAnswer(url, authorization, typeof request === 'string' ? request : request.params.text!, variables);
const RENAME_ENTITY = 'mutation ($id: ID!, $name: String!) { updateEntity(id: $id, input: { name: $name }) { id } }';
const RETITLE_EVENT = 'mutation ($id: ID!, $title: String!) { updateEvent(id: $id, input: { title: $title }) { id } }';

describe('Relay (relay-compiler and relay-runtime), in production', () => {
  it('compiles every operation against schema.graphql without a warning', () => {
    expect(build.output).toMatch(/compiled documents: \d+ reader/);
    expect(build.output).not.toMatch(/WARN|ERROR/);
  });

  it('reads every calendar record type through fetchQuery as the gateway answered it', async () => {
    const request = await query('CalendarQuery');
    const data = await fetchAndRead(newEnvironment(), request, { first: 20 });
    expect(withoutTypename(data)).toEqual(await raw(request, { first: 20 }));
  });

  it('reads every governance record type through fetchQuery as the gateway answered it', async () => {
    const request = await query('GovernanceQuery');
    const data = await fetchAndRead(newEnvironment(), request, { first: 20 });
    expect(withoutTypename(data)).toEqual(await raw(request, { first: 20 }));
  });

  it('pages a Query connection with its @refetchable pagination query', async () => {
    const environment = newEnvironment();
    const list = await fragment('EntityList_query');
    const root = await fetchAndRead(environment, await query('EntityListQuery'), { first: 5 });
    type List = { entities: Connection<Node> };
    const { endCursor } = read<List>(environment, list, root).entities.pageInfo;
    // What usePaginationFragment's loadNext sends: the pagination query from the last cursor.
    await fetchQuery(environment, await query('EntityListPaginationQuery'), { first: 5, after: endCursor }).toPromise();
    const both = read<List>(environment, list, root).entities;
    const whole = (await raw(await query('EntityListQuery'), { first: 10 })) as { entities: Connection<Node> };
    expect(ids(both)).toEqual(ids(whole.entities));
    expect(new Set(ids(both)).size).toBe(10);
  });

  it('pages a record’s links with its @refetchable pagination query (node(id:))', async () => {
    const request = await query('EntityListQuery');
    type Listed = { entities: Connection<Node & { links?: never }> };
    const listed = (await raw(request, { first: 20 })) as Listed;
    const links = await query('EntityLinksQuery');
    let linked: string | undefined;
    for (const { node } of listed.entities.edges) {
      const answer = (await raw(links, { id: node.id, first: 1 })) as { entity: { links: Connection<Node> } };
      if (answer.entity.links.totalCount >= 4) linked = node.id;
      if (linked) break;
    }
    expect(linked, 'an entity with four links or more').toBeDefined();
    const environment = newEnvironment();
    const entityLinks = await fragment('EntityLinks_entity');
    const root = (await fetchAndRead(environment, links, { id: linked, first: 2 })) as { entity: unknown };
    type Entity = Node & { links: Connection<Node> };
    const { endCursor } = read<Entity>(environment, entityLinks, root.entity).links.pageInfo;
    // What usePaginationFragment's loadNext sends for a record: its pagination query, by node id.
    const next = { id: linked, first: 2, after: endCursor };
    await fetchQuery(environment, await query('EntityLinksPaginationQuery'), next).toPromise();
    const both = read<Entity>(environment, entityLinks, root.entity).links;
    const whole = (await raw(links, { id: linked, first: 4 })) as { entity: Entity };
    expect(ids(both)).toEqual(ids(whole.entity.links));
    expect(new Set(ids(both)).size).toBe(4);
  });

  it('refetches an Entity by its node id (@refetchable), seeing a change made elsewhere', async () => {
    const environment = newEnvironment();
    const [list, card] = await Promise.all([fragment('EntityList_query'), fragment('EntityCard_entity')]);
    const root = await fetchAndRead(environment, await query('EntityListQuery'), { first: 5 });
    const ref = read<{ entities: Connection<Node> }>(environment, list, root).entities.edges[1]!.node;
    const before = read<Node & { name: string }>(environment, card, ref);
    const name = `${before.name} (renamed elsewhere)`;
    await raw(RENAME_ENTITY, { id: before.id, name });
    expect(read<{ name: string }>(environment, card, ref).name).toBe(before.name);
    const refetch = await query('EntityCardRefetchQuery');
    expect(refetch.params.text).toMatch(/node\(id: \$id\)/);
    await fetchQuery(environment, refetch, { id: before.id }).toPromise();
    expect(read<{ name: string }>(environment, card, ref).name).toBe(name);
  });

  it('refetches an Event by its node id (@refetchable), seeing a change made elsewhere', async () => {
    const environment = newEnvironment();
    const card = await fragment('EventCard_event');
    const root = (await fetchAndRead(environment, await query('EventCardListQuery'), { first: 5 })) as {
      events: Connection<unknown>;
    };
    const ref = root.events.edges[2]!.node;
    const before = read<Node & { title: string; version: string }>(environment, card, ref);
    const title = `${before.title} (retitled elsewhere)`;
    await raw(RETITLE_EVENT, { id: before.id, title });
    await fetchQuery(environment, await query('EventCardRefetchQuery'), { id: before.id }).toPromise();
    const after = read<{ title: string; version: string }>(environment, card, ref);
    expect(after.title).toBe(title);
    expect(after.version).not.toBe(before.version);
  });

  it('runs a mutation whose updater puts the created record first in a connection', async () => {
    const environment = newEnvironment();
    const list = await fragment('EntityList_query');
    const card = await fragment('EntityCard_entity');
    const root = await fetchAndRead(environment, await query('EntityListQuery'), { first: 5 });
    type List = { entities: Connection<Node> };
    const before = read<List>(environment, list, root).entities;
    const { organizationId } = read<{ organizationId: string }>(environment, card, before.edges[0]!.node);
    const input = { kind: 'DATASET', name: 'Created through Relay', organizationId };
    const mutation = await query('CreateEntityMutation');
    const created = await new Promise<{ createEntity: Node }>((resolve, reject) =>
      commitMutation(environment, {
        mutation,
        variables: { input },
        updater: (store) => {
          const connection = ConnectionHandler.getConnection(store.getRoot(), 'EntityList_entities')!;
          const edge = ConnectionHandler.createEdge(
            store,
            connection,
            store.getRootField('createEntity'),
            'EntityEdge',
          );
          ConnectionHandler.insertEdgeBefore(connection, edge);
        },
        onCompleted: (response, errors) =>
          errors ? reject(new Error(JSON.stringify(errors))) : resolve(response as never),
        onError: reject,
      }),
    );
    const after = read<List>(environment, list, root).entities;
    expect(ids(after)).toEqual([created.createEntity.id, ...ids(before)]);
    expect(read<{ name: string }>(environment, card, after.edges[0]!.node).name).toBe('Created through Relay');
  });

  it('printed no warning, "conflicting types" or any other, the whole file through', () => {
    expect(printed.lines).toEqual([]);
  });
});
