/**
 * Vitest global setup: a Redis of the suite's own. Tests never touch the machine's Redis (another
 * process's data may live there): this starts a throwaway `redis-server` on a free port, without
 * persistence, and hands its URL to the test files through `inject('redisUrl')`. `TEST_REDIS_URL`
 * points the suite at a Redis of your choosing instead (tests write only keys under unique prefixes
 * there; files that delete whole data sets start a redis-server of their own, see `fileRedis`).
 * Without either, Redis tests skip, except under CI=true, where they fail (see `requireRedis`).
 */
import type { TestProject } from 'vitest/node';
import { redisAnswers, startThrowawayRedis, type ThrowawayRedis } from '../../scripts/throwaway-redis.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The suite's Redis, or '' when none could be had (with the reason in `redisMissing`). */
    redisUrl: string;
    redisMissing: string;
  }
}

let own: ThrowawayRedis | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.TEST_REDIS_URL;
  let url = '';
  let missing = '';
  if (given) {
    if (await redisAnswers(given, 2_000)) url = given;
    else missing = `TEST_REDIS_URL (${given.replace(/\/\/[^@]*@/, '//')}) does not answer`;
  } else {
    const started = await startThrowawayRedis();
    if (typeof started === 'string') missing = `${started}, and no TEST_REDIS_URL`;
    else {
      own = started;
      url = started.url;
    }
  }
  project.provide('redisUrl', url);
  project.provide('redisMissing', missing);
  return async () => {
    await own?.stop();
  };
}
