/**
 * The whole benchmark as a function: start the emulators (each in its own process, with latency) and
 * a gateway process, run the workloads over HTTP, evaluate the targets and return one JSON-ready
 * document. `run.ts` is the command line around it; the smoke test calls it with tiny settings.
 */
import os from 'node:os';
import { loadConfig } from '../src/config/config.js';
import { bodyRefusal } from './body-refusal.js';
import { breakerWaves } from './breaker-waves.js';
import { fairShareLatency } from './fair-share.js';
import { youngGarbage } from './garbage.js';
import { linearCost } from './linear.js';
import { authenticatedResponseCache, responseCacheSideBySide, responseCacheThroughput } from './response-cache.js';
import { GraphQLClient, round } from './client.js';
import { startChild, type Child } from './processes.js';
import { replay } from './replay.js';
import { replicas } from './replicas.js';
import { timeoutSpread } from './timeouts.js';
import { sharedCache } from './shared-cache.js';
import { evaluateTargets, type TargetResult } from './targets.js';
import { throughputVsBareYoga } from './throughput.js';
import { topUpEntities, topUpEvents } from './top-up.js';
import { startUpstreams } from './upstreams.js';
import {
  entityGraphCold,
  eventGraphCold,
  fanOut,
  storm,
  warm,
  type BenchOptions,
  type Ctx,
  type WorkloadRecord,
} from './workloads.js';

export const FULL: BenchOptions = {
  latencyMs: 20,
  runs: 30,
  maxSeriesMs: 20_000,
  systems: 50,
  events: 50,
  fanOutEntities: 500,
  fanOutEvents: 200,
  stormRuns: 2,
  throughputSeconds: 5,
  concurrency: 8,
  maxTotalMs: 240_000,
  quick: false,
};

/** The smoke test's settings: every workload once, on a handful of records. */
export const QUICK: BenchOptions = {
  ...FULL,
  runs: 1,
  maxSeriesMs: 3_000,
  systems: 5,
  events: 5,
  fanOutEntities: 60,
  fanOutEvents: 60,
  stormRuns: 1,
  throughputSeconds: 0.3,
  concurrency: 2,
  quick: true,
};

export interface BenchDocument {
  bench: string;
  startedAt: string;
  durationS: number;
  machine: Record<string, unknown>;
  settings: BenchOptions & { gatewayEnv: Record<string, string> };
  data: Record<string, number>;
  gatewayProcess: {
    rssAtStartMb: number | null;
    rssAtEndMb: number | null;
    cpuMsTotal: number | null;
    /** What the measured gateway ran: its compiled entry and node flags (the production start's). */
    entry: string;
    execArgv: string[];
  };
  workloads: WorkloadRecord[];
  targets: TargetResult[];
  passed: boolean;
}

/** Gateway settings taken from the bench's own environment when set, and reported with the figures. */
const REPORTED_ENV = [
  'GOVERNANCE_MAX_CONCURRENT',
  'CALENDAR_MAX_CONCURRENT',
  'CACHE_TTL_MS',
  'UPSTREAM_RETRIES',
  'GATEWAY_MAX_UPSTREAM_CALLS_PER_OPERATION',
  'REDIS_URL',
];

