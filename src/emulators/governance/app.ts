/**
 * The emulator's Hono app: the account rate limit counts every request first (faulted and rejected
 * ones too), the request log and faults come next (so every answer is logged), then the limiter's
 * 429s, then the token endpoint and the API routes under `/api/ai-governance/v1`. Thrown `ApiError`s become the platform's error bodies.
 */
import { Hono, type Handler, type MiddlewareHandler } from 'hono';
import type { Env } from '../kit/control.js';
import { ApiError, errorBody } from './errors.js';
import { attributeRoutes } from './routes/attributes.js';
import { entityRoutes } from './routes/entities.js';
import { entityTypeRoutes } from './routes/entity-types.js';
import { linkRoutes } from './routes/links.js';
import { workflowRoutes } from './routes/workflow.js';
import type { RouteDeps } from './validate.js';

export const API_ROOT = '/api/ai-governance/v1';
export const TOKEN_PATH = '/api/access/v1/oauth/token';

export interface AppParts extends RouteDeps {
  logAndFaults: MiddlewareHandler<Env>;
  rateCount: MiddlewareHandler<Env>;
  rateEnforce: MiddlewareHandler<Env>;
  issueToken: Handler<Env>;
  mountControl?: (app: Hono<Env>) => void;
}

export function createApp(parts: AppParts): Hono<Env> {
  const app = new Hono<Env>();
  app.use('*', parts.rateCount);
  app.use('*', parts.logAndFaults);
  app.use('*', parts.rateEnforce);
  parts.mountControl?.(app);
  app.post(TOKEN_PATH, parts.issueToken);

  const api = new Hono<Env>();
  for (const routes of [entityRoutes, entityTypeRoutes, workflowRoutes, linkRoutes, attributeRoutes])
    api.route('/', routes(parts));
  app.route(API_ROOT, api);

  app.onError((err, c) => {
    if (err instanceof ApiError) {
      const headers: Record<string, string> = err.status === 401 ? { 'WWW-Authenticate': 'Bearer realm="api"' } : {};
      return c.json(err.body(), err.status, headers);
    }
    return c.json(errorBody(500, 'ERROR_GENERIC_OPERATION_FAILED', 'Unexpected error'), 500);
  });
  app.notFound((c) =>
    c.json(errorBody(404, 'NOT_FOUND', `No route for ${c.req.method} ${new URL(c.req.url).pathname}`), 404),
  );
  return app;
}
