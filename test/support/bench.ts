/**
 * The bench in its tiny mode (5 ms upstream latency), for the tests that keep `npm run bench` from
 * rotting: runs `ids` and returns the document and its workload records by id.
 */
import { QUICK, runBench } from '../../bench/bench.js';

export async function tinyBench(ids: string[]) {
  const doc = await runBench({ ...QUICK, latencyMs: 5 }, new Set(ids));
  const byId = Object.fromEntries(doc.workloads.map((w) => [w.id, w as Record<string, any>]));
  return { doc, byId };
}
