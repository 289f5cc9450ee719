/**
 * The two emulators as the bench runs them: in the orchestrator's process (so their request logs
 * and controls are at hand and their CPU is not charged to the gateway), with injected latency, the
 * data topped up so the fan-out workload really spans its pages, and the environment a gateway
 * process needs to reach them.
 */
import { startCalendarEmulator } from '../src/calendar/emulator/index.js';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { startGovernanceEmulator, type GovernanceEmulatorOptions } from '../src/governance/emulator/index.js';
import type { LoggedRequest } from '../src/emulator-kit/control.js';
import type { ReplayRequest } from './floor-process.js';
import type { GovernanceAccess, UpstreamName } from './lower-bound.js';

export type GovernanceEmulator = Awaited<ReturnType<typeof startGovernanceEmulator>>;
export type CalendarEmulator = Awaited<ReturnType<typeof startCalendarEmulator>>;

export interface Upstreams {
  governance: GovernanceEmulator;
  calendar: CalendarEmulator;
  access: GovernanceAccess;
  latencyMs: number;
  /** Environment for a gateway process pointed at these emulators. */
  gatewayEnv(extra?: Record<string, string>): Record<string, string>;
  clearLogs(): void;
  /** API requests per upstream since the last clear (token requests are counted apart). */
  counts(): UpstreamCounts;
  /** The API requests since the last clear, as a bare client would send them again (the CPU floor). */
  replayable(): ReplayRequest[];
  /** Runs `fn` with injected latency switched off (setup and lower-bound walks). */
  withoutLatency<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface UpstreamCounts {
  governance: number;
  calendar: number;
  token: number;
  rejected429: number;
}

export interface UpstreamOptions {
  latencyMs: number;
  jitterMs?: number;
  governance?: GovernanceEmulatorOptions;
}

const isToken = (r: LoggedRequest) => r.path.includes('/oauth/token');

export async function startUpstreams(options: UpstreamOptions): Promise<Upstreams> {
  const latency = { fixedMs: options.latencyMs, jitterMs: options.jitterMs ?? 0 };
  const [governance, calendar] = await Promise.all([
    startGovernanceEmulator({ ...options.governance, latency }),
    startCalendarEmulator({ latency }),
  ]);
  const access: GovernanceAccess = {
    apiRoot: governance.apiRoot,
    tokenUrl: governance.tokenUrl,
    clientId: governance.clients.full.clientId,
    clientSecret: governance.clients.full.clientSecret,
  };
  return {
    governance,
    calendar,
    access,
    latencyMs: options.latencyMs,
    gatewayEnv: (extra = {}) => ({
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      GRAPHIQL: 'false',
      // Workloads 1–11 measure execution; workload 12 turns the whole-answer cache on for itself.
      RESPONSE_CACHE: 'false',
      ...emulatorEnv(governance, calendar),
      ...extra,
    }),
    clearLogs() {
      governance.control.clearRequests();
      calendar.control.clearRequests();
    },
    counts() {
      const g = governance.control.requests().requests;
      const c = calendar.control.requests().requests;
      return {
        governance: g.filter((r) => !isToken(r)).length,
        calendar: c.length,
        token: g.filter(isToken).length,
        rejected429: [...g, ...c].filter((r) => r.status === 429).length,
      };
    },
    replayable() {
      const of = (upstream: ReplayRequest['upstream'], root: string, log: LoggedRequest[]) =>
        log
          .filter((r) => !isToken(r) && !r.fault)
          .map((r) => ({ upstream, method: r.method, url: `${root}${r.path}${r.query}`, body: r.body }));
      return [
        ...of('governance', governance.apiRoot, governance.control.requests().requests),
        ...of('calendar', calendar.apiRoot, calendar.control.requests().requests),
      ];
    },
    async withoutLatency(fn) {
      governance.control.setLatency({});
      calendar.control.setLatency({});
      try {
        return await fn();
      } finally {
        governance.control.setLatency(latency);
        calendar.control.setLatency(latency);
      }
    },
    async close() {
      await Promise.all([governance.close(), calendar.close()]);
    },
  };
}

export function requestsOf(counts: UpstreamCounts, upstream: UpstreamName): number {
  return counts[upstream];
}
