/**
 * The load side: GraphQL over real HTTP (undici, keep-alive pool), timing each operation, and the
 * bounded loops the workloads use: repeated single runs and a fixed-concurrency throughput run. Every
 * loop stops at a count and at a deadline, whichever comes first.
 */
import { Pool } from 'undici';

export interface GraphQLResult {
  ms: number;
  status: number;
  errors: { message: string; path?: (string | number)[]; extensions?: { code?: string } }[];
  data: unknown;
  /** Upstream requests the gateway says it made (`extensions.cost.<name>.requests`), per upstream. */
  gatewayRequests: Record<string, number>;
  /** Length of the response body, in characters. */
  bytes: number;
}

const ERRORS_KEY = Buffer.from('"errors":[');

export class GraphQLClient {
  private readonly pool: Pool;
  private readonly path: string;

  constructor(url: string, connections = 16) {
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
      },
      body: JSON.stringify({ query, variables }),
    });
  }

  /**
   * For throughput runs of large answers: the body is read as bytes and searched for an `errors`
   * key instead of parsed, so that the load side's JSON.parse (1 ms or more for a 200 KB answer)
   * does not cap what is measured.
   */
  async runLight(query: string, variables: Record<string, unknown> = {}): Promise<{ ms: number; failed: boolean }> {
    const started = performance.now();
    const res = await this.send(query, variables);
    const bytes = Buffer.from(await res.body.arrayBuffer());
    return { ms: performance.now() - started, failed: res.statusCode !== 200 || bytes.includes(ERRORS_KEY) };
  }

  async run(query: string, variables: Record<string, unknown> = {}): Promise<GraphQLResult> {
    const started = performance.now();
    const res = await this.send(query, variables);
    const text = await res.body.text();
    const ms = performance.now() - started;
    let body: {
      data?: unknown;
      errors?: GraphQLResult['errors'];
      extensions?: { cost?: Record<string, { requests?: number }> };
    } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      body = { errors: [{ message: `HTTP ${res.statusCode}, not JSON: ${text.slice(0, 200)}` }] };
    }
    const gatewayRequests = Object.fromEntries(
      Object.entries(body.extensions?.cost ?? {}).map(([name, u]) => [name, u.requests ?? 0]),
    );
    return {
      ms,
      status: res.statusCode,
      errors: body.errors ?? [],
      data: body.data ?? null,
      gatewayRequests,
      bytes: text.length,
    };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

export interface ThroughputResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p95Ms: number;
}

/** `concurrency` workers issue the operation back to back until `seconds` pass or `maxRequests` are sent. */
export async function throughput(
  client: GraphQLClient,
  query: string,
  variables: Record<string, unknown>,
  options: { concurrency: number; seconds: number; maxRequests: number; light?: boolean },
): Promise<ThroughputResult> {
  const latencies: number[] = [];
  let errors = 0;
  let issued = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline && issued < options.maxRequests) {
      issued++;
      if (options.light) {
        const r = await client.runLight(query, variables);
        latencies.push(r.ms);
        if (r.failed) errors++;
        continue;
      }
      const r = await client.run(query, variables);
      latencies.push(r.ms);
      if (r.status !== 200 || r.errors.length > 0) errors++;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  return {
    requests: latencies.length,
    errors,
    seconds: round(seconds, 2),
    perSecond: round(latencies.length / seconds, 1),
    p50Ms: round(percentile(latencies, 50), 1),
    p95Ms: round(percentile(latencies, 95), 1),
  };
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
