/**
 * The load side of single operations: GraphQL over real HTTP (undici, keep-alive pool), timing each
 * operation and reading its answer. Throughput runs use the lean socket loop of load.ts.
 */
import { Pool } from 'undici';

export interface GraphQLResult {
  ms: number;
  status: number;
  errors: { message: string; path?: (string | number)[]; extensions?: { code?: string } }[];
  data: unknown;
  /** Upstream requests the gateway says it made (`extensions.cost.<name>.actual`), per upstream. */
  gatewayRequests: Record<string, number>;
  /** Length of the response body, in characters. */
  bytes: number;
  /** Marked `extensions.stale` (some answer came from an expired cache entry). */
  stale: boolean;
  /** Answered whole from the response cache (`extensions.cost.<name>.cached`). */
  cached: boolean;
}

export class GraphQLClient {
  private readonly pool: Pool;
  private readonly path: string;

  /** `headers`: sent with every operation (a caller's credentials). */
  constructor(
    url: string,
    connections = 16,
    private readonly headers: Record<string, string> = {},
  ) {
    const u = new URL(url);
    // A hung gateway must fail the run, not hang the bench.
    this.pool = new Pool(u.origin, {
      connections,
      keepAliveTimeout: 30_000,
      pipelining: 1,
      headersTimeout: 60_000,
      bodyTimeout: 60_000,
    });
    this.path = u.pathname;
  }

  private send(query: string, variables: Record<string, unknown>) {
    return this.pool.request({
      method: 'POST',
      path: this.path,
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
        // The production profile's CSRF prevention wants a header a browser cannot send cross-site.
        'x-graphql-yoga-csrf': 'bench',
        ...this.headers,
      },
      body: JSON.stringify({ query, variables }),
    });
  }

  async run(query: string, variables: Record<string, unknown> = {}): Promise<GraphQLResult> {
    const started = performance.now();
    const res = await this.send(query, variables);
    const text = await res.body.text();
    const ms = performance.now() - started;
    let body: {
      data?: unknown;
      errors?: GraphQLResult['errors'];
      extensions?: { stale?: boolean; cost?: Record<string, { actual?: number; cached?: boolean }> };
    } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      body = { errors: [{ message: `HTTP ${res.statusCode}, not JSON: ${text.slice(0, 200)}` }] };
    }
    const cost = Object.entries(body.extensions?.cost ?? {});
    const gatewayRequests = Object.fromEntries(cost.map(([name, u]) => [name, u.actual ?? 0]));
    return {
      ms,
      status: res.statusCode,
      errors: body.errors ?? [],
      data: body.data ?? null,
      gatewayRequests,
      bytes: text.length,
      stale: body.extensions?.stale === true,
      cached: cost.some(([, u]) => u.cached === true),
    };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export function round(n: number, digits = 2): number {
  if (!Number.isFinite(n)) return n;
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
