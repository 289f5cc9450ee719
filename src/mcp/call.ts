/**
 * One tool call, run as one GraphQL request through the gateway's own front door (the caller's
 * principal and permissions, the safelist, the estimate, the budgets, the caches and the audit all
 * apply), then shaped for a model: a list's records as `items` with `nextCursor`, cut to the result caps with
 * `truncated: true`, the calls spent and the budget left, and errors an agent can act on.
 */
import { createHash } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { setPrincipal, type Principal } from '../identity/principal.js';
import type { Tool } from './tools.js';
import { canonicalJson } from '../core/canonical-json.js';

/** The gateway's GraphQL endpoint (Yoga's `fetch`); the server context names the tool for the context and log. */
export type GatewayFetch = (request: Request, serverContext: { mcp: { tool: string } }) => Promise<Response>;

interface CallOptions {
  fetch: GatewayFetch;
  maxRecords: number;
  maxChars: number;
  /** Send the safelisted document's id rather than its text (PERSISTED_OPERATIONS on). */
  byId: boolean;
}

interface GraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: unknown[]; extensions?: Record<string, unknown> }[];
  extensions?: { cost?: Record<string, CostEntry> };
}

/** One upstream of `extensions.cost` (core/cost-report.ts), as far as a tool result needs it. */
interface CostEntry {
  actual: number;
  cached?: boolean;
  remaining?: number;
}

/**
 * `principal` is the one authentication gave the MCP request. The tool call carries it to the
 * gateway's endpoint as the request's principal, not the agent's token: no header of the agent's
 * can reach an upstream (forward mode passes the request's `Authorization` on).
 */
export async function callTool(
  tool: Tool,
  args: Record<string, unknown>,
  principal: Principal,
  options: CallOptions,
): Promise<CallToolResult> {
  const variables = variablesOf(tool, args, principal, options.maxRecords);
  const request = new Request('http://gateway.internal/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
    body: JSON.stringify(options.byId ? { documentId: tool.documentId, variables } : { query: tool.query, variables }),
  });
  setPrincipal(request, principal);
  const res = await options.fetch(request, { mcp: { tool: tool.definition.name } });
  const body = (await res.json()) as GraphQLBody;
  const cost = costOf(body.extensions?.cost);
  const failed = body.errors?.length && !Object.values(body.data ?? {}).some((v) => v != null);
  if (failed) return errorResult(body.errors!, res.headers.get('retry-after'), cost);
  const errors = body.errors?.map((e) => ({ message: e.message, path: e.path, code: e.extensions?.code }));
  const rest = { ...(errors ? { errors } : {}), cost };
  const shaped = tool.list ? listResult(body.data?.[tool.list], options.maxChars, rest) : { data: body.data };
  return result({ ...shaped, ...rest });
}

function variablesOf(tool: Tool, args: Record<string, unknown>, principal: Principal, maxRecords: number) {
  const { cursor, limit, ...rest } = args;
  const variables: Record<string, unknown> = { ...rest };
  if (tool.list) {
    variables.first = Math.min(Number(limit ?? maxRecords) || maxRecords, maxRecords);
    if (cursor != null) variables.after = cursor;
  }
  // The same call by the same caller gets the same key: a retry returns the first record.
  if (tool.idempotent)
    variables.clientMutationId = `mcp-${createHash('sha256')
      .update(canonicalJson([principal.id, tool.definition.name, args]))
      .digest('base64url')
      .slice(0, 32)}`;
  return variables;
}

interface Connection {
  totalCount?: number | null;
  pageInfo?: { hasNextPage: boolean; endCursor?: string | null };
  edges?: { cursor: string; node: unknown }[];
}

/** A list's records, cut from the end to fit `maxChars` with `rest`, with the cursor where it stops. */
function listResult(value: unknown, maxChars: number, rest: object) {
  const connection = (value ?? {}) as Connection;
  const edges = connection.edges ?? [];
  const page = (n: number, truncated: boolean) => ({
    items: edges.slice(0, n).map((e) => e.node),
    totalCount: connection.totalCount ?? null,
    nextCursor: truncated
      ? edges[n - 1]!.cursor
      : connection.pageInfo?.hasNextPage
        ? connection.pageInfo.endCursor
        : null,
    hasNextPage: truncated || Boolean(connection.pageInfo?.hasNextPage),
    truncated,
  });
  const whole = page(edges.length, false);
  if (edges.length <= 1 || JSON.stringify({ ...whole, ...rest }).length <= maxChars) return whole;
  // A cut page's length is its frame's (no items, an empty cursor) plus its cursor's, its records' and
  // the commas between them: each record is serialized once. The longest page that fits wins; one record
  // is always returned, however long, so a list can always be walked to its end.
  const frame = JSON.stringify({ ...page(1, true), items: [], nextCursor: '', ...rest }).length - 2;
  let n = 1;
  let records = -1;
  for (let i = 0; i < edges.length - 1; i++) {
    records += (JSON.stringify(edges[i]!.node) ?? 'null').length + 1;
    if (frame + records + JSON.stringify(edges[i]!.cursor).length <= maxChars) n = i + 1;
  }
  return page(n, true);
}

function costOf(report: Record<string, CostEntry> | undefined) {
  if (!report) return undefined;
  const calls: Record<string, number> = {};
  const budgetLeft: Record<string, number> = {};
  for (const [upstream, c] of Object.entries(report)) {
    calls[upstream] = c.actual;
    if (c.remaining !== undefined) budgetLeft[upstream] = c.remaining;
  }
  return { calls, budgetLeft, cached: Object.values(report).some((c) => c.cached) };
}

function errorResult(errors: NonNullable<GraphQLBody['errors']>, header: string | null, cost: unknown): CallToolResult {
  const waits = errors.map((e) => Number(e.extensions?.retryAfter)).filter((n) => n > 0);
  const retryAfter = waits.length ? Math.max(...waits) : header ? Number(header) || undefined : undefined;
  const first = errors[0]!;
  const code = first.extensions?.code as string | undefined;
  const advice =
    retryAfter !== undefined
      ? ` Retry this call after ${retryAfter} s, or ask for fewer records; AccountBudget shows what is left.`
      : '';
  const error = { code, message: first.message + advice, ...(retryAfter !== undefined ? { retryAfter } : {}) };
  return {
    ...result({ error, ...(errors.length > 1 ? { errors: errors.map((e) => e.message) } : {}), cost }),
    isError: true,
  };
}

function result(structured: Record<string, unknown>): CallToolResult {
  const clean = JSON.parse(JSON.stringify(structured)) as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(clean) }], structuredContent: clean };
}
