/** Entity type operations: search (every record kind of the tenant, so filters matter) and read one. */
import { Hono } from 'hono';
import type { Env } from '../../kit/control.js';
import { SCOPES } from '../auth.js';
import { byName, parsePageParams, springPage } from '../paging.js';
import { renderEntityType } from '../render.js';
import { matchesType, validateCriteria } from '../search.js';
import { readJson, uuidParam, type RouteDeps } from '../validate.js';

export function entityTypeRoutes({ store, requireScopes }: RouteDeps) {
  const app = new Hono<Env>();

  app.post('/entity-types/search', requireScopes(SCOPES.read), async (c) => {
    const page = parsePageParams((n) => c.req.query(n), {
      size: 20,
      sort: 'name,asc',
      allowedSorts: ['name,asc', 'name,desc'],
    });
    const criteria = validateCriteria(await readJson(c, false));
    const types = store.data.entityTypes
      .filter((t) => matchesType(t, criteria))
      .sort(byName(page.sort.endsWith('desc') ? 'desc' : 'asc'));
    return c.json(springPage(types, page, renderEntityType));
  });

  app.get('/entity-types/:entityTypeId', requireScopes(SCOPES.read), (c) => {
    return c.json(renderEntityType(store.entityType(uuidParam(c, 'entityTypeId'))));
  });

  return app;
}
