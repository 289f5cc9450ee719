/**
 * A throwaway `redis-server` on a free loopback port, without persistence, for the test suite and
 * the bench (neither touches a Redis it did not start, unless pointed at one), and the readiness
 * check both use on a given Redis.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

export interface ThrowawayRedis {
  url: string;
  /** The redis-server process this call spawned (compare with `serverPid` before anything destructive). */
  pid: number;
  stop(): Promise<void>;
  /** SIGKILL: the server dies without a word to its clients (a crash, for tests of a lost Redis). */
  kill(): Promise<void>;
}

/** A loopback port nothing listens on now. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Whether a Redis answers PING at `url` within `timeoutMs`. */
export async function redisAnswers(url: string, timeoutMs: number): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 500,
    retryStrategy: () => null,
  });
  // Refusals are expected while the server starts; the loop below asks again.
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

/** The process id of the Redis at `url` (INFO server), or undefined. */
export async function serverPid(url: string): Promise<number | undefined> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const m = /^process_id:(\d+)/m.exec(await client.info('server'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  } finally {
    client.disconnect();
  }
}

/**
 * Starts one (on `port`, e.g. to restart one on the port its clients know, else on a free one), or
 * says why it could not (no redis-server on PATH, or it did not answer).
 */
export async function startThrowawayRedis(port?: number): Promise<ThrowawayRedis | string> {
  port ??= await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const started = await new Promise<boolean>((resolve) => {
    child.once('error', () => resolve(false));
    child.once('spawn', () => resolve(true));
  });
  const url = `redis://127.0.0.1:${port}`;
  if (!started || !(await redisAnswers(url, 5_000))) {
    child.kill('SIGKILL');
    return started ? 'redis-server started but did not answer' : 'no redis-server on PATH';
  }
  // The port was free when chosen, but another Redis could have taken it since; the callers delete
  // keys and kill servers, so only the server this call spawned may be handed out.
  if ((await serverPid(url)) !== child.pid) {
    child.kill('SIGKILL');
    return `another Redis answers on port ${port}`;
  }
  const end = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  return { url, pid: child.pid!, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
}
