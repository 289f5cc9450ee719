/**
 * Workload 16: a fair share under contention, over HTTP, in latencies (the suite asserts the order
 * and the shares with a clock it moves: test/fair-share.test.ts). A gateway process in front of a
 * governance emulator of its own, with a budget that fits half of the combined load (25 a second,
 * paced at one point per 50 ms, `smooth=25`) and two callers told apart by their API keys: a polite
 * caller sending 2 reads a second and a greedy one sending 40, open loop, each read one upstream
 * call. The floor, measured in the same run just before: the polite caller alone. The figure is the
 * polite caller's p95 beside the greedy one ÷ (its p95 alone + one pace): a newcomer at the head of
 * the line waits at most about one pace for its point.
 */
import { createHash, randomUUID } from 'node:crypto';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { GraphQLClient, percentile, round, type GraphQLResult } from './client.js';
import { startChild, type Child } from './processes.js';
import { startEmulator, type Upstreams } from './upstreams.js';
import type { BenchOptions, WorkloadRecord } from './workloads.js';

const NAME = 'fair share: a polite caller beside a greedy one, p95 ÷ (alone + one pace)';
const LIMIT = 25;
const WINDOW_MS = 1_000;
/** The window and its guard band (250 ms), over the limit: the pace `smooth=25` holds. */
const PACE_MS = (WINDOW_MS + 250) / LIMIT;
const GREEDY_PER_S = 40;
const POLITE_PER_S = 2;
const QUEUE_MS = 1_500;
const READ = 'query($id: ID!) { entity(id: $id) { id } }';

export async function fairShareLatency(up: Upstreams, options: BenchOptions): Promise<WorkloadRecord> {
  const runMs = options.quick ? 1_500 : 8_000;
  const governance = await startEmulator('governance', { latency: { fixedMs: options.latencyMs } });
  const keys = { polite: randomUUID(), greedy: randomUUID() };
  const sha = (k: string) => createHash('sha256').update(k).digest('hex');
  let gateway: Child | undefined;
  const clients: GraphQLClient[] = [];
  try {
    gateway = await startChild(
      'gateway-process.ts',
      up.gatewayEnv({
        ...emulatorEnv(governance, up.calendar),
        AUTH_API_KEYS: `polite|${sha(keys.polite)}|governance:read,greedy|${sha(keys.greedy)}|governance:read`,
        GOVERNANCE_RATE_LIMITS: `minute:0,hour:0,${LIMIT}/${WINDOW_MS}ms`,
        GOVERNANCE_RATE_MARGIN: '1',
        // Served in turn at the account's pace; neither caller capped (the greedy one gets the rest).
        FAIR_SHARE: `smooth=${LIMIT},*:share=100%`,
        CACHE_TTL_MS: '0',
        UPSTREAM_QUEUE_DEADLINE_MS: String(QUEUE_MS),
      }),
    );
    const client = (key: string) => {
      const c = new GraphQLClient(gateway!.url, 64, { authorization: `Bearer ${key}` });
      clients.push(c);
      return c;
    };
    const [polite, greedy] = [client(keys.polite), client(keys.greedy)];
    // The gateway's token and warm-up, then the budget's span left to slide out.
    await load(polite, POLITE_PER_S, 1_000);
    await new Promise((r) => setTimeout(r, WINDOW_MS + 250));
    const alone = await load(polite, POLITE_PER_S, runMs);
    await new Promise((r) => setTimeout(r, WINDOW_MS + 250));
    const [busy, politeBeside] = await Promise.all([
      load(greedy, GREEDY_PER_S, runMs),
      load(polite, POLITE_PER_S, runMs),
    ]);
    const served = (rs: GraphQLResult[]) => rs.filter(isServed).length;
    const p95 = (rs: GraphQLResult[]) =>
      round(
        percentile(
          rs.map((r) => r.ms),
          95,
        ),
        1,
      );
    // What the account gives at its pace while the load lasts and its last requests wait in line.
    const capacity = 1 + Math.floor((runMs + QUEUE_MS) / PACE_MS);
    const unexpected = [...alone, ...politeBeside, ...busy].filter((r) => !isServed(r) && !isRateLimited(r));
    return {
      id: '16',
      name: NAME,
      runMs,
      budget: { limit: LIMIT, windowMs: WINDOW_MS, paceMs: PACE_MS },
      politeAlone: { sent: alone.length, served: served(alone), p95Ms: p95(alone) },
      polite: { sent: politeBeside.length, served: served(politeBeside), p95Ms: p95(politeBeside) },
      greedy: {
        sent: busy.length,
        served: served(busy),
        rateLimited: busy.filter(isRateLimited).length,
      },
      errors: unexpected.length,
      ...(unexpected.length
        ? { errorSample: unexpected.slice(0, 3).map((r) => r.errors[0]?.message ?? r.status) }
        : {}),
      capacity,
      servedShareOfCapacity: round((served(busy) + served(politeBeside)) / capacity, 2),
      ratio: round(p95(politeBeside) / (p95(alone) + PACE_MS), 2),
    };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await gateway?.stop();
    await governance.child.stop();
  }
}

const isServed = (r: GraphQLResult) => r.status === 200 && r.errors.length === 0 && r.gatewayRequests.governance === 1;
const isRateLimited = (r: GraphQLResult) => r.errors.some((e) => e.extensions?.code === 'RATE_LIMITED');

/** `perSecond` reads for `ms` at an even pace, without waiting for answers. */
async function load(client: GraphQLClient, perSecond: number, ms: number): Promise<GraphQLResult[]> {
  const pending: Promise<GraphQLResult>[] = [];
  const start = performance.now();
  for (let i = 0; i < Math.round((perSecond * ms) / 1000); i++) {
    const wait = start + (i * 1000) / perSecond - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(client.run(READ, { id: randomUUID() }));
  }
  return Promise.all(pending);
}
