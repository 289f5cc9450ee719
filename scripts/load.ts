/**
 * `npm run load`: the long form of test/load.test.ts. Starts both emulators (with latency), a
 * production-profile gateway on a real port, runs the mixed read/write workload for a fixed time,
 * then audits every acknowledged write at the emulators and prints one JSON report. Exits 1 when
 * anything was lost, applied twice, failed unexpectedly, or memory grew past the margin.
 *
 *   npm run load -- --seconds 120 --concurrency 32 --cache-bytes 131072 --rss-margin-mb 256 --heap-margin-mb 32
 *
 * `--server dist/server.js` runs the gateway as production does instead: that built entry in a process
 * of its own, started with `npm run start:prod`'s node flags (or `--node-flags="..."`);
 * the report then adds that process's CPU and memory (`server`), and the memory margins apply to it.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { startCalendarEmulator } from '../src/emulators/calendar/index.js';
import { loadConfig } from '../src/config/config.js';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { createGateway } from '../src/app/gateway.js';
import { startGovernanceEmulator } from '../src/emulators/governance/index.js';
import { runLoad } from '../test/support/load-driver.js';
import { auditWrites, buildWorkload } from '../test/support/load-workload.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    concurrency: { type: 'string', default: '32' },
    'cache-bytes': { type: 'string', default: String(128 * 1024) },
    'latency-ms': { type: 'string', default: '10' },
    // RSS also holds heap V8 reserved but no longer uses, so it gets a wide margin; the live heap,
    // measured after a full collection (--expose-gc), gets a narrow one.
    'rss-margin-mb': { type: 'string', default: '256' },
    'heap-margin-mb': { type: 'string', default: '32' },
    server: { type: 'string' },
    'node-flags': { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const cacheBytes = Number(values['cache-bytes']);
const latency = { fixedMs: Number(values['latency-ms']), jitterMs: Number(values['latency-ms']) };

const [governance, calendar] = await Promise.all([
  startGovernanceEmulator({ latency }),
  startCalendarEmulator({ latency }),
]);
const env = {
  NODE_ENV: 'production',
  // The load measures execution, not identity: callers without credentials hold every permission.
  AUTH_ANONYMOUS: '*',
  LOG_LEVEL: 'silent',
  // Audited as in production (one line per write), but not on stdout, which carries the report.
  AUDIT_SINK: '/dev/null',
  ...emulatorEnv(governance, calendar),
  CACHE_MAX_BYTES: String(cacheBytes),
  CACHE_TTL_MS: '60000',
};
const { url, cacheBytesNow, server } = values.server ? await spawnGateway(values.server) : await inProcessGateway();

console.error(
  `load: ${seconds} s, ${values.concurrency} clients, cache cap ${cacheBytes} B, upstream latency ${latency.fixedMs}+${latency.jitterMs} ms`,
);
const operations = await buildWorkload(url, randomUUID().slice(0, 8));
governance.control.clearRequests();
calendar.control.clearRequests();
// The cache's size is sampled through the run: writes invalidate entries, so its size at the end
// alone says little; its peak shows it filled to the cap and was held there.
let peakCacheBytes = 0;
const sampler = setInterval(() => (peakCacheBytes = Math.max(peakCacheBytes, cacheBytesNow() ?? 0)), 25);
const serverAtStart = server?.stats();
let serverAfterWarmup: ProcessStats | undefined;
const warmupMs = Math.min(10_000, (seconds * 1000) / 4);
const warmupTimer = setTimeout(() => (serverAfterWarmup = server?.stats()), warmupMs);
const report = await runLoad({
  url,
  operations,
  concurrency: Number(values.concurrency),
  durationMs: seconds * 1000,
  warmupMs,
});
clearTimeout(warmupTimer);
const serverAtEnd = server?.stats();
const audit = await auditWrites({ governance, calendar }, report.acks);
clearInterval(sampler);
const cache = {
  bytes: cacheBytesNow(),
  peakBytes: server ? null : Math.max(peakCacheBytes, cacheBytesNow() ?? 0),
  maxBytes: cacheBytes,
};
const serverReport =
  server && serverAtStart && serverAtEnd
    ? {
        entry: values.server,
        nodeFlags: server.flags,
        cpuMs: serverAtEnd.cpuMs - serverAtStart.cpuMs,
        cpuMsPerRequest:
          Math.round(((serverAtEnd.cpuMs - serverAtStart.cpuMs) / Math.max(1, report.requests)) * 1000) / 1000,
        rssAfterWarmupMb: serverAfterWarmup?.rssMb ?? null,
        rssEndMb: serverAtEnd.rssMb,
        peakRssMb: serverAtEnd.peakRssMb,
      }
    : undefined;

const problems: string[] = [...report.unexpected.slice(0, 20)];
if (audit.missing.length) problems.push(`${audit.missing.length} acknowledged writes missing at the emulator`);
if (audit.wrongName.length) problems.push(`${audit.wrongName.length} writes with the wrong name`);
if (audit.duplicateIds.length) problems.push(`${audit.duplicateIds.length} ids acknowledged twice`);
if (JSON.stringify(audit.applied) !== JSON.stringify(audit.acknowledged))
  problems.push(`applied ${JSON.stringify(audit.applied)} != acknowledged ${JSON.stringify(audit.acknowledged)}`);
if ((cache.peakBytes ?? 0) > cacheBytes) problems.push(`cache held ${cache.peakBytes} B, over its cap`);
const growth = serverReport
  ? serverReport.rssEndMb - (serverReport.rssAfterWarmupMb ?? serverReport.rssEndMb)
  : report.rss.endMb - report.rss.afterWarmupMb;
if (growth > Number(values['rss-margin-mb'])) problems.push(`RSS grew ${growth.toFixed(1)} MB after warm-up`);
const heapGrowth = report.heapUsedMb.end - report.heapUsedMb.afterWarmup;
// The live heap is the load process's own: it says something about the gateway only when it runs here.
if (!server && heapGrowth > Number(values['heap-margin-mb']))
  problems.push(`live heap grew ${heapGrowth.toFixed(1)} MB after warm-up`);

console.log(
  JSON.stringify(
    {
      seconds,
      ...report,
      acks: report.acks.length,
      rps: Math.round(report.requests / seconds),
      cache,
      ...(serverReport ? { server: serverReport } : {}),
      audit: { ...audit, missing: audit.missing.length },
      problems,
    },
    null,
    2,
  ),
);

await server?.stop();
await Promise.all([governance.close(), calendar.close()]);
process.exit(problems.length ? 1 : 0);

interface ProcessStats {
  cpuMs: number;
  rssMb: number;
  peakRssMb: number;
}

interface Gateway {
  url: string;
  /** The cache's size in bytes (null when the gateway runs in another process). */
  cacheBytesNow: () => number | null;
  server?: { flags: string[]; stats(): ProcessStats; stop(): Promise<void> };
}

