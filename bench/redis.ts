/**
 * A Redis for the replicas workload: `REDIS_URL` when set, else a throwaway `redis-server` on a free
 * port (no persistence), else none, and the workload is skipped with that reason.
 */
import { redisAnswers, startThrowawayRedis } from '../scripts/throwaway-redis.js';

export interface BenchRedis {
  url: string;
  /** Started here (and stopped by `close`), or given through REDIS_URL. */
  own: boolean;
  close(): Promise<void>;
}

/** A reachable Redis, or the reason there is none. */
export async function benchRedis(): Promise<BenchRedis | string> {
  const given = process.env.REDIS_URL;
  if (given) {
    if (await redisAnswers(given, 2_000)) return { url: given, own: false, close: async () => {} };
    return `REDIS_URL is set but Redis does not answer there`;
  }
  const started = await startThrowawayRedis();
  if (typeof started === 'string') return `no REDIS_URL, and ${started}`;
  return { url: started.url, own: true, close: () => started.stop() };
}
