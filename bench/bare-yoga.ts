/**
 * The throughput baseline: a bare graphql-yoga server with a one-field schema, answering
 * `{ __typename }`, in its own process, measured in the same run and the same way as the gateway.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSchema, createYoga } from 'graphql-yoga';
import { announceReady, serveParent } from './ipc.js';

const yoga = createYoga({
  schema: createSchema({ typeDefs: 'type Query { ok: Boolean }', resolvers: { Query: { ok: () => true } } }),
  graphqlEndpoint: '/graphql',
  graphiql: false,
  landingPage: false,
  logging: false,
});
const server = createServer(yoga);
server.keepAliveTimeout = 60_000;
serveParent({});
server.listen(0, '127.0.0.1', () => {
  announceReady(`http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`);
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
