/**
 * The two emulators as the bench runs them: each in a process of its own (emulator-process.ts), as a
 * real upstream is, with injected latency, the data topped up so the fan-out workload really spans
 * its pages, and the environment a gateway process needs to reach them. Their request logs and
 * controls are read over the IPC channel.
 */
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import type { FaultRule, LatencyOptions, LoggedRequest } from '../src/emulators/kit/control.js';
import type { GovernanceEmulatorOptions } from '../src/emulators/governance/index.js';
import type { EmulatorEndpoint } from './emulator-process.js';
import type { ReplayRequest } from './floor-process.js';
import { resourceKey, type GovernanceAccess, type LowerBound, type UpstreamName } from './lower-bound.js';
import { startChild, type Child } from './processes.js';

/** An emulator process: where it listens, and its log and controls. */
export interface EmulatorProcess extends EmulatorEndpoint {
  child: Child;
  requests(): Promise<LoggedRequest[]>;
  clear(): Promise<void>;
  setLatency(latency: LatencyOptions): Promise<void>;
  setFaults(rules: FaultRule[]): Promise<void>;
  /** Seed data, log, latency and faults back to the start. */
  reset(): Promise<void>;
  /** Calendar only: retitles a post outside the API (nothing logged); false when there is no such post. */
  editTitle(id: number, title: string): Promise<boolean>;
}

/** `source`: run it from TypeScript (see `startChild`). */
export async function startEmulator(
  kind: UpstreamName,
  options: Record<string, unknown>,
  source = false,
): Promise<EmulatorProcess> {
  const child = await startChild(
    'emulator-process.ts',
    { BENCH_EMULATOR: kind, BENCH_EMULATOR_OPTIONS: JSON.stringify(options) },
    60_000,
    source,
  );
  const endpoint = await child.request<EmulatorEndpoint>('endpoint');
  return {
    ...endpoint,
    child,
    requests: () => child.request<LoggedRequest[]>('requests'),
    clear: () => child.request('clear').then(() => undefined),
    setLatency: (latency) => child.request('latency', latency).then(() => undefined),
    setFaults: (rules) => child.request('faults', rules).then(() => undefined),
    reset: () => child.request('reset').then(() => undefined),
    editTitle: (id, title) => child.request<boolean>('edit-title', { id, title }),
  };
}

/** Both emulators' logs, read at one moment. */
export type Logs = Record<UpstreamName, LoggedRequest[]>;

export interface Upstreams {
  governance: EmulatorProcess;
  calendar: EmulatorProcess;
  access: GovernanceAccess;
  latencyMs: number;
  /** Environment for a gateway process pointed at these emulators. */
  gatewayEnv(extra?: Record<string, string>): Record<string, string>;
  clearLogs(): Promise<void>;
  /** The requests both emulators logged since the last clear. */
  logs(): Promise<Logs>;
  /** API requests per upstream since the last clear (token requests are counted apart). */
  counts(): Promise<UpstreamCounts>;
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

export function countsOf(logs: Logs): UpstreamCounts {
  return {
    governance: logs.governance.filter((r) => !isToken(r)).length,
    calendar: logs.calendar.length,
    token: logs.governance.filter(isToken).length,
    rejected429: [...logs.governance, ...logs.calendar].filter((r) => r.status === 429).length,
  };
}

/**
 * The API requests of `logs`, as a bare client would send them again (the floor), each at the level
 * of the query the walked lower bound puts its resource on (level 1 when there is no bound or the
 * bound has no such resource).
 */
export function replayable(up: Upstreams, logs: Logs, bound?: LowerBound): ReplayRequest[] {
  const of = (upstream: UpstreamName) =>
    logs[upstream]
      .filter((r) => !isToken(r) && !r.fault)
      .map((r) => ({
        upstream,
        method: r.method,
        url: `${up[upstream].apiRoot}${r.path}${r.query}`,
        body: r.body,
        level:
          bound?.levelOf?.[
            `${upstream} ${resourceKey(upstream, r.method, r.path, Object.fromEntries(new URLSearchParams(r.query)))}`
          ] ?? 1,
      }));
  return [...of('governance'), ...of('calendar')];
}

export async function startUpstreams(options: UpstreamOptions): Promise<Upstreams> {
  const latency = { fixedMs: options.latencyMs, jitterMs: options.jitterMs ?? 0 };
  const [governance, calendar] = await Promise.all([
    startEmulator('governance', { ...options.governance, latency }),
    startEmulator('calendar', { latency }),
  ]);
  const access: GovernanceAccess = {
    apiRoot: governance.apiRoot,
    tokenUrl: governance.tokenUrl,
    clientId: governance.clients.full.clientId,
    clientSecret: governance.clients.full.clientSecret,
  };
  const both = <T>(fn: (e: EmulatorProcess) => Promise<T>) => Promise.all([fn(governance), fn(calendar)]);
  const logs = async (): Promise<Logs> => {
    const [g, c] = await both((e) => e.requests());
    return { governance: g, calendar: c };
  };
  return {
    governance,
    calendar,
    access,
    latencyMs: options.latencyMs,
    gatewayEnv: (extra = {}) => ({
      NODE_ENV: 'production',
      // Workloads measure execution; workload 12a turns authentication on for itself.
      AUTH_ANONYMOUS: '*',
      LOG_LEVEL: 'error',
      GRAPHIQL: 'false',
      // Workloads 1–11 measure execution; workload 12 turns the whole-answer cache on for itself.
      RESPONSE_CACHE: 'false',
      ...emulatorEnv(governance, calendar),
      ...extra,
    }),
    clearLogs: () => both((e) => e.clear()).then(() => undefined),
    logs,
    counts: async () => countsOf(await logs()),
    async withoutLatency(fn) {
      await both((e) => e.setLatency({}));
      try {
        return await fn();
      } finally {
        await both((e) => e.setLatency(latency));
      }
    },
    close: () => both((e) => e.child.stop()).then(() => undefined),
  };
}
