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
import { anonymous, missingPermission, principalOf } from '../identity/principal.js';
import { callTool, type GatewayFetch } from './call.js';
import { loadTools } from './tools.js';

export interface McpOptions {
  schema: GraphQLSchema;
  config: Pick<Config, 'mcp' | 'persistedOperations' | 'auth' | 'governance' | 'calendar'>;
  fetch: GatewayFetch;
}

export function useMcp({ schema, config, fetch }: McpOptions): Plugin {
  const { mcp } = config;
  const { maxRecords, maxChars } = mcp;
  // Upstreams read with each caller's own credential: an agent's token never goes upstream.
  const forwarded = (['governance', 'calendar'] as const).filter((u) => config[u].authMode === 'forward');
  const tools = loadTools({ schema, maxRecords, maxChars }).filter(
    (t) => !forwarded.some((u) => (t.estimate.max[u] ?? 0) > 0),
  );
  // Under PERSISTED_OPERATIONS a tool call sends its safelisted document's id, not its text.
  const call = { fetch, maxRecords, maxChars, byId: config.persistedOperations !== 'off' };
  // Authentication runs before this plugin and sets the principal; a request it let through without
  // one is an anonymous caller with AUTH_ANONYMOUS's permissions, never more.
  const nobody = anonymous(parsePermissions(config.auth.anonymous).permissions);
  return {
    async onRequest(payload) {
      const { request, url, serverContext } = payload;
      if (url.pathname !== '/mcp') return;
      const req = (serverContext as { req?: object } | undefined)?.req;
      const principal = principalOf(req) ?? principalOf(request) ?? nobody;
      const visible = tools.filter((t) => !t.write || (mcp.mutations && !missingPermission(principal, t.permissions)));
      const server = new Server({ name: 'governance-calendar-gateway', version: '1' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: visible.map((t) => t.definition) }));
      server.setRequestHandler(CallToolRequestSchema, ({ params }): Promise<CallToolResult> | CallToolResult => {
        const tool = visible.find((t) => t.definition.name === params.name);
        if (!tool) return unknownTool(params.name);
        return callTool(tool, params.arguments ?? {}, principal, call);
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

function unknownTool(name: string): CallToolResult {
  return {
    isError: true,
    content: [
      { type: 'text', text: `There is no tool "${name}" for this caller; tools/list shows the ones there are.` },
    ],
  };
}
