/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP, on the official SDK's HTTP entry
 * (`createMcpHandler`), which serves 2026-07-28 clients (no handshake, `server/discover`, a `_meta`
 * envelope on every request, `Mcp-Method`/`Mcp-Name` checked against the body) and 2025-era clients
 * (`initialize`, stateless) from one endpoint and one tool set. Nothing is kept between requests: any
 * replica answers any request (tasks and confirmations carry their state in Redis or a sealed token).
 * As a Yoga plugin, an MCP request passes the same door as any other (authentication, CORS, the
 * shutdown drain), and each tool call is a GraphQL request to the gateway's own endpoint (call.ts).
 *
 * Before the SDK sees it, the body is read under the gateway's body limit (413 over it), a JSON-RPC
 * batch is held to GRAPHQL_MAX_BATCH like a GraphQL batch (refused when batching is off), and a tool
 * call the caller lacks a permission for is answered 403 `insufficient_scope` naming the permissions
 * it needs (401 for a caller without credentials), so the client can step up. Write tools are listed
 * only with `MCP_MUTATIONS=true`; tools of an upstream in forward auth mode are not offered at all (an
 * agent's token never goes upstream).
 */
import { createMcpHandler, readRequestBody, type AuthInfo } from '@modelcontextprotocol/server';
import { createHash } from 'node:crypto';
import type { GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config/config.js';
import type { RedisLink } from '../core/redis.js';
import { bearerChallenge } from '../http/authenticate.js';
import { metadataUrl, publicOrigin } from '../http/protected-resource.js';
import { parsePermissions } from '../identity/permissions.js';
import { anonymous, missingPermission, principalOf, type Principal } from '../identity/principal.js';
import type { GatewayFetch } from './call.js';
import { Confirmations } from './confirm.js';
import { mcpServer, toolsFor, type ServerParts } from './server.js';
import { TaskStore } from './tasks.js';
import { loadTools, type Tool } from './tools.js';
import { incomingOf } from '../http/plugins/hook-args.js';

export interface McpOptions {
  schema: GraphQLSchema;
  config: Pick<Config, 'mcp' | 'persistedOperations' | 'auth' | 'governance' | 'calendar' | 'security'>;
  fetch: GatewayFetch;
  /** Where tasks live when replicas share them. */
  redis?: RedisLink;
  /** When an upstream's account budget frees its next point (ms; 0 when it has some now). */
  freesInMs: (upstream: string) => number;
}

export function useMcp({ schema, config, fetch, redis, freesInMs }: McpOptions): Plugin {
  const { mcp, security } = config;
  const tools = offeredTools(schema, config);
  const confirmations = new Confirmations(mcp.stateKey, mcp.confirmAboveCalls);
  const parts: ServerParts = {
    tools,
    // Under PERSISTED_OPERATIONS a tool call sends its safelisted document's id, not its text.
    call: { fetch, maxRecords: mcp.maxRecords, maxChars: mcp.maxChars, byId: config.persistedOperations !== 'off' },
    confirmations,
    tasks: new TaskStore(redis),
    freesInMs,
    manifest: createHash('sha256')
      .update(JSON.stringify(tools.map((t) => t.definition)))
      .digest('base64url'),
  };
  const handler = createMcpHandler(
    ({ era, authInfo }) => {
      const principal = (authInfo?.extra as { principal: Principal }).principal;
      return mcpServer(parts, principal, era, toolsFor(tools, principal, mcp.mutations));
    },
    { legacy: 'stateless', responseMode: 'json', maxRequestBodySize: security.maxRequestBodyBytes },
  );
  // Authentication runs before this plugin and sets the principal; a request it let through without
  // one is an anonymous caller with AUTH_ANONYMOUS's permissions, never more.
  const nobody = anonymous(parsePermissions(config.auth.anonymous).permissions);
  return {
    async onRequest(payload) {
      const { request, url, serverContext, fetchAPI } = payload;
      if (url.pathname !== '/mcp') return;
      const req = incomingOf(serverContext);
      const principal = principalOf(req) ?? principalOf(request) ?? nobody;
      const authInfo: AuthInfo = {
        token: '',
        clientId: principal.id,
        scopes: [...principal.permissions],
        extra: { principal },
      };
      if (request.method !== 'POST') return payload.endResponse(await handler.fetch(request, { authInfo }));
      const body = await readRequestBody(request, security.maxRequestBodyBytes);
      if (body.tooLarge)
        return payload.endResponse(
          jsonRpcError(413, null, -32600, `The body is over the limit of ${security.maxRequestBodyBytes} bytes.`),
        );
      const parsed = parseJson(body.text);
      const refusal =
        parsed === undefined
          ? undefined
          : refuse(parsed, security.maxBatch, tools, principal, (p, a) => challengeOf(request, url, p, a));
      if (refusal) return payload.endResponse(refusal);
      const forwarded =
        parsed === undefined
          ? new fetchAPI.Request(request.url, { method: 'POST', headers: request.headers, body: body.text })
          : request;
      payload.endResponse(
        await handler.fetch(forwarded, { authInfo, ...(parsed === undefined ? {} : { parsedBody: parsed }) }),
      );
    },
  };
}

/** The tools this configuration offers: none of an upstream the caller's own credential would read. */
function offeredTools(schema: GraphQLSchema, config: McpOptions['config']): Tool[] {
  const { maxRecords, maxChars } = config.mcp;
  const forwarded = (['governance', 'calendar'] as const).filter((u) => config[u].authMode === 'forward');
  return loadTools({ schema, maxRecords, maxChars }).filter(
    (t) => !forwarded.some((u) => (t.estimate.max[u] ?? 0) > 0),
  );
}

/** A batch over the bound, or a tool call the caller may not make: the answer; otherwise undefined. */
function refuse(
  message: unknown,
  maxBatch: number,
  tools: Tool[],
  principal: Principal,
  challenge: (permissions: string[], anonymous: boolean) => string,
): Response | undefined {
  if (Array.isArray(message)) {
    if (maxBatch === 0)
      return jsonRpcError(400, null, -32600, 'JSON-RPC batches are not accepted here: send one request per POST.');
    if (message.length > maxBatch)
      return jsonRpcError(
        400,
        null,
        -32600,
        `A JSON-RPC batch holds at most ${maxBatch} requests (GRAPHQL_MAX_BATCH); this one has ${message.length}.`,
      );
    for (const m of message) {
      const refused = refuse(m, maxBatch, tools, principal, challenge);
      if (refused) return refused;
    }
    return undefined;
  }
  const { id, method, params } = (message ?? {}) as { id?: unknown; method?: unknown; params?: { name?: unknown } };
  if (method !== 'tools/call') return undefined;
  const tool = tools.find((t) => t.definition.name === params?.name);
  const missing = tool && missingPermission(principal, tool.permissions);
  if (!tool || !missing) return undefined;
  const needed = tool.permissions.filter((p) => !principal.permissions.has(p));
  const unauthenticated = principal.kind === 'anonymous';
  const text = `${tool.definition.name} needs the permission${needed.length > 1 ? 's' : ''} ${needed.join(' ')}, which this credential does not hold.`;
  const res = jsonRpcError(unauthenticated ? 401 : 403, id ?? null, -32001, text);
  res.headers.set('www-authenticate', challenge(needed, unauthenticated));
  return res;
}

/** `insufficient_scope` for a credential that lacks them; a plain challenge for a caller without one. */
function challengeOf(request: Request, url: URL, permissions: string[], anonymous: boolean): string {
  const origin = publicOrigin((n) => request.headers.get(n), url.protocol.replace(':', ''));
  const resourceMetadata = metadataUrl(origin, '/mcp');
  return bearerChallenge({
    ...(anonymous ? {} : { error: 'insufficient_scope' }),
    scope: permissions,
    resourceMetadata,
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // the SDK answers the parse error
  }
}

function jsonRpcError(status: number, id: unknown, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * What a 401 on `/mcp` asks the issuer for, from the `Mcp-Method`/`Mcp-Name` headers alone: a tool
 * call's own permissions, else the read tools' (enough to list and read).
 */
export function challengeScope(
  schema: GraphQLSchema,
  config: McpOptions['config'],
): (method: string | undefined, name: string | undefined) => readonly string[] {
  const tools = offeredTools(schema, config);
  const reads = [...new Set(tools.filter((t) => !t.write).flatMap((t) => t.permissions))].sort();
  return (method, name) => {
    const tool = method === 'tools/call' ? tools.find((t) => t.definition.name === name) : undefined;
    return tool?.permissions.length ? tool.permissions : reads;
  };
}
