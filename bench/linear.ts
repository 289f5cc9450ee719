/**
 * Workload 11: the same cold EntityGraph at three sizes spanning ten times the upstream requests
 * (2, 10 and 50 AI systems: about 14, 60 and 166 requests). The gateway's CPU per upstream request
 * must stay flat as the graph grows (the largest size's ÷ the smallest's ≤ 1.2: nothing in the
 * gateway may cost more per request as an operation grows), and the peak RSS growth above the
 * process's idle RSS is recorded next to the response size, to see it grow no faster than linearly.
 */
import { round } from './client.js';
import { requestsOf, series } from './measure.js';
import { ENTITY_GRAPH } from './queries.js';
import { warmupOf, type Ctx, type WorkloadRecord } from './workloads.js';

export async function linearCost(ctx: Ctx): Promise<WorkloadRecord> {
  const { up, options } = ctx;
  const sizes = options.quick ? [1, 3] : [2, 10, 50];
  const rows = [];
  for (const first of sizes) {
    const idle = await ctx.gateway.stats();
    const s = await series(
      up,
      ctx.gateway,
      ctx.client,
      ENTITY_GRAPH,
      { first },
      {
        cold: true,
        runs: options.quick ? 1 : 10,
        maxMs: options.maxSeriesMs,
        warmup: warmupOf(options),
      },
    );
    const requests = requestsOf(s).total;
    const cpuMsPerRun = s.cpuMs / Math.max(1, s.runs);
    rows.push({
      first,
      runs: s.runs,
      errors: s.errors,
      upstreamRequests: requests,
      responseBytes: s.firstBytes,
      cpuMsPerRun: round(cpuMsPerRun, 1),
      cpuMsPerUpstreamRequest: round(cpuMsPerRun / Math.max(1, requests), 3),
      peakRssMb: s.peakRssMb,
      peakRssGrowthMb: s.peakRssMb === null || idle.rssKb === null ? null : round(s.peakRssMb - idle.rssKb / 1024, 1),
    });
  }
  const smallest = rows[0]!;
  const largest = rows[rows.length - 1]!;
  return {
    id: '11',
    name: `EntityGraph(first: ${sizes.join(' / ')}), cold: gateway CPU per upstream request as the graph grows`,
    sizes: rows,
    errors: rows.reduce((a, r) => a + r.errors, 0),
    minimumSpan: options.quick ? 1 : 10,
    requestSpan: round(largest.upstreamRequests / Math.max(1, smallest.upstreamRequests), 1),
    cpuPerRequestRatio: round(largest.cpuMsPerUpstreamRequest / Math.max(0.001, smallest.cpuMsPerUpstreamRequest), 2),
    responseBytesRatio: round(largest.responseBytes / Math.max(1, smallest.responseBytes), 1),
  };
}
