/** Link operations: create, read, delete, and the related-entities page of one entity. */
import { Hono } from 'hono';
import type { Env } from '../../kit/control.js';
import { AI_ENTITY_TYPE_NAMES, type AttributeQueryCriteria, type LinkRequest } from '../../../governance/wire.js';
import { SCOPES } from '../auth.js';
import { invalid, notFound } from '../errors.js';
import { linksPage, parsePageParams } from '../paging.js';
import { renderLink, renderRelated } from '../render.js';
import { validateCriteria } from '../search.js';
import { objectBody, readJson, uuidParam, uuidQuery, type RouteDeps } from '../validate.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function linkRoutes({ store, requireScopes }: RouteDeps) {
  const app = new Hono<Env>();

  /** A live link end; `entityType.name`, when given, must match the record. */
  const end = (value: unknown, which: string) => {
    const given = objectBody<LinkRequest['entity1']>(value, which);
    if (typeof given.id !== 'string' || !UUID.test(given.id)) throw invalid(`${which}.id must be a uuid`);
    const record = store.anyEntity(given.id.toLowerCase());
    if (!record || record.deleted) throw notFound(given.id, given.entityType?.name ?? 'Entity');
    if (given.entityType?.name !== undefined && given.entityType.name !== record.typeName)
      throw notFound(given.id, given.entityType.name);
    return record;
  };

  app.post('/links', requireScopes(SCOPES.write), async (c) => {
    const linkType = store.linkType(uuidQuery(c, 'linkTypeId', true));
    const body = objectBody<LinkRequest>(await readJson(c, true), 'body');
    const link = store.createLink(linkType, end(body.entity1, 'entity1'), end(body.entity2, 'entity2'));
    return c.json(renderLink(link, linkType, store.resolve), 200);
  });

  app.get('/links/:linkId', requireScopes(SCOPES.read), (c) => {
    const id = uuidParam(c, 'linkId');
    const link = store.link(id, uuidQuery(c, 'linkTypeId', true));
    return c.json(renderLink(link, store.linkType(link.linkTypeId), store.resolve));
  });

  app.delete('/links/:linkId', requireScopes(SCOPES.delete), (c) => {
    const id = uuidParam(c, 'linkId');
    store.deleteLink(store.link(id, uuidQuery(c, 'linkTypeId', true)));
    return c.body(null, 200);
  });

  /**
   * Links where the entity is either end, newest id order by default. `fullText` matches the other
   * end's name; a filter on `entityType.name` narrows the other end's kind.
   */
  app.post(
    '/linked-entity-types/entity-types/names/:entityTypeName/entities/:entityId/links/pages',
    requireScopes(SCOPES.related),
    async (c) => {
      const typeName = c.req.param('entityTypeName');
      if (!(AI_ENTITY_TYPE_NAMES as readonly string[]).includes(typeName))
        throw invalid(`entityTypeName must be one of ${AI_ENTITY_TYPE_NAMES.join(', ')}`);
      const entityId = uuidParam(c, 'entityId');
      const page = parsePageParams((n) => c.req.query(n), {
        size: 10,
        sort: 'id,desc',
        allowedSorts: ['id,asc', 'id,desc'],
      });
      const body = await readJson<AttributeQueryCriteria>(c, true);
      const criteria = validateCriteria(body);
      const entity = store.entity(entityId, store.typeByName(typeName));
      const text = criteria.fullText?.trim().toLowerCase();
      const sign = page.sort === 'id,asc' ? 1 : -1;
      const links = store.data.links
        .filter((l) => l.entity1Id === entity.id || l.entity2Id === entity.id)
        .filter((l) => {
          const other = store.resolve(l.entity1Id === entity.id ? l.entity2Id : l.entity1Id).entity;
          if (text && !other.name.toLowerCase().includes(text)) return false;
          return (criteria.filters ?? []).every((f) => {
            if (f.field !== 'entityType.name') return false;
            const values = (Array.isArray(f.value) ? f.value : [f.value]).map(String);
            return values.includes(other.typeName) !== (f.operator === 'NOT_EQUAL_TO');
          });
        })
        .sort((a, b) => (a.id < b.id ? -sign : a.id > b.id ? sign : 0));
      return c.json(linksPage(links, page, (l) => renderRelated(l, store.linkType(l.linkTypeId), store.resolve)));
    },
  );

  return app;
}