async function inProcessGateway(): Promise<Gateway> {
  const gateway = createGateway({ config: loadConfig(env) });
  const http = createServer(gateway.yoga);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  process.once('beforeExit', () => void gateway.close());
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/graphql`,
    cacheBytesNow: () => gateway.upstreams.cache.bytes,
  };
}

/** The built server in its own process, with start:prod's node flags unless --node-flags says otherwise. */
async function spawnGateway(entry: string): Promise<Gateway> {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
  const flags = (values['node-flags'] ?? pkg.scripts['start:prod'] ?? '')
    .split(/\s+/)
    .filter((a) => a.startsWith('--'));
  const child = spawn(process.execPath, [...flags, entry], {
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', SHUTDOWN_DRAIN_MS: '1000' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /gateway ready: (http:\/\/\S+\/graphql)/.exec(out);
      if (ready) resolve(ready[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code} before it was ready`)));
  });
  child.stdout.resume();
  // utime + stime of the whole process (every thread), in USER_HZ ticks; VmRSS and VmHWM in kB.
  const stats = (): ProcessStats => {
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return {
      cpuMs: (Number(fields[11]) + Number(fields[12])) * 10,
      rssMb: Math.round(kb('VmRSS') / 102.4) / 10,
      peakRssMb: Math.round(kb('VmHWM') / 102.4) / 10,
    };
  };
  return {
    url,
    cacheBytesNow: () => null,
    server: {
      flags,
      stats,
      stop: () =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    },
  };
}
