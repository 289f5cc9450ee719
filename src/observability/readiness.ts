/**
 * GET /ready: can this gateway serve? Each upstream's state (from its probe, see `upstream-probe.ts`)
 * and the configured Redis (a PING) are reported in the body, but fail readiness only when the
 * operator lists them in `READY_REQUIRES`: an upstream or a Redis every replica shares is down for
 * all of them, and taking them all out of rotation would stop what still works (the other upstream's
 * data; without Redis each replica spends its local share). A drain makes it 503 (http/drain.ts).
 * The body names checks and states, never a URL.
 */
import { Redis } from 'ioredis';
import type { ReadyRequirement } from '../config/observability.js';
import type { UpstreamProbe } from './upstream-probe.js';

export type ReadinessCheck = (signal: AbortSignal) => Promise<void>;

export interface ReadinessSources {
  upstreams: Partial<Record<'governance' | 'calendar', UpstreamProbe>>;
  /** Checks of shared dependencies by name (`redis`): reported, failing readiness when required. */
  checks: Partial<Record<ReadyRequirement, ReadinessCheck>>;
  /** What fails readiness when down (READY_REQUIRES). */
  requires: ReadonlySet<ReadyRequirement>;
}

export async function runReadiness(sources: ReadinessSources, timeoutMs: number) {
  const signal = AbortSignal.timeout(timeoutMs);
  const [checked, upstreams] = await Promise.all([
    Promise.all(
      Object.entries(sources.checks).map(async ([name, check]) => {
        try {
          await Promise.race([
            check(signal),
            new Promise((_, reject) =>
              signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
            ),
          ]);
          return [name as ReadyRequirement, 'ok'] as const;
        } catch {
          return [name as ReadyRequirement, 'failed'] as const;
        }
      }),
    ),
    Promise.all(Object.entries(sources.upstreams).map(async ([name, probe]) => [name, await probe.report()] as const)),
  ]);
  const checks: Record<string, 'ok' | 'failed'> = {};
  for (const [name, report] of upstreams) checks[name] = report.state === 'down' ? 'failed' : 'ok';
  for (const [name, outcome] of checked) checks[name] = outcome;
  const checksOk = checked.every(([name, outcome]) => outcome === 'ok' || !sources.requires.has(name));
  const upstreamsOk = upstreams.every(([, report]) => report.state !== 'down');
  return {
    ready: checksOk && (!sources.requires.has('upstreams') || upstreamsOk),
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
