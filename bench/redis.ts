/**
 * A Redis for the replicas workload: `REDIS_URL` when set, else a throwaway `redis-server` on a free
 * port (no persistence), else none, and the workload is skipped with that reason.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

export interface BenchRedis {
  url: string;
  /** Started here (and stopped by `close`), or given through REDIS_URL. */
  own: boolean;
  close(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

async function ping(url: string, timeoutMs: number): Promise<boolean> {
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
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    return false;
  } finally {
    client.disconnect();
  }
}

/** A reachable Redis, or the reason there is none. */
export async function benchRedis(): Promise<BenchRedis | string> {
  const given = process.env.REDIS_URL;
  if (given) {
    if (await ping(given, 2_000)) return { url: given, own: false, close: async () => {} };
    return `REDIS_URL is set but Redis does not answer there`;
  }
  const port = await freePort();
  let proc: ChildProcess;
  try {
    proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
  } catch {
    return 'no REDIS_URL and no redis-server on PATH';
  }
  const spawned = await new Promise<boolean>((resolve) => {
    proc.once('error', () => resolve(false));
    proc.once('spawn', () => resolve(true));
  });
  const url = `redis://127.0.0.1:${port}`;
  if (!spawned || !(await ping(url, 5_000))) {
    proc.kill('SIGKILL');
    return 'no REDIS_URL, and redis-server could not be started';
  }
  return {
    url,
    own: true,
    close: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}
