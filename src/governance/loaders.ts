/**
 * Per-request DataLoaders over the governance client. The upstream has no batch read, so a batch is
 * a set of concurrent GETs, but each id is fetched at most once per request, and every full entity
 * payload that arrives another way (search results, create, update) is primed in, so a traversal
 * never re-reads a record it already holds.
 */
import DataLoader from 'dataloader';
import type { GovernanceClient, PageRequest } from './client.js';
import type {
  AiEntityTypeName,
  AttributeQueryCriteria,
  EntityInformation,
  EntityTypeInformation,
  LinksPage,
  RelatedEntityLink,
} from './wire.js';

interface LinksPageKey {
  typeName: AiEntityTypeName;
  entityId: string;
  criteria: AttributeQueryCriteria;
  page: PageRequest;
}

export function createGovernanceLoaders(client: GovernanceClient) {
  // Every key is its own upstream request (the API has no multi-id read), so these loaders do not
  // batch: each answer flows on the moment it arrives (a links page's counterparts are asked for
  // while slower pages are still out), and DataLoader's per-request cache still dedupes keys.
  const single = { batch: false } as const;
  const entity = new DataLoader<string, EntityInformation | null>(
    (ids) => Promise.all(ids.map((id) => client.getEntity(id))),
    single,
  );
  const entityType = new DataLoader<string, EntityTypeInformation | null>(
    (ids) => Promise.all(ids.map((id) => client.getEntityType(id))),
    single,
  );
  const linksPage = new DataLoader<LinksPageKey, LinksPage<RelatedEntityLink> | null, string>(
    (keys) => Promise.all(keys.map((k) => client.linksPage(k.typeName, k.entityId, k.criteria, k.page))),
    {
      ...single,
      cacheKeyFn: (k) => JSON.stringify([k.typeName, k.entityId, k.criteria, k.page.page, k.page.size, k.page.sort]),
    },
  );
  const forget = () => {
    entityType.clearAll();
    linksPage.clearAll();
  };
  return {
    entity,
    entityType,
    linksPage,
    /** Remembers full entity payloads (replacing an older copy) so later reads in the request reuse them. */
    primeEntities(entities: readonly EntityInformation[]) {
      for (const e of entities) entity.clear(e.id).prime(e.id, e);
    },
    /** Forgets what this request knew about an entity (after a write to it). */
    forgetEntity(id: string) {
      entity.clear(id);
    },
    /**
     * After any write: forgets the links pages and entity types this request read, so a later field
     * of the mutation reads them again. Entity records are kept: the mutations that change one prime
     * the answer of their write or forget that record themselves.
     */
    forget,
    /** Forgets everything this request read, records too (a subscription's next push). */
    forgetAll() {
      forget();
      entity.clearAll();
    },
  };
}
