/**
 * Two gateway processes (`src/server.ts`) on a throwaway Redis of this file's own: Redis is killed,
 * and both stay ready (200, with `redis` reported failed) and keep answering queries, since every
 * replica shares that outage; with READY_REQUIRES=redis a replica says 503 instead.
 */
import { startGateway } from './support/gateway-process.js';
import { afterAll, describe, expect, it } from 'vitest';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { startCalendarEmulator } from '../src/emulators/calendar/index.js';
import { startGovernanceEmulator } from '../src/emulators/governance/index.js';
import { startThrowawayRedis } from '../scripts/throwaway-redis.js';
import { uniquePrefix } from './support/redis.js';
import { until } from './support/wait.js';

// A redis-server of this file's own: the test kills it.
const redis = await startThrowawayRedis();
if (typeof redis === 'string' && process.env.CI === 'true') throw new Error(`Redis is required on CI: ${redis}.`);
afterAll(async () => {
  if (typeof redis !== 'string') await redis.stop();
});

/** One gateway process; resolves with its origin once it says it is ready. */
async function replica(env: Record<string, string>): Promise<string> {
  return `${(await startGateway({ LOG_LEVEL: 'warn', ...env })).origin}`;
}

const ready = async (origin: string) => {
  const res = await fetch(`${origin}/ready`);
  return { status: res.status, body: (await res.json()) as { ready: boolean; checks: Record<string, string> } };
};

const query = async (origin: string) => {
  const res = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ entities(first: 1) { nodes { id } } events(first: 1) { nodes { id } } }' }),
  });
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: unknown[] } };
};

describe.skipIf(typeof redis === 'string')('a Redis every replica shares, killed', () => {
  it('leaves both replicas ready, reporting redis failed, and answering', async () => {
    if (typeof redis === 'string') return;
    const [governance, calendar] = await Promise.all([startGovernanceEmulator(), startCalendarEmulator()]);
    try {
      const common = {
        ...emulatorEnv(governance, calendar),
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: uniquePrefix(),
        MCP: 'false',
      };
      const [a, b, strict] = await Promise.all([
        replica(common),
        replica(common),
        replica({ ...common, READY_REQUIRES: 'redis' }),
      ]);
      for (const origin of [a, b, strict])
        await until(async () => (await ready(origin)).body.checks.redis === 'ok', 'redis ok', {
          timeout: 10_000,
          interval: 100,
        });
      await redis.kill();
      for (const origin of [a, b]) {
        await until(async () => (await ready(origin)).body.checks.redis === 'failed', 'redis failed', {
          timeout: 10_000,
          interval: 100,
        });
        expect(await ready(origin)).toMatchObject({ status: 200, body: { ready: true } });
        const answer = await query(origin);
        expect(answer.status).toBe(200);
        expect(answer.body.errors).toBeUndefined();
        expect(answer.body.data.entities.nodes).toHaveLength(1);
        expect(answer.body.data.events.nodes).toHaveLength(1);
      }
      await until(async () => (await ready(strict)).status === 503, 'the strict replica unready', {
        timeout: 10_000,
        interval: 100,
      });
    } finally {
      await Promise.all([governance.close(), calendar.close()]);
    }
    // Three processes start and connect on a busy machine: the wait is for conditions, the bound generous.
  }, 120_000);
});
