/**
 * GET /ready: can this gateway serve? Each check resolves when its dependency answers and throws
 * when it does not. The default checks are cheap: one HEAD request to each upstream (any answer
 * below 500 means reachable; no credentials are sent) and a Redis PING when Redis is configured.
 * Services can add their own via `ready()`. The body names the checks and their outcome, never a URL.
 */
import { Redis } from 'ioredis';
import { request, type Dispatcher } from 'undici';

export type ReadinessCheck = (signal: AbortSignal) => Promise<void>;

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, 'ok' | 'failed'>;
}

export async function runReadiness(checks: Record<string, ReadinessCheck>, timeoutMs: number): Promise<ReadinessReport> {
  const signal = AbortSignal.timeout(timeoutMs);
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await Promise.race([check(signal), new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }))]);
        return [name, 'ok'] as const;
      } catch {
        return [name, 'failed'] as const;
      }
    }),
  );
  return { ready: entries.every(([, outcome]) => outcome === 'ok'), checks: Object.fromEntries(entries) };
}

/** Reachable: the upstream answers HTTP with anything but a server error. */
export function httpReachable(url: string, dispatcher?: Dispatcher): ReadinessCheck {
  return async (signal) => {
    const res = await request(url, { method: 'HEAD', signal, dispatcher });
    await res.body.dump();
    if (res.statusCode >= 500) throw new Error(`status ${res.statusCode}`);
  };
}

/** One lazily connected client, reused by every probe and closed with the gateway. */
export function redisPing(url: string): { check: ReadinessCheck; close(): Promise<void> } {
  let client: Redis | undefined;
  return {
    async check() {
      if (!client) {
        client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 1_000 });
        client.on('error', () => {}); // reported by the probe's outcome; the error text may hold the URL
      }
      // ioredis reconnects on its own after a failure; a fresh client only needs its first connect.
      if (client.status === 'wait') await client.connect();
      const pong = await client.ping();
      if (pong !== 'PONG') throw new Error('unexpected reply');
    },
    async close() {
      client?.disconnect();
    },
  };
}
