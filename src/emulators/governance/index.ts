/**
 * The AI governance API emulator: the contract's 15 operations, OAuth2 client credentials, account
 * rate limits and the shared emulator kit's request log, latency and faults, on a real HTTP port.
 */
import { asWrite, createControl, type EmulatorControl, type FaultRule, type LatencyOptions } from '../kit/control.js';
import { fileURLToPath } from 'node:url';
import { listen } from '../kit/serve.js';
import { API_ROOT, createApp, TOKEN_PATH } from './app.js';
import { createAuth, DEFAULT_CLIENTS, SCOPES, type ClientCredentials } from './auth.js';
import { errorBody } from './errors.js';
import { createRateLimiter, type HeaderPrefix, type RateProfile } from './rate-limit.js';
import { DEFAULT_SEED } from './seed.js';
import { GovernanceStore } from './store.js';

export { DEFAULT_CLIENTS } from './auth.js';
export { buildSeed, DEFAULT_SEED, SEED_COUNTS } from './seed.js';

export interface GovernanceEmulatorOptions {
  port?: number;
  host?: string;
  seed?: number;
  rateProfile?: RateProfile;
  rateLimits?: { minute?: number; hour?: number; perEndpointMinute?: number | null };
  /** Shrink the rate-limit windows for tests; blocks scale with them. */
  windows?: { minuteMs?: number; hourMs?: number };
  headerPrefix?: HeaderPrefix;
  tokenTtlSeconds?: number;
  latency?: LatencyOptions;
  faults?: FaultRule[];
  /** Serve `/_emulator/*` (request log, reset, faults, latency) over HTTP. */
  controlRoutes?: boolean;
}

export interface GovernanceEmulator {
  origin: string;
  /** `origin + /api/ai-governance/v1`. */
  apiRoot: string;
  tokenUrl: string;
  clients: { full: ClientCredentials; read: ClientCredentials; write: ClientCredentials };
  control: EmulatorControl;
  /**
   * The discovery file (GOVERNANCE_DISCOVERY_FILE) that describes this tenant: the shipped example,
   * which matches the default seed only (absent with another seed).
   */
  discoveryFile?: string;
  close(): Promise<void>;
}

/** The shipped example discovery file: the default seed's link types, stages, options and organizations. */
export const EXAMPLE_DISCOVERY_FILE = fileURLToPath(new URL('./discovery.example.json', import.meta.url));

const credentials = (c: ClientCredentials): ClientCredentials => ({
  clientId: c.clientId,
  clientSecret: c.clientSecret,
});

export async function startGovernanceEmulator(options: GovernanceEmulatorOptions = {}): Promise<GovernanceEmulator> {
  const seed = options.seed ?? DEFAULT_SEED;
  const store = new GovernanceStore(seed);
  const limiter = createRateLimiter({
    profile: options.rateProfile ?? 'production',
    limits: options.rateLimits,
    windows: options.windows,
    headerPrefix: options.headerPrefix ?? 'svc',
  });
  const auth = createAuth({
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    tenantGuid: () => store.data.tenantGuid,
    orgGroupGuid: () => store.rootOrgId,
  });
  // Tokens survive a reset on purpose: a reset restores data, not a client's session.
  const { control, middleware, mountRoutes } = createControl({
    apiRoot: API_ROOT,
    latency: options.latency,
    faults: options.faults,
    resetState: () => {
      store.reset();
      limiter.reset();
    },
    errorBody: (status) => errorBody(status),
    rateLimitHeaders: () => limiter.faultHeaders(),
    seed,
  });
  const app = createApp({
    store,
    // Writes are the routes that need a write or delete scope (searches are POSTs that only read): they
    // wait out their latency before they apply.
    requireScopes: (scopes) => {
      const check = auth.requireScopes(scopes);
      if (scopes !== SCOPES.write && scopes !== SCOPES.delete) return check;
      return (c, next) => check(c, async () => void (await asWrite(c, next)));
    },
    logAndFaults: middleware,
    rateCount: limiter.count,
    rateEnforce: limiter.enforce,
    issueToken: auth.issue,
    mountControl: options.controlRoutes ? mountRoutes : undefined,
  });
  const server = await listen(app, options.port ?? 0, options.host ?? '127.0.0.1');
  return {
    origin: server.origin,
    apiRoot: `${server.origin}${API_ROOT}`,
    tokenUrl: `${server.origin}${TOKEN_PATH}`,
    clients: {
      full: credentials(DEFAULT_CLIENTS.full),
      read: credentials(DEFAULT_CLIENTS.read),
      write: credentials(DEFAULT_CLIENTS.write),
    },
    control,
    ...(seed === DEFAULT_SEED ? { discoveryFile: EXAMPLE_DISCOVERY_FILE } : {}),
    close: () => server.close(),
  };
}
