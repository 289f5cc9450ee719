/** Entity operations: create, read, patch, delete, full search and basic-details search. */
import { Hono, type Context } from 'hono';
import type { Env } from '../../kit/control.js';
import type {
  BasicSearchRequest,
  EntityCreateRequest,
  EntitySearchRequest,
  EntityUpdateRequest,
} from '../../../governance/wire.js';
import { SCOPES } from '../auth.js';
import { invalid } from '../errors.js';
import { byName, parsePageParams, springPage } from '../paging.js';
import { renderBasicEntity, renderEntity } from '../render.js';
import { matchesEntity, validateCriteria } from '../search.js';
import type { TraversalStrategy } from '../store.js';
import { objectBody, readJson, uuidParam, uuidQuery, type RouteDeps } from '../validate.js';

const NAME_SORTS = ['name,asc', 'name,desc'] as const;
const STRATEGIES: TraversalStrategy[] = ['DESCENDANTS', 'ANCESTORS_AND_DESCENDANTS', 'ALL'];

function checkName(name: unknown): string {
  if (typeof name !== 'string' || name.trim().length === 0 || name.length > 255)
    throw invalid('name is required and must be 1 to 255 characters');
  return name;
}

function checkAttributes(attributes: unknown): Record<string, Array<{ id?: string; value?: string }>> {
  if (attributes === undefined || attributes === null) return {};
  return objectBody(attributes, 'attributes');
}

export function entityRoutes({ store, requireScopes }: RouteDeps) {
  const app = new Hono<Env>();
  const typeFromQuery = (c: Context<Env>) =>
    store.aiTypeFromQuery(uuidQuery(c, 'entityTypeId'), c.req.query('entityTypeName'));

  /** Search over the live AI records: kind, org visibility, criteria, then name order and a page. */
  const search = (
    c: Context<Env>,
    request: BasicSearchRequest | undefined,
    typeName: string | undefined,
    withLabel: boolean,
  ) => {
    const page = parsePageParams((n) => c.req.query(n), { size: 20, sort: 'name,asc', allowedSorts: NAME_SORTS });
    const criteria = validateCriteria(request?.criteria);
    const rawStrategy = request?.organizationTraversalStrategy;
    const strategy = String(rawStrategy ?? 'DESCENDANTS').toUpperCase() as TraversalStrategy;
    if (!STRATEGIES.includes(strategy))
      throw invalid(`organizationTraversalStrategy must be one of ${STRATEGIES.join(', ')}`);
    const requestedOrg = request?.requestedOrganizationId;
    if (requestedOrg !== undefined && requestedOrg !== null && typeof requestedOrg !== 'string')
      throw invalid('requestedOrganizationId must be a uuid');
    const orgs = store.visibleOrgs(strategy, requestedOrg ?? undefined);
    const records = store
      .liveEntities()
      .filter(
        (e) =>
          (!typeName || e.typeName === typeName) && orgs.has(e.orgGroupId) && matchesEntity(e, criteria, withLabel),
      )
      .sort(byName(page.sort.endsWith('desc') ? 'desc' : 'asc'));
    return { records, page };
  };

  app.post('/entities', requireScopes(SCOPES.write), async (c) => {
    const type = typeFromQuery(c);
    if (!type) throw invalid('entityTypeId or entityTypeName is required');
    const body = objectBody<EntityCreateRequest>(await readJson(c, true), 'body');
    const name = checkName(body.name);
    const orgId = body.organization?.id;
    if (typeof orgId !== 'string' || orgId === '') throw invalid('organization.id is required');
    const record = store.createEntity(type, name, orgId, checkAttributes(body.attributes));
    return c.json(renderEntity(record, type), 201);
  });

  app.post('/entities/search', requireScopes(SCOPES.read), async (c) => {
    const typeName = c.req.query('entityTypeName');
    if (typeName !== undefined) store.aiTypeFromQuery(undefined, typeName);
    const body = await readJson<EntitySearchRequest>(c, false);
    if (body !== undefined) objectBody(body, 'body');
    const { records, page } = search(c, body?.queryRequest, typeName, false);
    return c.json(springPage(records, page, (e) => renderEntity(e, store.typeByName(e.typeName)!)));
  });

  app.post('/entity-basic-details/search', requireScopes(SCOPES.read), async (c) => {
    const body = await readJson<BasicSearchRequest>(c, false);
    if (body !== undefined) objectBody(body, 'body');
    const { records, page } = search(c, body, undefined, true);
    return c.json(springPage(records, page, (e) => renderBasicEntity(e, store.typeByName(e.typeName)!)));
  });

  app.get('/entities/:entityId', requireScopes(SCOPES.read), (c) => {
    const id = uuidParam(c, 'entityId');
    const record = store.entity(id, typeFromQuery(c));
    return c.json(renderEntity(record, store.typeByName(record.typeName)!));
  });

  app.patch('/entities/:entityId', requireScopes(SCOPES.write), async (c) => {
    const id = uuidParam(c, 'entityId');
    const record = store.entity(id, typeFromQuery(c));
    const body = objectBody<EntityUpdateRequest>(await readJson(c, true), 'body');
    const orgId = body.organization?.id;
    if (body.organization !== undefined && typeof orgId !== 'string') throw invalid('organization.id must be a uuid');
    store.updateEntity(record, {
      name: body.name === undefined ? undefined : checkName(body.name),
      orgId,
      attributes: body.attributes === undefined ? undefined : checkAttributes(body.attributes),
    });
    return c.json(renderEntity(record, store.typeByName(record.typeName)!));
  });

  app.delete('/entities/:entityId', requireScopes(SCOPES.delete), (c) => {
    const id = uuidParam(c, 'entityId');
    store.deleteEntity(store.entity(id, typeFromQuery(c)));
    return c.body(null, 204);
  });

  return app;
}
