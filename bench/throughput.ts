/**
 * Workload 6: requests per second of the warm EntityGraph under a fixed concurrency for a fixed
 * time, next to a bare graphql-yoga server answering `{ __typename }` in its own process, measured in
 * the same run and the same way. The ratio says what the gateway's own work costs over Yoga's floor.
 */
import { percentile, round } from './client.js';
import { throughput } from './load.js';
import { startChild, type Child } from './processes.js';
import { ENTITY_GRAPH, TYPENAME } from './queries.js';
import type { Ctx, WorkloadRecord } from './workloads.js';

export type Measured = Awaited<ReturnType<typeof measured>>;

export async function measured(
  child: Child,
  query: string,
  variables: Record<string, unknown>,
  ctx: Ctx,
  headers?: Record<string, string>,
  throughputSeconds = ctx.options.throughputSeconds,
) {
  const { concurrency } = ctx.options;
  await throughput(child.url, query, variables, { concurrency, seconds: Math.min(1, throughputSeconds / 4), headers }); // warm-up
  await child.request('reset-peak');
  const before = await child.stats();
  const t = await throughput(child.url, query, variables, { concurrency, seconds: throughputSeconds, headers });
  const after = await child.stats();
  const cpuMs = after.cpuMs - before.cpuMs;
  return {
    ...t,
    cpuMs: round(cpuMs, 1),
    cpuMsPerRequest: round(cpuMs / Math.max(1, t.requests), 3),
    peakRssMb: after.peakRssKb === null ? null : round(after.peakRssKb / 1024, 1),
  };
}

export async function throughputVsBareYoga(ctx: Ctx): Promise<WorkloadRecord> {
  const { up, options } = ctx;
  // Fill an empty cache right before, so every entry is fresh for the whole timed window (an entry
  // left by an earlier workload could expire in the middle of it).
  await ctx.gateway.request('clear-cache');
  await ctx.client.run(ENTITY_GRAPH, { first: options.systems });
  await up.clearLogs();
  const gateway = await measured(ctx.gateway, ENTITY_GRAPH, { first: options.systems }, ctx);
  const upstreamDuring = await up.counts();

  const bare = await startChild('bare-yoga.ts', {});
  try {
    const baseline = await measured(bare, TYPENAME, {}, ctx);
    return {
      id: '6',
      name: `throughput: warm EntityGraph(first: ${options.systems}) vs bare graphql-yoga { __typename }, concurrency ${options.concurrency}, ${options.throughputSeconds} s each`,
      concurrency: options.concurrency,
      seconds: options.throughputSeconds,
      gateway,
      bareYoga: baseline,
      ratio: round(gateway.perSecond / baseline.perSecond, 3),
      upstreamRequestsDuringGatewayRun: { governance: upstreamDuring.governance, calendar: upstreamDuring.calendar },
      errors: gateway.errors,
    };
  } finally {
    await bare.stop();
  }
}

/**
 * Two servers measured in turns, `rounds` slices of the run's time each, so that a change in what else
 * the machine does falls on both: run one after the other, the bare server's floor swung from 6.3k to
 * 23.7k requests a second between runs here, and the ratio with it. The ratio is the median of the
 * rounds' ratios; each side's figures are its rounds together (latencies: the median round's).
 */
export async function inTurns(
  a: (seconds: number) => Promise<Measured>,
  b: (seconds: number) => Promise<Measured>,
  ctx: Ctx,
  rounds = 4,
) {
  const seconds = ctx.options.throughputSeconds / rounds;
  const as: Measured[] = [];
  const bs: Measured[] = [];
  for (let r = 0; r < rounds; r++) {
    as.push(await a(seconds));
    bs.push(await b(seconds));
  }
  const ratios = as.map((x, i) => round(x.perSecond / bs[i]!.perSecond, 3));
  return { a: together(as), b: together(bs), ratios, ratio: median(ratios) };
}

/**
 * `inTurns` for any number of runs: round after round each run once, so load on the machine falls on
 * all of them alike; each run's rounds together, and `ratio(i, j)`: the median of the rounds' ratios.
 */
export async function roundRobin(runs: ((seconds: number) => Promise<Measured>)[], ctx: Ctx, rounds = 4) {
  const seconds = ctx.options.throughputSeconds / rounds;
  const all = runs.map((): Measured[] => []);
  for (let r = 0; r < rounds; r++) for (const [i, run] of runs.entries()) all[i]!.push(await run(seconds));
  const ratio = (i: number, j: number) => median(all[i]!.map((x, r) => round(x.perSecond / all[j]![r]!.perSecond, 3)));
  return { runs: all.map(together), ratio };
}

const median = (values: number[]) => percentile(values, 50);

function together(runs: Measured[]): Measured {
  const sum = (key: 'requests' | 'errors' | 'seconds' | 'cpuMs') => runs.reduce((n, r) => n + r[key], 0);
  const [requests, seconds, cpuMs] = [sum('requests'), sum('seconds'), sum('cpuMs')];
  const peaks = runs.map((r) => r.peakRssMb).filter((mb): mb is number => mb !== null);
  return {
    requests,
    errors: sum('errors'),
    seconds: round(seconds, 2),
    perSecond: round(requests / seconds, 1),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p95Ms: median(runs.map((r) => r.p95Ms)),
    cpuMs: round(cpuMs, 1),
    cpuMsPerRequest: round(cpuMs / Math.max(1, requests), 3),
    peakRssMb: peaks.length ? Math.max(...peaks) : null,
  };
}
