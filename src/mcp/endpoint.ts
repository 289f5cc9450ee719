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
import { headerMismatch, routeLabels } from './headers.js';
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
  observe?: McpObserver;
}

/** A tool call refused before it ran, for a permission the caller lacks (401 or 403). */
export interface RefusedCall {
  tool: string;
  args: unknown;
  status: number;
  reason: string;
}

/** What the metrics and the audit are told of `/mcp` (app/plugins.ts wires them). */
export interface McpObserver {
  /** Every request once answered, named by its `Mcp-Method`/`Mcp-Name` headers (headers.ts). */
  request?(e: { method: string; tool: string; status: number; durationMs: number }): void;
  refused?(request: Request, principal: Principal, call: RefusedCall): void;
}

/** JSON-RPC's code for headers that disagree with the body (2026-07-28). */
const HEADER_MISMATCH = -32020;

export function useMcp({ schema, config, fetch, redis, freesInMs, observe }: McpOptions): Plugin {
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
    // The default response mode (`auto`) answers one JSON body unless a handler sends a message
    // before its result; these send none (a confirmation is an `input_required` result, not a
    // mid-call request), so every answer is JSON without `json` mode, which warns at every start.
    { legacy: 'stateless', maxRequestBodySize: security.maxRequestBodyBytes },
  );
  // Authentication runs before this plugin and sets the principal; a request it let through without
  // one is an anonymous caller with AUTH_ANONYMOUS's permissions, never more.
  const nobody = anonymous(parsePermissions(config.auth.anonymous).permissions);
  const names = new Set(tools.map((t) => t.definition.name));
  const serve = async (request: Request, url: URL, principal: Principal, fetchAPI: { Request: typeof Request }) => {
    const authInfo: AuthInfo = {
      token: '',
      clientId: principal.id,
      scopes: [...principal.permissions],
      extra: { principal },
    };
    if (request.method !== 'POST') return { response: await handler.fetch(request, { authInfo }) };
    const body = await readRequestBody(request, security.maxRequestBodyBytes);
    if (body.tooLarge) {
      const text = `The body is over the limit of ${security.maxRequestBodyBytes} bytes.`;
      return { response: jsonRpcError(413, null, -32600, text) };
    }
    const message = parseJson(body.text);
    if (message === undefined) {
      // The SDK answers the parse error.
      const copy = new fetchAPI.Request(request.url, { method: 'POST', headers: request.headers, body: body.text });
      return { response: await handler.fetch(copy, { authInfo }) };
    }
    const mismatch = headerMismatch(request.headers, message);
    const refusal = mismatch
      ? jsonRpcError(
          400,
          idOf(message),
          HEADER_MISMATCH,
          `Bad Request: the request headers and body disagree: ${mismatch}`,
        )
      : refuse(message, security.maxBatch, tools, principal, {
          challenge: (p, a) => challengeOf(request, url, p, a),
          refused: (call) => observe?.refused?.(request, principal, call),
        });
    return { message, response: refusal ?? (await handler.fetch(request, { authInfo, parsedBody: message })) };
  };
  return {
    async onRequest(payload) {
      const { request, url, serverContext, fetchAPI } = payload;
      if (url.pathname !== '/mcp') return;
      const started = performance.now();
      const req = incomingOf(serverContext);
      const principal = principalOf(req) ?? principalOf(request) ?? nobody;
      const { response, message } = await serve(request, url, principal, fetchAPI);
      observe?.request?.({
        ...routeLabels(request.headers, message, names),
        status: response.status,
        durationMs: performance.now() - started,
      });
      payload.endResponse(response);
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
  on: {
    challenge: (permissions: string[], anonymous: boolean) => string;
    refused: (call: RefusedCall) => void;
  },
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
      const refused = refuse(m, maxBatch, tools, principal, on);
      if (refused) return refused;
    }
    return undefined;
  }
  const { id, method, params } = (message ?? {}) as {
    id?: unknown;
    method?: unknown;
    params?: { name?: unknown; arguments?: unknown };
  };
  if (method !== 'tools/call') return undefined;
  const tool = tools.find((t) => t.definition.name === params?.name);
  const missing = tool && missingPermission(principal, tool.permissions);
  if (!tool || !missing) return undefined;
  const needed = tool.permissions.filter((p) => !principal.permissions.has(p));
  const unauthenticated = principal.kind === 'anonymous';
  const text = `${tool.definition.name} needs the permission${needed.length > 1 ? 's' : ''} ${needed.join(' ')}, which this credential does not hold.`;
  const res = jsonRpcError(unauthenticated ? 401 : 403, id ?? null, -32001, text);
  res.headers.set('www-authenticate', on.challenge(needed, unauthenticated));
  on.refused({ tool: tool.definition.name, args: params?.arguments ?? {}, status: res.status, reason: text });
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

function idOf(message: unknown): unknown {
  return (message as { id?: unknown } | null)?.id ?? null;
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
