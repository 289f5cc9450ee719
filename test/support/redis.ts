/**
 * Redis for the traffic tests: whether the machine's Redis (127.0.0.1:6379) answers, a unique key
 * prefix per run, and a tiny TCP proxy in front of Redis that can be cut and restored to play a
 * Redis outage (the one thing a real Redis cannot be asked to do on demand). Tests that need Redis
 * skip with a message when it is unreachable, except on CI (`CI=true`), where that is a failure.
 */
import { randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';

export const REDIS_HOST = '127.0.0.1';
export const REDIS_PORT = 6379;
/** A database of its own, so FLUSHDB here never touches anyone else's keys in db 0. */
export const REDIS_DB = 9;
export const REDIS_URL = `redis://${REDIS_HOST}:${REDIS_PORT}/${REDIS_DB}`;

export async function redisAvailable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1_000 });
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
  if (process.env.CI === 'true') throw new Error(`Redis is required on CI but ${REDIS_HOST}:${REDIS_PORT} is unreachable.`);
  console.warn(`Skipping Redis traffic tests: no Redis at ${REDIS_HOST}:${REDIS_PORT} (they fail instead when CI=true).`);
  return false;
}

export const uniquePrefix = () => `test-traffic:${randomUUID().slice(0, 8)}:`;

/** A TCP proxy to Redis; `cut()` drops every connection and refuses new ones until `restore()`. */
export class RedisProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private down = false;

  async start(): Promise<string> {
    this.server = createServer((client) => {
      if (this.down) return client.destroy();
      const upstream = connect(REDIS_PORT, REDIS_HOST);
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
    return `redis://127.0.0.1:${(this.server.address() as AddressInfo).port}/${REDIS_DB}`;
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
