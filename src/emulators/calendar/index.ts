/**
 * The calendar upstream emulator: The Events Calendar REST API v1 as our contract renames it
 * (`calendar/events/v1`; `tribe/events/v1` as the real-world variant), on a real HTTP port.
 *
 * Modelled choices: site time zone UTC; no Events Calendar Pro (geoloc params → 400) and no Event
 * Tickets (`ticketed=true` → 400); no `_envelope`/JSONP/`_method`/`?rest_route=` forms.
 */
import { createControl, type EmulatorControl, type FaultRule, type LatencyOptions } from '../kit/control.js';
import { listen } from '../kit/serve.js';
import { createApp } from './app.js';
import { DEFAULT_CALENDAR_USERS } from './auth.js';
import type { RouteDeps } from './respond.js';
import { utcWall } from './dates.js';
import { createSeed, DEFAULT_SEED_SIZE, type SeedSize } from './seed.js';
import type { Site } from './serialize.js';
import { CalendarStore } from './store.js';

export { DEFAULT_CALENDAR_USERS } from './auth.js';

export interface CalendarEmulatorOptions {
  port?: number;
  host?: string;
  /** Seed for the generated data (default 1). */
  seed?: number;
  /** How many events, venues and organizers the seed has (default: the tests' 72, 15 and 12). */
  size?: Partial<SeedSize>;
  /** Default `calendar/events/v1`; `tribe/events/v1` is the real plugin's. */
  namespace?: string;
  /** 6.17.2 (default): 404 `rest-event-not-found`; 6.17.1: 400 `rest_invalid_param` for unknown event ids. */
  pluginVersion?: '6.17.2' | '6.17.1';
  /** Site "now": seed dates and the default window are relative to it (default: the real clock). */
  now?: Date;
  latency?: LatencyOptions;
  faults?: FaultRule[];
  /** Serve `/_emulator/*` control routes (default false). */
  controlRoutes?: boolean;
}

export interface CalendarEmulator {
  origin: string;
  /** `origin + /wp-json/ + namespace` */
  apiRoot: string;
  users: { editor: { username: string; appPassword: string }; subscriber: { username: string; appPassword: string } };
  control: EmulatorControl;
  /**
   * Retitles a post as an editor in the site's admin would: not through the API (nothing is logged),
   * `modified` set to now. False when there is no such post.
   */
  editTitle: (id: number, title: string) => boolean;
  close(): Promise<void>;
}

export async function startCalendarEmulator(options: CalendarEmulatorOptions = {}): Promise<CalendarEmulator> {
  const namespace = (options.namespace ?? 'calendar/events/v1').replace(/^\/+|\/+$/g, '');
  const seedNow = options.now ?? new Date();
  const size = { ...DEFAULT_SEED_SIZE, ...options.size };
  const store = new CalendarStore(() => createSeed(options.seed ?? 1, seedNow, size));
  // Filled in once the port is known; serializers read it per request.
  const site: Site = { origin: '', apiRoot: '' };
  const deps: RouteDeps = {
    store,
    site,
    pluginVersion: options.pluginVersion ?? '6.17.2',
    now: () => options.now ?? new Date(),
  };
  const { control, middleware, mountRoutes } = createControl({
    apiRoot: `/wp-json/${namespace}`,
    latency: options.latency,
    faults: options.faults,
    seed: options.seed,
    resetState: () => store.reset(),
    errorBody: (status) => ({
      code: status === 429 ? 'rest_too_many_requests' : 'http_error',
      message: status === 429 ? 'Too many requests.' : 'The server could not handle the request.',
      data: { status },
    }),
  });
  const app = createApp({ deps, namespace, middleware, mountControl: options.controlRoutes ? mountRoutes : undefined });
  const server = await listen(app, options.port ?? 0, options.host ?? '127.0.0.1');
  site.origin = server.origin;
  site.apiRoot = `${server.origin}/wp-json/${namespace}`;
  return {
    origin: server.origin,
    apiRoot: site.apiRoot,
    users: { editor: { ...DEFAULT_CALENDAR_USERS.editor }, subscriber: { ...DEFAULT_CALENDAR_USERS.subscriber } },
    control,
    editTitle: (id, title) => {
      const post = store.post(id);
      if (!post) return false;
      post.title = title;
      post.modified = utcWall(deps.now());
      return true;
    },
    close: () => server.close(),
  };
}
