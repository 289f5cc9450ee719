/**
 * `npm run load`: the long form of test/load.test.ts. Starts both emulators (with latency), a
 * production-profile gateway on a real port, runs the mixed read/write workload for a fixed time,
 * then audits every acknowledged write at the emulators and prints one JSON report. Exits 1 when
 * anything was lost, applied twice, failed unexpectedly, or memory grew past the margin.
 *
 *   npm run load -- --seconds 120 --concurrency 32 --cache-bytes 131072 --rss-margin-mb 256 --heap-margin-mb 32
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { startCalendarEmulator } from '../src/calendar/emulator/index.js';
import { loadConfig } from '../src/config/config.js';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { createGateway } from '../src/app/gateway.js';
import { startGovernanceEmulator } from '../src/governance/emulator/index.js';
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
  },
});
const seconds = Number(values.seconds);
const cacheBytes = Number(values['cache-bytes']);
const latency = { fixedMs: Number(values['latency-ms']), jitterMs: Number(values['latency-ms']) };

const [governance, calendar] = await Promise.all([
  startGovernanceEmulator({ latency }),
  startCalendarEmulator({ latency }),
]);
const config = loadConfig({
  NODE_ENV: 'production',
  // The load measures execution, not identity: callers without credentials hold every permission.
  AUTH_ANONYMOUS: '*',
  LOG_LEVEL: 'silent',
  ...emulatorEnv(governance, calendar),
  CACHE_MAX_BYTES: String(cacheBytes),
  CACHE_TTL_MS: '60000',
});
const gateway = createGateway({ config });
const server = createServer(gateway.yoga);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;

console.error(
  `load: ${seconds} s, ${values.concurrency} clients, cache cap ${cacheBytes} B, upstream latency ${latency.fixedMs}+${latency.jitterMs} ms`,
);
const operations = await buildWorkload(url, randomUUID().slice(0, 8));
governance.control.clearRequests();
calendar.control.clearRequests();
// The cache's size is sampled through the run: writes invalidate entries, so its size at the end
// alone says little; its peak shows it filled to the cap and was held there.
let peakCacheBytes = 0;
const sampler = setInterval(() => (peakCacheBytes = Math.max(peakCacheBytes, gateway.upstreams.cache.bytes)), 25);
const report = await runLoad({
  url,
  operations,
  concurrency: Number(values.concurrency),
  durationMs: seconds * 1000,
  warmupMs: Math.min(10_000, (seconds * 1000) / 4),
});
const audit = await auditWrites({ governance, calendar }, report.acks);
clearInterval(sampler);
const cache = {
  bytes: gateway.upstreams.cache.bytes,
  peakBytes: Math.max(peakCacheBytes, gateway.upstreams.cache.bytes),
  maxBytes: cacheBytes,
};

const problems: string[] = [...report.unexpected.slice(0, 20)];
if (audit.missing.length) problems.push(`${audit.missing.length} acknowledged writes missing at the emulator`);
if (audit.wrongName.length) problems.push(`${audit.wrongName.length} writes with the wrong name`);
if (audit.duplicateIds.length) problems.push(`${audit.duplicateIds.length} ids acknowledged twice`);
if (JSON.stringify(audit.applied) !== JSON.stringify(audit.acknowledged))
  problems.push(`applied ${JSON.stringify(audit.applied)} != acknowledged ${JSON.stringify(audit.acknowledged)}`);
if (cache.peakBytes > cacheBytes) problems.push(`cache held ${cache.peakBytes} B, over its cap`);
const growth = report.rss.endMb - report.rss.afterWarmupMb;
if (growth > Number(values['rss-margin-mb'])) problems.push(`RSS grew ${growth.toFixed(1)} MB after warm-up`);
const heapGrowth = report.heapUsedMb.end - report.heapUsedMb.afterWarmup;
if (heapGrowth > Number(values['heap-margin-mb']))
  problems.push(`live heap grew ${heapGrowth.toFixed(1)} MB after warm-up`);

console.log(
  JSON.stringify(
    {
      seconds,
      ...report,
      acks: report.acks.length,
      rps: Math.round(report.requests / seconds),
      cache,
      audit: { ...audit, missing: audit.missing.length },
      problems,
    },
    null,
    2,
  ),
);

server.closeAllConnections();
server.close();
await gateway.close();
await Promise.all([governance.close(), calendar.close()]);
process.exit(problems.length ? 1 : 0);
