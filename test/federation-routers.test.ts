/**
 * The gateway behind the two routers users run, as docs/federation.md sets them up, in the
 * production profile: Hive Gateway (its own process, `@requiresScopes` enforced from the JWT) and
 * `@apollo/gateway` (in this process, on the SDL form FEDERATION_REQUIRES_SCOPES=false serves), each
 * in front of this gateway and a second, Relay-style subgraph that extends `Entity` and `Event`.
 * Each router fetches `_service` with its own credential and the federation secret, composes with
 * `@apollo/composition`, forwards the caller's `Authorization` to both subgraphs, and queries across
 * them; the gateway checks the caller's permissions on `_entities` itself, behind either router.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { composeServices } from '@apollo/composition';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_AUDIENCE, DevIssuer } from '../src/identity/dev-issuer.js';
import { countRequests, startStack, type Stack } from './support/stack.js';
import { startRouter, type Router } from './support/federation-router.js';
import { hiveGatewayConfig, startHiveGateway, type HiveGateway } from './support/hive-gateway.js';

const SECRET = 'router-secret-for-the-test';
/** The router's own credential: an API key without permissions, enough for `_service`. */
const ROUTER_KEY = 'router-own-key';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const servers: Server[] = [];
let issuer: DevIssuer;
let reader: string;
/** Reads events, not governance records. */
let calendarOnly: string;
let entityIds: string[];
let eventIds: string[];
let riskUrl: string;
/** The `Authorization` of every request the second subgraph received. */
const riskAuthorizations: (string | undefined)[] = [];

interface Subgraph {
  stack: Stack;
  url: string;
  /** The `Authorization` of every request this gateway received. */
  authorizations: (string | undefined)[];
}

async function listen(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
}

const recorded =
  (into: (string | undefined)[], handler: RequestListener): RequestListener =>
  (req, res) => {
    into.push(req.headers.authorization);
    handler(req, res);
  };

