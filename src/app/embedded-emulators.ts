/**
 * The embedded default: when no upstream URLs are configured, both emulators start in-process on
 * free ports with their default credentials, and the configuration is pointed at them. The gateway
 * then talks to them over real HTTP exactly as it would to a real tenant and site. The emulators
 * (and Hono under them) are loaded only here, when they start: a gateway in front of real upstreams
 * never loads their code.
 */
import type { Config } from '../config/config.js';
import { readDiscoveryConfig } from '../config/discovery.js';

interface GovernanceEndpoint {
  origin: string;
  clients: { full: { clientId: string; clientSecret: string } };
  /** The discovery file matching the emulator's seed, when there is one. */
  discoveryFile?: string;
}
interface CalendarEndpoint {
  apiRoot: string;
  users: { editor: { username: string; appPassword: string } };
}

/**
 * The environment that points a gateway at running emulators (tests, benchmarks, load runs). The
 * emulators run the production rate tier unless started with another one (then override the profile).
 * The discovery file is the shipped example that matches the emulator's seed, as a tenant would configure it.
 */
export function emulatorEnv(governance: GovernanceEndpoint, calendar: CalendarEndpoint): Record<string, string> {
  return {
    GOVERNANCE_URL: governance.origin,
    GOVERNANCE_RATE_PROFILE: 'production',
    GOVERNANCE_CLIENT_ID: governance.clients.full.clientId,
    GOVERNANCE_CLIENT_SECRET: governance.clients.full.clientSecret,
    CALENDAR_URL: calendar.apiRoot,
    CALENDAR_USER: calendar.users.editor.username,
    CALENDAR_APP_PASSWORD: calendar.users.editor.appPassword,
    ...(governance.discoveryFile ? { GOVERNANCE_DISCOVERY_FILE: governance.discoveryFile } : {}),
  };
}

export interface EmbeddedUpstreams {
  config: Config;
  governanceOrigin: string;
  calendarApiRoot: string;
  close(): Promise<void>;
}

export async function startEmbeddedUpstreams(
  config: Config,
  options: { controlRoutes?: boolean } = {},
): Promise<EmbeddedUpstreams> {
  const [{ startGovernanceEmulator }, { startCalendarEmulator }] = await Promise.all([
    import('../emulators/governance/index.js'),
    import('../emulators/calendar/index.js'),
  ]);
  const [governance, calendar] = await Promise.all([
    startGovernanceEmulator({ rateProfile: config.governance.rateProfile, controlRoutes: options.controlRoutes }),
    startCalendarEmulator({ controlRoutes: options.controlRoutes }),
  ]);
  return {
    config: {
      ...config,
      governance: {
        ...config.governance,
        url: governance.origin,
        tokenUrl: governance.tokenUrl,
        clientId: governance.clients.full.clientId,
        clientSecret: governance.clients.full.clientSecret,
      },
      calendar: {
        ...config.calendar,
        url: calendar.apiRoot,
        user: calendar.users.editor.username,
        appPassword: calendar.users.editor.appPassword,
      },
      // The emulated tenant's discovery file, unless one is configured.
      discovery: config.discoveryFile ? config.discovery : loadExample(governance.discoveryFile),
    },
    governanceOrigin: governance.origin,
    calendarApiRoot: calendar.apiRoot,
    close: async () => {
      await Promise.all([governance.close(), calendar.close()]);
    },
  };
}

function loadExample(file: string | undefined): Config['discovery'] {
  const problems: string[] = [];
  const discovery = readDiscoveryConfig(file, problems);
  // The shipped example is checked by the tests; a broken one is a bug, not a configuration problem.
  if (problems.length) throw new Error(problems.join(' '));
  return discovery;
}
