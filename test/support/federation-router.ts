/**
 * A minimal router for tests: `@apollo/gateway` loaded with a static supergraph, served over HTTP on
 * loopback. The gateway plans each query and calls the subgraphs over real HTTP; this file only
 * parses the request and hands the gateway the request context it expects (Apollo Server is not a
 * dependency of the project), with the caller's `Authorization` in `context.authorization`, where a
 * `RemoteGraphQLDataSource` forwards it from (docs/federation.md).
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApolloGateway } from '@apollo/gateway';
import { getOperationAST, parse, type GraphQLSchema } from 'graphql';

export interface Router {
  url: string;
  server: Server;
  query<T>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<{
    data?: T | null;
    errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
  }>;
  stop(): Promise<void>;
}

export async function startRouter(gateway: ApolloGateway): Promise<Router> {
  const { schema, executor } = await gateway.load();
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const { query, variables, operationName } = JSON.parse(body) as {
      query: string;
      variables?: Record<string, unknown>;
      operationName?: string;
    };
    const document = parse(query);
    const context = { authorization: req.headers.authorization };
    const result = await executor(requestContext(schema, document, query, variables, operationName, context) as never);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(result));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  return {
    url,
    server,
    async query(query, variables, headers) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return res.json() as never;
    },
    stop: () => gateway.stop(),
  };
}

function requestContext(
  schema: GraphQLSchema,
  document: ReturnType<typeof parse>,
  query: string,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined,
  context: Record<string, unknown>,
) {
  const operation = getOperationAST(document, operationName);
  return {
    schema,
    document,
    operation,
    operationName: operation?.name?.value ?? null,
    queryHash: createHash('sha256').update(query).digest('hex'),
    request: { query, variables: variables ?? {}, operationName },
    context,
    metrics: {},
    cache: undefined,
    logger: console,
    overallCachePolicy: { restrict() {}, replace() {}, policyIfCacheable: () => null },
  };
}
