/**
 * The `Mcp-Method` and `Mcp-Name` request headers (2026-07-28): what a request is, readable without
 * its body, for the metrics' labels and the audit of a refused call. A request that carries them is
 * held to its body before anything else answers it (either era, so a label never says what the
 * body does not): a mismatch is `-32020`, as the SDK answers a 2026-07-28 request. A request without
 * them (a 2025-era client) is named from the body the endpoint parses anyway.
 */

/** The methods a metric names; anything else is `other`. */
const METHODS = new Set([
  'initialize',
  'notifications/initialized',
  'notifications/cancelled',
  'ping',
  'server/discover',
  'tools/list',
  'tools/call',
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
]);

/** The body field `Mcp-Name` mirrors, by method (SEP-2243 and the tasks binding). */
const NAME_FIELD: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

export interface McpRoute {
  method?: string;
  /** `params.name` of a tool call (or what `Mcp-Name` mirrors for another method). */
  name?: string;
}

/** What the headers say, `Mcp-Name` decoded (`undefined`: absent; `null`: not decodable). */
export function headerRoute(headers: Headers): { method?: string; name?: string | null } {
  const method = headers.get('mcp-method')?.trim();
  const raw = headers.get('mcp-name')?.trim();
  return { method: method || undefined, name: raw === undefined ? undefined : decode(raw) };
}

function decode(value: string): string | null {
  const b64 = SENTINEL.exec(value)?.[1];
  if (b64 === undefined) return value;
  const text = Buffer.from(b64, 'base64');
  return text.toString('base64') === b64 ? text.toString('utf8') : null;
}

function bodyRoute(message: unknown): McpRoute {
  const { method, params } = (message ?? {}) as { method?: unknown; params?: Record<string, unknown> };
  if (typeof method !== 'string') return {};
  const value = NAME_FIELD[method] && params?.[NAME_FIELD[method]];
  return { method, ...(typeof value === 'string' ? { name: value } : {}) };
}

/** Why the headers disagree with the body (one JSON-RPC message), or undefined when they do not. */
export function headerMismatch(headers: Headers, message: unknown): string | undefined {
  const said = headerRoute(headers);
  const body = bodyRoute(message);
  if (!body.method) return undefined;
  if (said.method !== undefined && said.method !== body.method)
    return `the body names method ${body.method} but the Mcp-Method header names ${said.method}`;
  if (said.name === null) return 'the Mcp-Name header carries an invalid Base64 value';
  if (said.name !== undefined && body.name !== undefined && said.name !== body.name)
    return `the body names "${body.name}" but the Mcp-Name header names "${said.name}"`;
  return undefined;
}

/**
 * The labels of one request: its method (one of a fixed list, else `other`; `none` for a GET or an
 * unreadable body) and, for a tool call, the tool when `tools` offers it (else `other`).
 */
export function routeLabels(headers: Headers, message: unknown, tools: ReadonlySet<string>) {
  const said = headerRoute(headers);
  const body = bodyRoute(message);
  const method = said.method ?? body.method;
  const name = (said.name ?? body.name) || undefined;
  return {
    method: method === undefined ? 'none' : METHODS.has(method) ? method : 'other',
    tool: method !== 'tools/call' ? '' : name && tools.has(name) ? name : 'other',
  };
}