/** The gateway in production, trusting the test's issuer and the router's key. */
async function startSubgraph(env: Record<string, string> = {}): Promise<Subgraph> {
  const stack = await startStack({
    env: {
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      FEDERATION_SECRET: SECRET,
      AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${issuer.jwksUrl}`,
      AUTH_API_KEYS: `router|${sha256(ROUTER_KEY)}|`,
      ...env,
    },
  });
  const authorizations: (string | undefined)[] = [];
  return { stack, authorizations, url: await listen(recorded(authorizations, stack.gateway.handler)) };
}

/** What `rover subgraph introspect` sends: the router's own credential and the federation secret. */
async function fetchSdl(url: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: '{ _service { sdl } }' }),
  });
}

async function supergraphOf(subgraph: Subgraph): Promise<string> {
  const res = await fetchSdl(subgraph.url, {
    authorization: `Bearer ${ROUTER_KEY}`,
    'x-federation-secret': SECRET,
  });
  const body = (await res.json()) as { data: { _service: { sdl: string } } };
  const composed = composeServices([
    { name: 'gateway', typeDefs: parse(body.data._service.sdl), url: subgraph.url },
    { name: 'risk', typeDefs: RISK_SDL, url: riskUrl },
  ]);
  expect(composed.errors ?? []).toEqual([]);
  return composed.supergraphSdl!;
}

let hiveSubgraph: Subgraph;
let apolloSubgraph: Subgraph;
let hive: HiveGateway;
let apollo: Router;

beforeAll(async () => {
  issuer = await DevIssuer.start();
  reader = await issuer.tokenFor('reader');
  calendarOnly = await issuer.sign({ sub: 'events-app', scope: 'calendar:read' });
  riskUrl = await listen(
    recorded(riskAuthorizations, createYoga({ schema: riskSubgraph(), graphqlEndpoint: '/graphql', logging: false })),
  );
  [hiveSubgraph, apolloSubgraph] = await Promise.all([
    startSubgraph(),
    startSubgraph({ FEDERATION_REQUIRES_SCOPES: 'false' }),
  ]);
  const auth = { authorization: `Bearer ${reader}` };
  const ids = await hiveSubgraph.stack.query<{
    entities: { nodes: { id: string }[] };
    events: { nodes: { id: string }[] };
  }>('{ entities(first: 5) { nodes { id } } events(first: 10) { nodes { id } } }', undefined, auth);
  expect(ids.errors).toBeUndefined();
  entityIds = ids.data!.entities.nodes.map((n) => n.id);
  // Some seeded events are password protected (a single read answers 403): keep readable ones.
  eventIds = [];
  for (const { id } of ids.data!.events.nodes) {
    const one = await hiveSubgraph.stack.query('query ($id: ID!) { event(id: $id) { id } }', { id }, auth);
    if (!one.errors && eventIds.length < 2) eventIds.push(String(id));
  }

  hive = await startHiveGateway({
    supergraphSdl: await supergraphOf(hiveSubgraph),
    env: {
      FEDERATION_SECRET: SECRET,
      IDP_JWKS_URL: issuer.jwksUrl,
      IDP_ISSUER: issuer.issuer,
      IDP_AUDIENCE: DEV_AUDIENCE,
    },
  });
  apollo = await startRouter(
    new ApolloGateway({
      supergraphSdl: await supergraphOf(apolloSubgraph),
      // The caller's credential to every subgraph; the router's own secret to the gateway only.
      buildService: ({ name, url }) =>
        new RemoteGraphQLDataSource<{ authorization?: string }>({
          url,
          willSendRequest({ request, context }) {
            if (context.authorization) request.http!.headers.set('authorization', context.authorization);
            if (name === 'gateway') request.http!.headers.set('x-federation-secret', SECRET);
          },
        }),
      logger: quietLogger,
    }),
  );
  servers.push(apollo.server);
}, 120_000);

afterAll(async () => {
  await Promise.all([hive?.stop(), apollo?.stop(), issuer?.close()]);
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

describe("the router's own credential", () => {
  it('fetches _service with an API key of its own and the secret; the secret alone is 401, the key alone FORBIDDEN', async () => {
    const both = await fetchSdl(hiveSubgraph.url, {
      authorization: `Bearer ${ROUTER_KEY}`,
      'x-federation-secret': SECRET,
    });
    expect(both.status).toBe(200);
    expect(((await both.json()) as { data: { _service: { sdl: string } } }).data._service.sdl).toContain(
      '@requiresScopes',
    );
    const secretOnly = await fetchSdl(hiveSubgraph.url, { 'x-federation-secret': SECRET });
    expect(secretOnly.status).toBe(401);
    const keyOnly = (await (await fetchSdl(hiveSubgraph.url, { authorization: `Bearer ${ROUTER_KEY}` })).json()) as {
      errors: { extensions: { code: string } }[];
    };
    expect(keyOnly.errors[0]!.extensions.code).toBe('FORBIDDEN');
  });

  it('@apollo/gateway refuses the enforcing form and loads the one FEDERATION_REQUIRES_SCOPES=false serves', async () => {
    const enforcing = new ApolloGateway({ supergraphSdl: await supergraphOf(hiveSubgraph), logger: quietLogger });
    await expect(enforcing.load()).rejects.toThrow(/requiresScopes\/v0\.1 is for: SECURITY but is unsupported/);
    const sdl = await supergraphOf(apolloSubgraph);
    expect(sdl).not.toContain('requiresScopes');
    expect(sdl).toContain('@join__type(graph: GATEWAY, key: "id")');
  });
});

type Answer<T> = {
  data?: T | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
};

const routers: {
  name: string;
  subgraph: () => Subgraph;
  query: <T>(q: string, v?: object, h?: object) => Promise<Answer<T>>;
}[] = [
  {
    name: 'Hive Gateway',
    subgraph: () => hiveSubgraph,
    query: async (query, variables, headers) =>
      (await fetch(hive.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query, variables }),
      }).then((r) => r.json())) as never,
  },
  {
    name: '@apollo/gateway',
    subgraph: () => apolloSubgraph,
    query: (query, variables, headers) =>
      apollo.query(query, variables as Record<string, unknown>, headers as Record<string, string>) as never,
  },
];

describe.each(routers)('behind $name', ({ subgraph, query }) => {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it("answers a query across both subgraphs, in both directions, forwarding the caller's Authorization to each", async () => {
    const [first, second] = entityIds as [string, string];
    const before = { gateway: subgraph().authorizations.length, risk: riskAuthorizations.length };
    const res = await query<{
      entity: { id: string; name: string; riskScore: number };
      event: { id: string; title: string; attendance: number };
      riskiest: { id: string; name: string; kind: string; riskScore: number };
      reviewers: {
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: { id: string; name: string }[];
      };
      entities: { pageInfo: { hasNextPage: boolean }; nodes: { id: string }[] };
    }>(
      `query Cross($id: ID!, $eventId: ID!) {
        entity(id: $id) { id name riskScore }
        event(id: $eventId) { id title attendance }
        riskiest { id name kind riskScore }
        reviewers { pageInfo { hasNextPage endCursor } nodes { id name } }
        entities(first: 2) { pageInfo { hasNextPage } nodes { id } }
      }`,
      { id: first, eventId: eventIds[0] },
      bearer(reader),
    );
    expect(res.errors).toBeUndefined();
    const direct = await subgraph().stack.query<{
      entity: { name: string };
      event: { title: string };
      second: { name: string; kind: string };
    }>(
      'query ($a: ID!, $b: ID!, $e: ID!) { entity(id: $a) { name } event(id: $e) { title } second: entity(id: $b) { name kind } }',
      { a: first, b: second, e: eventIds[0] },
      bearer(reader),
    );
    expect(res.data!.entity).toEqual({ id: first, name: direct.data!.entity.name, riskScore: riskScore(first) });
    expect(res.data!.event).toEqual({
      id: eventIds[0],
      title: direct.data!.event.title,
      attendance: riskScore(eventIds[0]!) * 10,
    });
    // The second subgraph knows an id only; the router fetches the rest from this gateway (_entities).
    expect(res.data!.riskiest).toEqual({ id: second, ...direct.data!.second, riskScore: riskScore(second) });
    // Each subgraph's PageInfo (shareable) and the other's own User answer side by side.
    expect(res.data!.reviewers).toEqual({ pageInfo: { hasNextPage: false, endCursor: 'r2' }, nodes: REVIEWERS });
    expect(res.data!.entities.nodes.map((n) => n.id)).toEqual(entityIds.slice(0, 2));
    expect(res.data!.entities.pageInfo.hasNextPage).toBe(true);
    // Both subgraphs were called (the gateway at least twice: the root fields, then _entities), each
    // with the caller's own credential.
    const toGateway = subgraph().authorizations.slice(before.gateway);
    const toRisk = riskAuthorizations.slice(before.risk);
    expect(toGateway.length).toBeGreaterThanOrEqual(2);
    expect(toRisk.length).toBeGreaterThanOrEqual(1);
    expect(new Set([...toGateway, ...toRisk])).toEqual(new Set([`Bearer ${reader}`]));
  });

  it("checks the caller's permissions on _entities: governance records are FORBIDDEN to a calendar-only caller, nothing read", async () => {
    subgraph().stack.clearRequests();
    const res = await query<{ event: { title: string } | null; riskiest: { name: string } | null }>(
      'query ($e: ID!) { event(id: $e) { title } riskiest { id riskScore name } }',
      { e: eventIds[0] },
      bearer(calendarOnly),
    );
    // The event answers; the record the second subgraph points at is refused by this gateway itself.
    expect(res.data?.event?.title).toBeTruthy();
    expect(res.data?.riskiest).toBeNull();
    expect(res.errors?.map((e) => e.message)).toContainEqual(
      '_entities needs the permission governance:read, which you do not have.',
    );
    expect(countRequests(subgraph().stack.governance, /^(?!POST .*token)/)).toBe(0);
  });

  it('answers a caller without a token with the second subgraph only: this gateway is 401 to it', async () => {
    subgraph().stack.clearRequests();
    const res = await query<{ reviewers: { nodes: unknown[] } | null; entity: unknown }>(
      'query ($id: ID!) { reviewers { nodes { id } } entity(id: $id) { id name } }',
      { id: entityIds[0] },
    );
    expect(res.data?.reviewers?.nodes).toEqual(REVIEWERS.map(({ id }) => ({ id })));
    expect(res.data?.entity ?? null).toBeNull();
    expect(res.errors?.length).toBeGreaterThan(0);
    expect(countRequests(subgraph().stack.governance) + countRequests(subgraph().stack.calendar)).toBe(0);
  });
});

describe('Hive Gateway enforces @requiresScopes itself', () => {
  it('refuses a root field the token lacks the scope of, before the gateway is asked for it; the rest answers', async () => {
    hiveSubgraph.stack.clearRequests();
    const res = await routers[0]!.query<{ entity: unknown; event: { title: string } | null }>(
      'query ($id: ID!, $e: ID!) { entity(id: $id) { id name } event(id: $e) { title } }',
      { id: entityIds[0], e: eventIds[0] },
      { authorization: `Bearer ${calendarOnly}` },
    );
    expect(res.data?.entity ?? null).toBeNull();
    expect(res.data?.event?.title).toBeTruthy();
    expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['UNAUTHORIZED_FIELD_OR_TYPE']);
    expect(countRequests(hiveSubgraph.stack.governance)).toBe(0);
  });

  it('holds no scope for an API key (not a JWT): every root field is refused there, nothing sent', async () => {
    const before = hiveSubgraph.authorizations.length;
    const res = await routers[0]!.query(
      'query ($e: ID!) { event(id: $e) { title } }',
      { e: eventIds[0] },
      {
        authorization: `Bearer ${ROUTER_KEY}`,
      },
    );
    expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['UNAUTHORIZED_FIELD_OR_TYPE']);
    expect(hiveSubgraph.authorizations.length).toBe(before);
  });

  it('runs the config docs/federation.md shows', () => {
    const docs = readFileSync(new URL('../docs/federation.md', import.meta.url), 'utf8');
    const block = /`gateway\.config\.mjs`[\s\S]*?```js\n([\s\S]*?)```/.exec(docs)?.[1];
    expect(block).toBe(hiveGatewayConfig());
  });
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

/** The second subgraph's pick: it knows ids only. */
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

/** A stable number per id, so the test knows what the second subgraph must have answered. */
function riskScore(id: string): number {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) % 97;
  return h;
}

const quietLogger = { debug() {}, info() {}, warn() {}, error() {} };
