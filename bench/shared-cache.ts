/**
 * Workload 8: three gateway processes sharing one Redis (the response cache's shared tier), each
 * sent the same cold EntityGraph in turn, as a round-robin balancer would. The figure is what the
 * emulators saw from all three together, divided by the lower bound of one cold EntityGraph: about
 * 1.00 when the second and third replicas answer from Redis, 3.00 when each fetches for itself.
 */
import { round } from './client.js';
import { GraphQLClient } from './client.js';
import { entityGraphBound } from './lower-bound.js';
import { startChild, type Child } from './processes.js';
import { ENTITY_GRAPH } from './queries.js';
import { benchRedis } from './redis.js';
import type { Upstreams } from './upstreams.js';
import type { BenchOptions, WorkloadRecord } from './workloads.js';

export async function sharedCache(
  up: Upstreams,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<WorkloadRecord> {
  const name = `three replicas sharing Redis, the same cold EntityGraph(first: ${options.systems}) through each in turn`;
  const redis = await benchRedis();
  if (typeof redis === 'string') return { id: '8', name, skipped: redis };
  const gateways: Child[] = [];
  const clients: GraphQLClient[] = [];
  try {
    const bound = await up.withoutLatency(() => entityGraphBound(up.access, options.systems, 10));
    // A prefix of its own: the shared tier starts empty, so the first replica's read is cold.
    const env = up.gatewayEnv({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: `bench-cache-${process.pid}-${Date.now()}:` });
    gateways.push(...(await Promise.all([0, 1, 2].map(() => startChild('gateway-process.ts', env)))));
    const shared = await Promise.all(gateways.map((g) => waitFor(g, 'cache-shared-ready')));
    clients.push(...gateways.map((g) => new GraphQLClient(g.url, 1)));
    await up.clearLogs();
    log('workload 8: the same cold EntityGraph through three replicas in turn');
    const perReplica: { governance: number; calendar: number; ms: number }[] = [];
    const answers: string[] = [];
    let errors = 0;
    for (const client of clients) {
      const before = await up.counts();
      const r = await client.run(ENTITY_GRAPH, { first: options.systems });
      const after = await up.counts();
      if (r.status !== 200 || r.errors.length > 0) errors++;
      answers.push(JSON.stringify(r.data));
      perReplica.push({
        governance: after.governance - before.governance,
        calendar: after.calendar - before.calendar,
        ms: round(r.ms, 1),
      });
    }
    const total = perReplica.reduce((a, p) => a + p.governance + p.calendar, 0);
    const boundTotal = bound.requests.governance + bound.requests.calendar;
    return {
      id: '8',
      name,
      redis: redis.own ? 'redis-server started by the bench' : 'REDIS_URL',
      sharedTierReady: shared,
      errors,
      perReplica,
      sameAnswers: answers.every((a) => a === answers[0]),
      upstreamRequests: {
        governance: perReplica.reduce((a, p) => a + p.governance, 0),
        calendar: perReplica.reduce((a, p) => a + p.calendar, 0),
        total,
      },
      lowerBound: { ...bound.requests, total: boundTotal, note: 'one cold EntityGraph' },
      ratio: round(total / boundTotal, 2),
    };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(gateways.map((g) => g.stop()));
    await redis.close();
  }
}

async function waitFor(gateway: Child, what: string): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (await gateway.request<boolean>(what)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
