/**
 * Redis for the traffic tests: whether the suite's own Redis answers, a unique key prefix per run,
 * and a tiny TCP proxy in front of Redis that can be cut and restored to play a Redis outage (the one thing a real Redis cannot be asked to do on demand). Tests that need Redis
 * skip with a message when it is unreachable, except on CI (`CI=true`), where that is a failure.
 */
import { randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, inject } from 'vitest';
import { serverPid, startThrowawayRedis, type ThrowawayRedis } from '../../scripts/throwaway-redis.js';

/** Most timestamps in any interval of a span's length (every span, not clock windows). */
export { maxInAnySpan } from '../../bench/spans.js';

/** The suite's own Redis (see `redis-server.ts`), never the machine's shared one. */
const BASE_URL = inject('redisUrl');
const parsed = BASE_URL ? new URL(BASE_URL) : undefined;
export const REDIS_HOST = parsed?.hostname ?? '127.0.0.1';
export const REDIS_PORT = Number(parsed?.port || 0);
/** A database of its own inside that server (which may be one given by TEST_REDIS_URL). */
export const REDIS_DB = 9;
export const REDIS_URL = BASE_URL
  ? `redis://${parsed!.username ? `${parsed!.username}:${parsed!.password}@` : ''}${REDIS_HOST}:${REDIS_PORT}/${REDIS_DB}`
  : '';

export async function redisAvailable(): Promise<boolean> {
  if (!REDIS_URL) return false;
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1_000,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** Resolves to whether Redis tests run; throws on CI when Redis is missing. */
export async function requireRedis(): Promise<boolean> {
  const ok = await redisAvailable();
  if (ok) return true;
  const why = inject('redisMissing') || `the suite's Redis at ${REDIS_HOST}:${REDIS_PORT} does not answer`;
  if (process.env.CI === 'true') throw new Error(`Redis is required on CI: ${why}.`);
  console.warn(
    `Skipping Redis tests: ${why} (install redis-server or set TEST_REDIS_URL; they fail instead when CI=true).`,
  );
  return false;
}

export const uniquePrefix = () => `test-traffic:${randomUUID().slice(0, 8)}:`;

/**
 * A redis-server of the calling test file's own, on a free port, stopped after the file: for
 * files that delete counters or whole data sets to play a loss, so they never touch a Redis
 * anything else uses (not even the suite's). Undefined (the file's Redis tests skip, with a
 * message) when no redis-server can be started; under CI=true that is a failure.
 */
export async function fileRedis(): Promise<string | undefined> {
  const started = await startThrowawayRedis();
  if (typeof started !== 'string') {
    afterAll(() => started.stop());
    return started.url;
  }
  if (process.env.CI === 'true') throw new Error(`Redis is required on CI: ${started}.`);
  console.warn(`Skipping Redis tests: ${started} (install redis-server; they fail instead when CI=true).`);
  return undefined;
}

/**
 * A TCP proxy to Redis (the suite's, or the one at `target`); `cut()` drops every connection and
 * refuses new ones until `restore()`.
 */
export class RedisProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private down = false;
  private readonly host: string;
  private readonly port: number;
  private readonly db: string;

  constructor(target?: string) {
    const u = target ? new URL(target) : undefined;
    this.host = u?.hostname ?? REDIS_HOST;
    this.port = u ? Number(u.port) : REDIS_PORT;
    this.db = u ? u.pathname.slice(1) : String(REDIS_DB);
  }

  async start(): Promise<string> {
    this.server = createServer((client) => {
      if (this.down) return client.destroy();
      const upstream = connect(this.port, this.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `redis://127.0.0.1:${(this.server.address() as AddressInfo).port}/${this.db}`;
  }

  cut(): void {
    this.down = true;
    for (const s of this.sockets) s.destroy();
  }

  restore(): void {
    this.down = false;
    for (const s of this.sockets) s.resume();
  }

  /** Keeps connections open but stops passing bytes: a hung Redis rather than a dead one. */
  stall(): void {
    for (const s of this.sockets) s.pause();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/**
 * A redis-server of the test's own (no persistence) that can be killed and started again on the
 * same port: a real Redis restart, which loses its data.
 */
export class OwnRedis {
  private server?: ThrowawayRedis;
  private port?: number;

  get url(): string {
    return `redis://127.0.0.1:${this.port ?? 0}`;
  }

  async start(): Promise<string> {
    const started = await startThrowawayRedis(this.port);
    if (typeof started === 'string') throw new Error(started);
    this.server = started;
    this.port = Number(new URL(started.url).port);
    return started.url;
  }

  /**
   * Deletes every key under `prefix` on this server (started by `start`, so those keys are the
   * test's alone): counters lost while the clients stay connected. Checked again right before: the
   * server answering must still be the process `start` spawned. Nothing else is deleted.
   */
  async deleteKeys(prefix: string): Promise<number> {
    if (!this.server) throw new Error('OwnRedis.deleteKeys before start');
    if ((await serverPid(this.server.url)) !== this.server.pid)
      throw new Error(`OwnRedis.deleteKeys: ${this.server.url} is not the redis-server this test started`);
    const client = new Redis(this.server.url);
    try {
      let deleted = 0;
      let cursor = '0';
      do {
        const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        if (keys.length > 0) deleted += await client.unlink(...keys);
        cursor = next;
      } while (cursor !== '0');
      return deleted;
    } finally {
      client.disconnect();
    }
  }

  /** Kills the server (SIGKILL: no goodbye to the clients) and waits until it is gone. */
  async stop(): Promise<void> {
    await this.server?.kill();
  }
}
