/**
 * Vitest global setup: a Redis of the suite's own. Tests never touch the machine's Redis (another
 * process's data may live there): this starts a throwaway `redis-server` on a free port, without
 * persistence, and hands its URL to the test files through `inject('redisUrl')`. `TEST_REDIS_URL`
 * points the suite at a Redis of your choosing instead (it must be one the suite may flush).
 * Without either, Redis tests skip, except under CI=true, where they fail (see `requireRedis`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';
import { Redis } from 'ioredis';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The suite's Redis, or '' when none could be had (with the reason in `redisMissing`). */
    redisUrl: string;
    redisMissing: string;
  }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function answers(url: string, timeoutMs: number): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 500,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      try {
        if (client.status !== 'ready') await client.connect();
        if ((await client.ping()) === 'PONG') return true;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    return false;
  } finally {
    client.disconnect();
  }
}

let proc: ChildProcess | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.TEST_REDIS_URL;
  let url = '';
  let missing = '';
  if (given) {
    if (await answers(given, 2_000)) url = given;
    else missing = `TEST_REDIS_URL (${given.replace(/\/\/[^@]*@/, '//')}) does not answer`;
  } else {
    const port = await freePort();
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const started = await new Promise<boolean>((resolve) => {
      child.once('error', () => resolve(false));
      child.once('spawn', () => resolve(true));
    });
    if (started && (await answers(`redis://127.0.0.1:${port}`, 5_000))) {
      proc = child;
      url = `redis://127.0.0.1:${port}`;
    } else {
      child.kill('SIGKILL');
      missing = 'no redis-server on PATH (or it did not start) and no TEST_REDIS_URL';
    }
  }
  project.provide('redisUrl', url);
  project.provide('redisMissing', missing);
  return async () => {
    const p = proc;
    if (!p || p.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      p.once('exit', () => resolve());
      p.kill('SIGTERM');
    });
  };
}
