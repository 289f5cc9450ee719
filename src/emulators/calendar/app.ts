/**
 * The calendar emulator's Hono app: kit middleware (request log, latency, faults), the API routes
 * under `/wp-json/{namespace}`, and WordPress's error envelope for everything that fails, including
 * unknown routes (`rest_no_route`). Non-strict routing so the plugin's own `…/events/` URLs work.
 */
import { Hono } from 'hono';
import type { MiddlewareHandler } from 'hono';
import { asWriteUnlessGet, type Env } from '../kit/control.js';
import { authenticate } from './auth.js';
import { noRoute, RestError } from './errors.js';
import { sendJson, type RouteDeps } from './respond.js';
import { eventRoutes } from './routes/events.js';
import { indexRoutes } from './routes/index.js';
import { linkedRoutes } from './routes/linked.js';
import { termRoutes } from './routes/terms.js';

export interface AppParts {
  deps: RouteDeps;
  namespace: string;
  middleware: MiddlewareHandler<Env>;
  mountControl?: (app: Hono<Env>) => void;
}

export function createApp({ deps, namespace, middleware, mountControl }: AppParts): Hono<Env> {
  const app = new Hono<Env>({ strict: false });
  app.use('*', middleware);
  mountControl?.(app);
  app.use('*', asWriteUnlessGet);
  const base = `/wp-json/${namespace}`;
  // WordPress's site index lists the namespace.
  app.get('/wp-json', (c) => {
    authenticate(c.req.header('authorization'));
    return sendJson(c, {
      name: 'Calendar emulator',
      url: deps.site.origin,
      home: deps.site.origin,
      namespaces: [namespace],
      routes: {},
    });
  });
  app.route(base, indexRoutes(deps, namespace));
  app.route(base, eventRoutes(deps));
  app.route(base, linkedRoutes(deps, 'venue'));
  app.route(base, linkedRoutes(deps, 'organizer'));
  app.route(base, termRoutes(deps, 'tribe_events_cat'));
  app.route(base, termRoutes(deps, 'post_tag'));
  app.notFound((c) => sendJson(c, noRoute().toBody(), 404));
  app.onError((err, c) => {
    const e =
      err instanceof RestError
        ? err
        : new RestError(500, 'internal_server_error', 'There has been a critical error on this website.');
    return sendJson(c, e.toBody(), e.status);
  });
  return app;
}
