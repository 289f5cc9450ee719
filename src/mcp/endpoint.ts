/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP (the official SDK's web-standard
 * transport, stateless: one server per request), as a Yoga plugin, so an MCP request passes the
 * same door as any other (authentication, CORS, the shutdown drain) and each tool call is a GraphQL
 * request to the gateway's own endpoint (call.ts). Write tools are listed only with
 * `MCP_MUTATIONS=true` and to callers holding their permissions; tools of an upstream in forward
 * auth mode are not offered at all (an agent's token never goes upstream).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config/config.js';
import { parsePermissions } from '../identity/permissions.js';
import { anonymous, missingPermission, principalOf, type Principal } from '../identity/principal.js';
import { callTool, type GatewayFetch } from './call.js';
import { loadTools, safelistByName, type Tool } from './tools.js';

export interface McpOptions {
  schema: GraphQLSchema;
  config: Pick<Config, 'mcp' | 'persistedOperations' | 'auth' | 'governance' | 'calendar'>;
  /** The gateway's own endpoint (Yoga's `fetch`). */
  fetch: GatewayFetch;
  path?: string;
}

export function useMcp(options: McpOptions): Plugin {
  const { mcp } = options.config;
  const tools = loadTools({ schema: options.schema, maxRecords: mcp.maxRecords, maxChars: mcp.maxChars }).filter(
    (t) => !forwardedUpstreams(options.config).some((u) => (t.estimate.max[u] ?? 0) > 0),
  );
  const documentIds = options.config.persistedOperations === 'off' ? undefined : safelistIds();
  const path = options.path ?? '/mcp';
  const call = { fetch: options.fetch, maxRecords: mcp.maxRecords, maxChars: mcp.maxChars, documentIds };
  // Authentication runs before this plugin and sets the principal; a request it let through without
  // one is an anonymous caller with AUTH_ANONYMOUS's permissions, never more.
  const nobody = anonymous(parsePermissions(options.config.auth.anonymous).permissions);
  return {
    async onRequest(payload) {
      const { request, url, serverContext } = payload;
      if (url.pathname !== path) return;
      const req = (serverContext as { req?: object } | undefined)?.req;
      const principal = principalOf(req) ?? principalOf(request) ?? nobody;
      const visible = tools.filter((t) => t.kind === 'query' || (mcp.mutations && allowed(t, principal)));
      const server = new Server({ name: 'governance-calendar-gateway', version: '1' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: visible.map(definition) }));
      server.setRequestHandler(CallToolRequestSchema, ({ params }): Promise<CallToolResult> | CallToolResult => {
        const tool = visible.find((t) => t.name === params.name);
        if (!tool) return unknownTool(params.name);
        return callTool(tool, params.arguments ?? {}, { principal }, call);
      });
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
      await server.connect(transport);
      try {
        payload.endResponse(await transport.handleRequest(request));
      } finally {
        await server.close();
      }
    },
  };
}

/**
 * Upstreams read with each caller's own credential (`*_AUTH_MODE=forward`). An agent's token is
 * never passed upstream, so their tools are not offered.
 */
function forwardedUpstreams(config: Pick<Config, 'governance' | 'calendar'>) {
  return (['governance', 'calendar'] as const).filter((u) => config[u].authMode === 'forward');
}

function allowed(tool: Tool, principal: Principal): boolean {
  return !missingPermission(principal, tool.permissions);
}

/** What `tools/list` shows of a tool. */
export function definition(t: Tool) {
  return {
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema as { type: 'object' },
    outputSchema: t.outputSchema as { type: 'object' },
    annotations: t.annotations,
  };
}

function unknownTool(name: string): CallToolResult {
  return {
    isError: true,
    content: [
      { type: 'text', text: `There is no tool "${name}" for this caller; tools/list shows the ones there are.` },
    ],
  };
}

/** Operation name → safelisted document id, so tool calls pass PERSISTED_OPERATIONS=only. */
function safelistIds(): Map<string, string> {
  return new Map([...safelistByName()].map(([name, { id }]) => [name, id]));
}
