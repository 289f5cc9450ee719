/**
 * The official MCP clients of both protocol generations, as agents would use them: SDK 2.x
 * (`@modelcontextprotocol/client`, 2026-07-28: `server/discover`, a `_meta` envelope and the
 * `Mcp-Method`/`Mcp-Name` headers on every request) and SDK 1.x (`@modelcontextprotocol/sdk`,
 * 2025-11-25: `initialize`). `urls` of several replicas are taken in turn, request by request (no
 * affinity). The 2.x client answers a confirmation with `confirm` when one is given. `raw` posts a
 * 2026-07-28 request by hand, for what the 2.x client has no call for (the tasks extension).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export type Structured = Record<string, unknown> & {
  cost?: { calls: Record<string, number>; budgetLeft: Record<string, number> };
  items?: Record<string, unknown>[];
  nextCursor?: string | null;
  hasNextPage?: boolean;
  truncated?: boolean;
  data?: Record<string, unknown>;
  error?: { code?: string; message: string; retryAfter?: number; currentVersion?: string; confirmation?: string };
};

export interface ListedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

export interface ToolClient {
  client: Client | LegacyClient;
  listTools(): Promise<{ tools: ListedTool[] } & Record<string, unknown>>;
  call(name: string, args?: Record<string, unknown>): Promise<{ isError: boolean; out: Structured }>;
  close(): Promise<void>;
}

/** Takes `urls` in turn, one request each. */
function roundRobin(urls: string[]): typeof fetch {
  let next = 0;
  return (input, init) => {
    const url = urls[next++ % urls.length]!;
    const target = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    return fetch(new URL(target.pathname + target.search, url), init);
  };
}

const wrap = (client: Client | LegacyClient): ToolClient => ({
  client,
  listTools: () => client.listTools() as never,
  async call(name, args = {}) {
    const res = await client.callTool({ name, arguments: args });
    return { isError: Boolean(res.isError), out: res.structuredContent as Structured };
  },
  close: () => client.close(),
});

/** A 2026-07-28 client (SDK 2.x); `confirm` answers the gateway's confirmation questions. */
export async function modernClient(
  urls: string[],
  options: { headers?: Record<string, string>; confirm?: (message: string) => boolean | Promise<boolean> } = {},
): Promise<ToolClient & { client: Client }> {
  const client = new Client(
    { name: 'mcp-test-2026', version: '1' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: options.confirm ? { elicitation: { form: {} } } : {},
    },
  );
  if (options.confirm) {
    const confirm = options.confirm;
    client.setRequestHandler('elicitation/create', async (request) => {
      const yes = await confirm((request.params as { message: string }).message);
      return yes ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
    });
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(urls[0]!), {
      fetch: roundRobin(urls),
      requestInit: { headers: options.headers ?? {} },
    }),
  );
  return { ...wrap(client), client };
}

/** A 2025-11-25 client (SDK 1.x). */
export async function legacyClient(urls: string[], headers: Record<string, string> = {}): Promise<ToolClient> {
  const client = new LegacyClient({ name: 'mcp-test-2025', version: '1' });
  await client.connect(new LegacyTransport(new URL(urls[0]!), { fetch: roundRobin(urls), requestInit: { headers } }));
  return wrap(client);
}

/** One 2026-07-28 JSON-RPC request by hand (with the tasks extension declared), and its answer. */
export async function raw(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { result?: Record<string, unknown>; error?: { code: number; message: string } } }> {
  const name = (params.name ?? params.taskId) as string | undefined;
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
        },
      },
    }),
  });
  return { status: res.status, body: (await res.json()) as never };
}
