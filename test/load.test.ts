/**
 * Load with nothing lost, short form of `npm run load` (same script, run for a few seconds in its
 * own process, so its memory is measured without other test files' leftovers and with a real full
 * GC): concurrent clients over a real socket mix reads and writes against emulators with latency.
 * Only expected rate-limit errors are allowed; every acknowledged write exists at the emulator
 * exactly once; the response cache stays at its byte cap; RSS and live heap stay within margins
 * of their post-warm-up level.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const SECONDS = Number(process.env.LOAD_TEST_SECONDS ?? 8);
// Well below what the workload reads in a few seconds (~60-180 KiB), so the cache must evict to stay at it.
const CACHE_MAX_BYTES = 48 * 1024;
/** V8 keeps heap it reserved, so RSS climbs in a short run; the live heap after a full GC must not. */
const RSS_MARGIN_MB = 160;
const HEAP_MARGIN_MB = 32;

interface Report {
  requests: number;
  byOperation: Record<string, number>;
  acks: number;
  errorCodes: Record<string, number>;
  unexpected: string[];
  rss: { afterWarmupMb: number; endMb: number };
  heapUsedMb: { afterWarmup: number; end: number };
  cache: { bytes: number; peakBytes: number; maxBytes: number };
  audit: {
    acknowledged: Record<string, number>;
    applied: Record<string, number>;
    missing: number;
    wrongName: string[];
    duplicateIds: string[];
  };
  problems: string[];
}

it(`serves ${SECONDS} s of mixed reads and writes without losing or repeating a write`, async () => {
  const script = fileURLToPath(new URL('../scripts/load.ts', import.meta.url));
  const args = [
    '--expose-gc',
    '--import',
    'tsx',
    script,
    '--seconds',
    String(SECONDS),
    '--concurrency',
    '16',
    '--latency-ms',
    '5',
  ];
  args.push(
    '--cache-bytes',
    String(CACHE_MAX_BYTES),
    '--rss-margin-mb',
    String(RSS_MARGIN_MB),
    '--heap-margin-mb',
    String(HEAP_MARGIN_MB),
  );
  // The script exits 1 when it finds a problem; the report on stdout says which, so read it either way.
  const { stdout } = await promisify(execFile)(process.execPath, args, { timeout: (SECONDS + 40) * 1000 }).catch(
    (e: { stdout?: string; stderr?: string }) => {
      if (!e.stdout?.includes('"problems"')) throw new Error(`load script failed: ${e.stderr ?? String(e)}`);
      return { stdout: e.stdout };
    },
  );
  const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as Report;
  const context = JSON.stringify({ ...report, byOperation: undefined });

  expect(report.unexpected, context).toEqual([]);
  expect(
    Object.keys(report.errorCodes).filter((c) => c !== 'RATE_LIMITED' && c !== 'REQUEST_BUDGET_EXCEEDED'),
    context,
  ).toEqual([]);
  expect(report.requests, context).toBeGreaterThan(100);
  for (const [name, count] of Object.entries(report.byOperation)) expect(count, name).toBeGreaterThan(0);
  expect(Object.keys(report.byOperation)).toHaveLength(6);

  // Nothing lost, nothing applied twice.
  expect(report.acks, context).toBeGreaterThan(10);
  expect(report.audit.missing, context).toBe(0);
  expect(report.audit.wrongName, context).toEqual([]);
  expect(report.audit.duplicateIds, context).toEqual([]);
  expect(report.audit.applied, context).toEqual(report.audit.acknowledged);

  // Memory: the cache is full and held at its cap; the process does not keep growing.
  expect(report.cache.peakBytes, context).toBeLessThanOrEqual(CACHE_MAX_BYTES);
  expect(report.cache.peakBytes, context).toBeGreaterThan(CACHE_MAX_BYTES * 0.75);
  expect(report.rss.endMb - report.rss.afterWarmupMb, context).toBeLessThan(RSS_MARGIN_MB);
  expect(report.heapUsedMb.end - report.heapUsedMb.afterWarmup, context).toBeLessThan(HEAP_MARGIN_MB);
  expect(report.problems, context).toEqual([]);
}, 90_000);
