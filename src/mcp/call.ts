/**
 * One tool call, run as one GraphQL request through the gateway's own front door (the caller's
 * principal and permissions, the safelist, the estimate, the budgets, the caches and the audit all
 * apply), then shaped for a model: a list's records as `items` with `nextCursor`, cut to the result caps with
 * `truncated: true`, the calls spent and the budget left, and errors an agent can act on, in the
 * tool's words: its argument names, never the operation's variables or input types.
 */
import { createHash } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { setPrincipal, type Principal } from '../identity/principal.js';
import type { Tool } from './tools.js';
import { canonicalJson } from '../core/canonical-json.js';

/** What the GraphQL request's context says of the MCP call (the logs and the audit read it). */
export interface McpCallContext {
  tool: string;
  /** The user confirmed the call (a destructive or expensive one), and how. */
  confirmed?: 'elicitation' | 'token';
  /** The call was run from a task the budget deferred. */
  task?: string;
}

/** The gateway's GraphQL endpoint (Yoga's `fetch`); the server context names the tool for the context and log. */
export type GatewayFetch = (request: Request, serverContext: { mcp: McpCallContext }) => Promise<Response>;

export interface CallOptions {
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
  mcp: Omit<McpCallContext, 'tool'> = {},
  /** The caller's W3C trace context (trace.ts): the operation's span continues its trace. */
  trace: Record<string, string> = {},
): Promise<CallToolResult> {
  const variables = variablesOf(tool, args, principal, options.maxRecords);
  const request = new Request('http://gateway.internal/graphql', {
    method: 'POST',
    headers: {
      ...trace,
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
    },
    body: JSON.stringify(options.byId ? { documentId: tool.documentId, variables } : { query: tool.query, variables }),
  });
  setPrincipal(request, principal);
  const res = await options.fetch(request, { mcp: { tool: tool.definition.name, ...mcp } });
  const body = (await res.json()) as GraphQLBody;
  const cost = costOf(body.extensions?.cost);
  const words = (message: string) => inToolWords(message, tool);
  const failed = body.errors?.length && !Object.values(body.data ?? {}).some((v) => v != null);
  if (failed) return errorResult(body.errors!, res.headers.get('retry-after'), cost, words);
  const errors = body.errors?.map((e) => ({ message: words(e.message), path: e.path, code: e.extensions?.code }));
  const rest = { ...(errors ? { errors } : {}), cost };
  const shaped = tool.list ? listResult(body.data?.[tool.list], options.maxChars, rest) : { data: body.data };
  return result({ ...shaped, ...rest });
}

function variablesOf(tool: Tool, args: Record<string, unknown>, principal: Principal, maxRecords: number) {
  const variables: Record<string, unknown> = {};
  // A spread input object is sent even when none of its arguments is given (`input: {}`).
  for (const { variable, field } of tool.arguments) if (field) variables[variable] = {};
  for (const { argument, variable, field } of tool.arguments) {
    const value = args[argument];
    // An optional argument given as null is one left out (an input field set to null would clear it).
    if (value === undefined || value === null || variable === 'first' || variable === 'after') continue;
    if (field) variables[variable] = { ...(variables[variable] as object), [field]: value };
    else variables[variable] = value;
  }
  if (tool.list) {
    variables.first = Math.min(Number(args.limit ?? maxRecords) || maxRecords, maxRecords);
    if (args.cursor != null) variables.after = args.cursor;
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

/**
 * A message in the tool's vocabulary: a variable (`$entity1`) or the input path it is passed to
 * (`input.entity1`, `filter.startsAfter`) becomes the tool's argument name; GraphQL type names go.
 */
export function inToolWords(message: string, tool: Tool): string {
  let out = message;
  for (const { variable, argument, path, field } of tool.arguments) {
    if (!field) out = out.replace(new RegExp(`\\$${variable}\\b`, 'g'), argument);
    if (path === argument) continue;
    // A dotted path is never an English word; a bare argument name is rewritten only when quoted.
    if (path.includes('.')) out = out.replace(new RegExp(`\\b${path.replaceAll('.', '\\.')}\\b`, 'g'), argument);
    else out = out.replaceAll(`\`${path}\``, `\`${argument}\``).replaceAll(`"${path}"`, `"${argument}"`);
  }
  return out
    .replace(/ of (?:required )?type "?\[?[A-Z]\w*!?\]?!?"?/g, '')
    .replace(/"[A-Z]\w*(?:Input|Filter)!?"/g, 'an object');
}

function errorResult(
  errors: NonNullable<GraphQLBody['errors']>,
  header: string | null,
  cost: unknown,
  words: (message: string) => string,
): CallToolResult {
  const waits = errors.map((e) => Number(e.extensions?.retryAfter)).filter((n) => n > 0);
  const retryAfter = waits.length ? Math.max(...waits) : header ? Number(header) || undefined : undefined;
  const first = errors[0]!;
  const code = first.extensions?.code as string | undefined;
  const advice =
    retryAfter !== undefined
      ? ` Retry this call after ${retryAfter} s, or ask for fewer records; AccountBudget shows what is left.`
      : '';
  const currentVersion = first.extensions?.currentVersion as string | undefined;
  const conflict = currentVersion
    ? ` The current version is ${currentVersion}: read the record again, then retry with it as expectedVersion.`
    : '';
  const error = {
    code,
    message: words(first.message) + advice + conflict,
    ...(retryAfter !== undefined ? { retryAfter } : {}),
    ...(currentVersion ? { currentVersion } : {}),
  };
  return {
    ...result({ error, ...(errors.length > 1 ? { errors: errors.map((e) => words(e.message)) } : {}), cost }),
    isError: true,
  };
}

function result(structured: Record<string, unknown>): CallToolResult {
  const clean = JSON.parse(JSON.stringify(structured)) as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(clean) }], structuredContent: clean };
}
