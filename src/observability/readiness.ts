/**
 * GET /ready: can this gateway serve? Local checks (a Redis PING when Redis is configured) decide
 * it; each upstream's state is reported from its probe (see `upstream-probe.ts`) but fails
 * readiness only when the operator opts in (`READY_REQUIRE_UPSTREAMS`): an upstream that is down
 * is down for every replica, and taking them all out of rotation would also stop the other
 * upstream's data, which keeps flowing. The body names checks and states, never a URL.
 */
import { Redis } from 'ioredis';
import type { UpstreamProbe } from './upstream-probe.js';

export type ReadinessCheck = (signal: AbortSignal) => Promise<void>;

export interface ReadinessSources {
  upstreams: Partial<Record<'governance' | 'calendar', UpstreamProbe>>;
  /** Checks of this process's own dependencies: a failure makes it unready. */
  local: Record<string, ReadinessCheck>;
  requireUpstreams: boolean;
}

export async function runReadiness(sources: ReadinessSources, timeoutMs: number) {
  const signal = AbortSignal.timeout(timeoutMs);
  const [local, upstreams] = await Promise.all([
    Promise.all(
      Object.entries(sources.local).map(async ([name, check]) => {
        try {
          await Promise.race([
            check(signal),
            new Promise((_, reject) =>
              signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
            ),
          ]);
          return [name, 'ok'] as const;
        } catch {
          return [name, 'failed'] as const;
        }
      }),
    ),
    Promise.all(Object.entries(sources.upstreams).map(async ([name, probe]) => [name, await probe.report()] as const)),
  ]);
  const checks: Record<string, 'ok' | 'failed'> = {};
  for (const [name, report] of upstreams) checks[name] = report.state === 'down' ? 'failed' : 'ok';
  for (const [name, outcome] of local) checks[name] = outcome;
  const localOk = local.every(([, outcome]) => outcome === 'ok');
  const upstreamsOk = upstreams.every(([, report]) => report.state !== 'down');
  return {
    ready: localOk && (!sources.requireUpstreams || upstreamsOk),
    checks,
    upstreams: Object.fromEntries(upstreams),
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