export async function runBench(
  options: BenchOptions,
  only?: Set<string>,
  log: (line: string) => void = () => {},
): Promise<BenchDocument> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const loadAtStart = os.loadavg().map((x) => round(x, 2));
  const up = await startUpstreams({ latencyMs: options.latencyMs });
  let gateway: Child | undefined;
  let floor: Child | undefined;
  let client: GraphQLClient | undefined;
  const workloads: WorkloadRecord[] = [];
  const wants = (id: string) => !only || only.has(id);
  try {
    log('setting up data');
    const data = await up.withoutLatency(async () => ({
      liveEntities: await topUpEntities(up, options.fanOutEntities),
      events: await topUpEvents(up, options.fanOutEvents),
    }));
    const extraEnv: Record<string, string> = {};
    for (const k of REPORTED_ENV) if (process.env[k]) extraEnv[k] = process.env[k]!;
    delete extraEnv.REDIS_URL; // workloads 1–6 measure one gateway on its own
    gateway = await startChild('gateway-process.ts', up.gatewayEnv(extraEnv));
    floor = await startChild('floor-process.ts', {});
    const atStart = await gateway.stats();
    client = new GraphQLClient(gateway.url, Math.max(16, options.concurrency));
    const { maxConcurrent } = loadConfig(up.gatewayEnv(extraEnv));
    const ctx: Ctx = {
      up,
      gateway,
      floor,
      client,
      options,
      caps: { governance: maxConcurrent.governance, calendar: maxConcurrent.calendar },
    };
    const step = async (id: string, fn: () => Promise<WorkloadRecord | WorkloadRecord[]>) => {
      if (!wants(id)) return;
      // The whole bench stays within its time: a workload that would start too late is skipped, and says so.
      if (Date.now() - started > options.maxTotalMs) {
        workloads.push({
          id,
          name: `workload ${id}`,
          skipped: `the bench had already run ${Math.round((Date.now() - started) / 1000)} s (limit ${options.maxTotalMs / 1000} s)`,
        });
        return;
      }
      log(`workload ${id}`);
      const t = Date.now();
      const r = await fn().catch((e: unknown): WorkloadRecord => ({
        id,
        name: `workload ${id}`,
        failed: e instanceof Error ? e.message : String(e),
      }));
      workloads.push(...(Array.isArray(r) ? r : [r]));
      log(`workload ${id} done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    };
    await step('1', () => entityGraphCold(ctx));
    await step('2', () => eventGraphCold(ctx));
    await step('3', () => fanOut(ctx));
    await step('4', () => warm(ctx));
    await step('5', () => storm(ctx));
    await step('6', () => throughputVsBareYoga(ctx));
    await step('7', async () => [await replicas(up, options, log, 1), await replicas(up, options, log, 2)]);
    await step('8', () => sharedCache(up, options, log));
    await step('9', () => bodyRefusal(gateway!.url, client!, options.quick));
    await step('10', () => timeoutSpread(up, options));
    await step('11', () => linearCost(ctx));
    await step('12', () => responseCacheThroughput(ctx));
    await step('12a', () => authenticatedResponseCache(ctx));
    await step('12b', () => responseCacheSideBySide(ctx));
    await step('13', () => youngGarbage());
    await step('14', () => breakerWaves(up, options));
    await step('15', () => replay(up, options));
    await step('16', () => fairShareLatency(up, options));

    const atEnd = await gateway.stats().catch(() => undefined);
    const mb = (kb: number | null | undefined) => (kb == null ? null : round(kb / 1024, 1));
    const targets = evaluateTargets(workloads);
    const failedRuns = workloads.filter((w) => 'failed' in w);
    return {
      bench: 'governance-calendar-gateway',
      startedAt,
      durationS: round((Date.now() - started) / 1000, 1),
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? 'unknown',
        memoryGb: round(os.totalmem() / 1024 ** 3, 1),
        node: process.version,
        platform: `${os.platform()} ${os.release()}`,
        loadAverageAtStart: loadAtStart,
        loadAverageAtEnd: os.loadavg().map((x) => round(x, 2)),
      },
      settings: { ...options, gatewayEnv: extraEnv },
      data,
      // The measured gateway's memory when it was ready and after the last workload (peaks are per workload).
      gatewayProcess: {
        rssAtStartMb: mb(atStart.rssKb),
        rssAtEndMb: mb(atEnd?.rssKb),
        cpuMsTotal: atEnd ? round(atEnd.cpuMs, 0) : null,
        entry: atStart.entry,
        execArgv: atStart.execArgv,
      },
      workloads,
      targets,
      passed: failedRuns.length === 0 && targets.every((t) => t.status !== 'fail'),
    };
  } finally {
    await client?.close();
    await gateway?.stop();
    await floor?.stop();
    await up.close();
  }
}
