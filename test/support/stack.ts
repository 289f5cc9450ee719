/**
 * Test harness: both emulators on port 0, a gateway wired to them over real HTTP, and helpers to run
 * GraphQL operations through `yoga.fetch` or a real listening port. Every stack started is pushed to
 * `leftovers` and closed in `afterAll`, so a test that forgets to close still cleans up.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import { startCalendarEmulator, type CalendarEmulatorOptions } from '../../src/emulators/calendar/index.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { emulatorEnv } from '../../src/app/embedded-emulators.js';
import type { CostEntry } from '../../src/core/cost-report.js';
import { createGateway, type Gateway, type GatewayOptions } from '../../src/app/gateway.js';
import { startGovernanceEmulator, type GovernanceEmulatorOptions } from '../../src/emulators/governance/index.js';

type GovernanceEmulator = Awaited<ReturnType<typeof startGovernanceEmulator>>;
type CalendarEmulator = Awaited<ReturnType<typeof startCalendarEmulator>>;

export interface GraphQLResponse<T = Record<string, unknown>> {
  status: number;
  data?: T | null;
  errors?: {
    message: string;
    path?: (string | number)[];
    locations?: { line: number; column: number }[];
    extensions?: Record<string, unknown>;
  }[];
  extensions?: Record<string, unknown> & {
    cost?: Partial<Record<'governance' | 'calendar', CostEntry>>;
  };
  headers: Headers;
}

export interface StackOptions {
  governance?: GovernanceEmulatorOptions;
  calendar?: CalendarEmulatorOptions;
  /** Environment variables on top of the emulator URLs and credentials (e.g. CACHE_TTL_MS). */
  env?: Record<string, string>;
  /** Last word on the configuration. */
  configure?: (config: Config) => Config;
  /** The gateway's other options (extra plugins, an audit sink). */
  gateway?: Omit<GatewayOptions, 'config'>;
}

export interface Stack {
  governance: GovernanceEmulator;
  calendar: CalendarEmulator;
  gateway: Gateway;
  config: Config;
  /** Runs an operation through `yoga.fetch` (a real Request/Response, no port). */
  query<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<GraphQLResponse<T>>;
  /** Listens on a real port and returns the endpoint URL (`http://127.0.0.1:PORT/graphql`). */
  listen(): Promise<string>;
  /** Clears both emulators' request logs. */
  clearRequests(): void;
  close(): Promise<void>;
}

const leftovers: Stack[] = [];
afterAll(async () => {
  await Promise.all(leftovers.splice(0).map((s) => s.close()));
});

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const [governance, calendar] = await Promise.all([
    startGovernanceEmulator(options.governance),
    startCalendarEmulator(options.calendar),
  ]);
  let config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ...emulatorEnv(governance, calendar),
    ...options.env,
  });
  if (options.configure) config = options.configure(config);
  const gateway = createGateway({ ...options.gateway, config });
  let server: Server | undefined;
  let closed = false;

  const stack: Stack = {
    governance,
    calendar,
    gateway,
    config,
    async query(query, variables, headers) {
      const res = await gateway.yoga.fetch('http://gateway.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as Omit<GraphQLResponse, 'status' | 'headers'>;
      checkEstimate(body, query);
      return { ...body, status: res.status, headers: res.headers } as GraphQLResponse<never>;
    },
    async listen() {
      if (!server) {
        server = createServer(gateway.handler);
        await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      }
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    },
    clearRequests() {
      governance.control.clearRequests();
      calendar.control.clearRequests();
    },
    async close() {
      if (closed) return;
      closed = true;
      if (server) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server!.close(() => resolve()));
      }
      await gateway.close();
      await Promise.all([governance.close(), calendar.close()]);
    },
  };
  leftovers.push(stack);
  return stack;
}

/** Requests the emulator saw whose `route` (e.g. `POST /entities/search`) matches. */
export function countRequests(
  emulator: { control: { requests(): { requests: { route: string }[] } } },
  route?: string | RegExp,
): number {
  const all = emulator.control.requests().requests;
  if (route === undefined) return all.length;
  return all.filter((r) => (typeof route === 'string' ? r.route === route : route.test(r.route))).length;
}

/**
 * Every answer the suite reads through `query` without an error: the estimate is an upper bound of
 * the calls each upstream was sent, retries of failed calls aside (they come on top).
 */
function checkEstimate(body: { errors?: unknown[]; extensions?: Record<string, unknown> }, query: string): void {
  if (body.errors?.length) return;
  const cost = (body.extensions?.cost ?? {}) as Record<string, { estimated: number; actual: number; retries?: number }>;
  for (const [upstream, { estimated, actual, retries = 0 }] of Object.entries(cost))
    if (actual - retries > estimated)
      throw new Error(
        `${upstream}: ${actual} calls against an estimate of ${estimated}: ${query.replace(/\s+/g, ' ').slice(0, 300)}`,
      );
}
