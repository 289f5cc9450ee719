/**
 * A closed-loop load driver over real HTTP: `concurrency` clients each send one operation after
 * another for `durationMs`, a mix of reads and writes from the acceptance contract. Every write
 * carries a unique name, so afterwards each acknowledged write can be looked up at the emulator.
 * Shared by `test/load.test.ts` (short) and `scripts/load.ts` (long form).
 */
import { request } from 'undici';

export interface Operation {
  name: string;
  kind: 'read' | 'write';
  query: string;
  variables: (n: number) => Record<string, unknown>;
  /** For writes: what the gateway acknowledged (record id and the unique name sent), from `data`. */
  ack?: (data: Record<string, unknown>) => { id: string; name: string } | undefined;
  weight: number;
}

export interface Ack {
  operation: string;
  id: string;
  name: string;
}

export interface LoadReport {
  requests: number;
  byOperation: Record<string, number>;
  acks: Ack[];
  /** Error codes seen, with counts (RATE_LIMITED etc.). */
  errorCodes: Record<string, number>;
  /** Anything that is not an expected rate-limit answer: status, code, message. */
  unexpected: string[];
  latencyMs: { p50: number; p99: number; max: number };
  rss: { afterWarmupMb: number; endMb: number; peakMb: number; everyFiveSecondsMb: number[] };
  /** Live heap after a full collection when the process runs with --expose-gc, else as found. */
  heapUsedMb: { afterWarmup: number; end: number };
  /** Where the end RSS sits: V8's reserved heap vs memory outside it (Buffers, sockets, allocator). */
  endBreakdownMb: { heapTotal: number; external: number; arrayBuffers: number };
}

export interface LoadOptions {
  url: string;
  operations: Operation[];
  concurrency: number;
  durationMs: number;
  /** RSS is sampled as the "after warm-up" baseline once this much time has passed. */
  warmupMs: number;
  /** Error codes that are an expected outcome under load, not a failure. */
  expectedCodes?: string[];
  headers?: Record<string, string>;
}

/** A full collection when the process allows it (`node --expose-gc`), so samples compare live memory. */
const collectGarbage = () => (globalThis as { gc?: () => void }).gc?.();

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const expected = new Set(options.expectedCodes ?? ['RATE_LIMITED', 'REQUEST_BUDGET_EXCEEDED']);
  const table = options.operations.flatMap((op) => Array.from({ length: op.weight }, () => op));
  const report: LoadReport = {
    requests: 0,
    byOperation: {},
    acks: [],
    errorCodes: {},
    unexpected: [],
    latencyMs: { p50: 0, p99: 0, max: 0 },
    rss: { afterWarmupMb: 0, endMb: 0, peakMb: 0, everyFiveSecondsMb: [] },
    heapUsedMb: { afterWarmup: 0, end: 0 },
    endBreakdownMb: { heapTotal: 0, external: 0, arrayBuffers: 0 },
  };
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + options.durationMs;
  let sequence = 0;
  let peak = 0;
  let ticks = 0;
  const sampler = setInterval(() => {
    const rss = process.memoryUsage.rss();
    peak = Math.max(peak, rss);
    if (++ticks % 50 === 0) report.rss.everyFiveSecondsMb.push(mb(rss));
    if (!report.rss.afterWarmupMb && performance.now() - started >= options.warmupMs) {
      collectGarbage();
      report.rss.afterWarmupMb = mb(process.memoryUsage.rss());
      report.heapUsedMb.afterWarmup = mb(process.memoryUsage().heapUsed);
    }
  }, 100);

  const client = async () => {
    while (performance.now() < deadline) {
      const n = sequence++;
      const op = table[n % table.length]!;
      const t0 = performance.now();
      try {
        const res = await request(options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/graphql-response+json',
            ...options.headers,
          },
          body: JSON.stringify({ query: op.query, variables: op.variables(n) }),
        });
        const text = await res.body.text();
        latencies.push(performance.now() - t0);
        report.requests++;
        report.byOperation[op.name] = (report.byOperation[op.name] ?? 0) + 1;
        const body = JSON.parse(text) as {
          data?: Record<string, unknown> | null;
          errors?: { message: string; extensions?: { code?: string } }[];
        };
        for (const error of body.errors ?? []) {
          const code = error.extensions?.code ?? 'NONE';
          report.errorCodes[code] = (report.errorCodes[code] ?? 0) + 1;
          if (!expected.has(code)) report.unexpected.push(`${op.name}: ${res.statusCode} ${code} ${error.message}`);
        }
        if (res.statusCode >= 500) report.unexpected.push(`${op.name}: HTTP ${res.statusCode}`);
        if (op.kind === 'write' && body.data && op.ack) {
          const ack = op.ack(body.data);
          if (ack) report.acks.push({ operation: op.name, ...ack });
        }
      } catch (e) {
        report.unexpected.push(`${op.name}: transport ${(e as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, client));
  clearInterval(sampler);

  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  report.latencyMs = { p50: at(0.5), p99: at(0.99), max: Math.round(latencies.at(-1) ?? 0) };
  collectGarbage();
  const end = process.memoryUsage.rss();
  const usage = process.memoryUsage();
  report.heapUsedMb.end = mb(usage.heapUsed);
  report.endBreakdownMb = {
    heapTotal: mb(usage.heapTotal),
    external: mb(usage.external),
    arrayBuffers: mb(usage.arrayBuffers),
  };
  report.rss.endMb = mb(end);
  report.rss.peakMb = mb(Math.max(peak, end));
  if (!report.rss.afterWarmupMb) report.rss.afterWarmupMb = report.rss.endMb;
  return report;
}
