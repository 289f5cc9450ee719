/**
 * The governance REST client: the only file that knows the upstream's paths, query parameters and
 * payloads. One method per contract operation; each builds an `UpstreamCall` (priority, cache TTL and
 * tags for reads), adds the credential, retries once with a fresh token after a 401, and turns an
 * error status into an `UpstreamError` (see `statusError`). Reads of unknown ids return null.
 */
import type { Caller, UpstreamCall } from '../core/upstream-pipeline.js';
import type { Upstream } from '../core/upstream-pipeline.js';
import type { HttpResponse } from '../core/http.js';
import type { PriorityName } from '../core/concurrency-cap.js';
import type { GovernanceCredential } from './auth.js';
import { isNotFound, statusError, type ScopeGroup } from './statuses.js';
import type {
  AiEntityTypeName,
  AttributeCreateRequest,
  AttributeInformation,
  AttributeOptionRequest,
  AttributeQueryCriteria,
  BasicEntity,
  BasicSearchRequest,
  EntityCreateRequest,
  EntityInformation,
  EntityTypeInformation,
  EntityUpdateRequest,
  LinkInformation,
  LinkRequest,
  LinksPage,
  RelatedEntityLink,
  SpringPage,
  StageRequest,
  WorkflowStageInformation,
} from './wire.js';

/** Cache tags: a mutation drops exactly what it may have changed. */
export const Tags = {
  entity: (id: string) => `governance:entity:${id}`,
  entityType: (id: string) => `governance:entity-type:${id}`,
  link: (id: string) => `governance:link:${id}`,
  links: (entityId: string) => `governance:links:${entityId}`,
  entityLists: 'governance:list:entities',
  entityTypeLists: 'governance:list:entity-types',
  linkLists: 'governance:list:links',
} as const;

export interface PageRequest {
  page: number;
  size: number;
  sort?: string;
  priority: PriorityName;
}

interface Send {
  call: Omit<UpstreamCall, 'headers'>;
  scopes: ScopeGroup;
  /** Answer an unknown id with null instead of an error. */
  nullIfNotFound?: boolean;
}

export class GovernanceClient {
  constructor(
    private readonly upstream: Upstream,
    private readonly credential: GovernanceCredential,
    private readonly caller: Omit<Caller, 'identity'>,
    private readonly ttlMs: number,
    /** Sees every successful answer, by operation (the discovery registry learns from it). */
    private readonly onAnswer?: (operation: string, body: unknown) => void,
  ) {}

  // ------------------------------------------------------------------ entities (ops 2-7)

  searchEntities(typeName: AiEntityTypeName | undefined, criteria: AttributeQueryCriteria, page: PageRequest) {
    return this.send<SpringPage<EntityInformation>>({
      call: { method: 'POST', path: '/entities/search', query: { ...pageQuery(page), entityTypeName: typeName }, json: { queryRequest: { criteria } }, idempotent: true, priority: page.priority, operation: 'entities.search', cache: this.cache([Tags.entityLists]) },
      scopes: 'read',
    });
  }

  searchEntitySummaries(request: BasicSearchRequest, page: PageRequest) {
    return this.send<SpringPage<BasicEntity>>({
      call: { method: 'POST', path: '/entity-basic-details/search', query: pageQuery(page), json: request, idempotent: true, priority: page.priority, operation: 'entities.basicSearch', cache: this.cache([Tags.entityLists]) },
      scopes: 'read',
    });
  }

  /**
   * `fresh`: past the cache, for live updates: a poll (`background`, the lowest priority) or a
   * subscriber's re-read after a change the cache may not know of yet.
   */
  getEntity(id: string, fresh?: { background: boolean }) {
    return this.send<EntityInformation>({
      call: { method: 'GET', path: `/entities/${enc(id)}`, idempotent: true, priority: fresh?.background ? 'background' : 'single', operation: 'entities.get', cache: fresh ? undefined : this.cache([Tags.entity(id)]) },
      scopes: 'read',
      nullIfNotFound: true,
    });
  }

  createEntity(typeName: AiEntityTypeName, body: EntityCreateRequest) {
    return this.send<EntityInformation>({
      call: { method: 'POST', path: '/entities', query: { entityTypeName: typeName }, json: body, idempotent: false, priority: 'write', operation: 'entities.create' },
      scopes: 'write',
    });
  }

  updateEntity(id: string, body: EntityUpdateRequest) {
    return this.send<EntityInformation>({
      call: { method: 'PATCH', path: `/entities/${enc(id)}`, json: body, idempotent: false, priority: 'write', operation: 'entities.update' },
      scopes: 'write',
      nullIfNotFound: true,
    });
  }

  /** False when there was no such entity. */
  async deleteEntity(id: string): Promise<boolean> {
    const res = await this.send<unknown>({
      call: { method: 'DELETE', path: `/entities/${enc(id)}`, idempotent: false, priority: 'write', operation: 'entities.delete' },
      scopes: 'delete',
      nullIfNotFound: true,
    });
    return res !== null;
  }

  // ------------------------------------------------------------------ workflow (op 1)

  moveToStage(entityId: string, workflowType: string, body: StageRequest) {
    return this.send<WorkflowStageInformation>({
      call: { method: 'POST', path: `/assignments/entities/${enc(entityId)}/types/${enc(workflowType)}/stage`, json: body, idempotent: false, priority: 'write', operation: 'workflow.moveToStage' },
      scopes: 'write',
      nullIfNotFound: true,
    });
  }

  // ------------------------------------------------------------------ entity types (ops 8, 9)

  searchEntityTypes(criteria: AttributeQueryCriteria, page: PageRequest) {
    return this.send<SpringPage<EntityTypeInformation>>({
      call: { method: 'POST', path: '/entity-types/search', query: pageQuery(page), json: criteria, idempotent: true, priority: page.priority, operation: 'entityTypes.search', cache: this.cache([Tags.entityTypeLists]) },
      scopes: 'read',
    });
  }

  getEntityType(id: string) {
    return this.send<EntityTypeInformation>({
      call: { method: 'GET', path: `/entity-types/${enc(id)}`, idempotent: true, priority: 'single', operation: 'entityTypes.get', cache: this.cache([Tags.entityType(id)]) },
      scopes: 'read',
      nullIfNotFound: true,
    });
  }

  // ------------------------------------------------------------------ links (ops 10-13)

  linksPage(typeName: AiEntityTypeName, entityId: string, criteria: AttributeQueryCriteria, page: PageRequest) {
    return this.send<LinksPage<RelatedEntityLink>>({
      call: {
        method: 'POST',
        path: `/linked-entity-types/entity-types/names/${enc(typeName)}/entities/${enc(entityId)}/links/pages`,
        query: pageQuery(page),
        json: { fullText: '', ...criteria },
        idempotent: true,
        priority: page.priority,
        operation: 'links.page',
        cache: this.cache([Tags.links(entityId), Tags.linkLists]),
      },
      scopes: 'links',
      nullIfNotFound: true,
    });
  }

  getLink(id: string, linkTypeId: string) {
    return this.send<LinkInformation>({
      call: { method: 'GET', path: `/links/${enc(id)}`, query: { linkTypeId }, idempotent: true, priority: 'single', operation: 'links.get', cache: this.cache([Tags.link(id)]) },
      scopes: 'read',
      nullIfNotFound: true,
    });
  }

  createLink(linkTypeId: string, body: LinkRequest) {
    return this.send<LinkInformation>({
      call: { method: 'POST', path: '/links', query: { linkTypeId }, json: body, idempotent: false, priority: 'write', operation: 'links.create' },
      scopes: 'write',
    });
  }

  /** False when there was no such link. */
  async deleteLink(id: string, linkTypeId: string): Promise<boolean> {
    const res = await this.send<unknown>({
      call: { method: 'DELETE', path: `/links/${enc(id)}`, query: { linkTypeId }, idempotent: false, priority: 'write', operation: 'links.delete' },
      scopes: 'delete',
      nullIfNotFound: true,
    });
    return res !== null;
  }

  // ------------------------------------------------------------------ attributes (ops 14, 15)

  addAttributeOptions(attributeId: string, options: AttributeOptionRequest[]) {
    return this.send<AttributeInformation>({
      call: { method: 'POST', path: '/schema-attribute-options', query: { attributeId }, json: options, idempotent: false, priority: 'write', operation: 'attributes.addOptions' },
      scopes: 'write',
      nullIfNotFound: true,
    });
  }

  addSchemaAttribute(schemaName: string, body: AttributeCreateRequest) {
    return this.send<AttributeInformation>({
      call: { method: 'POST', path: '/schema-attributes', query: { schemaName }, json: body, idempotent: false, priority: 'write', operation: 'attributes.create' },
      scopes: 'write',
    });
  }

  // ------------------------------------------------------------------ plumbing

  /** Drops cached answers a write may have changed, for every credential. */
  invalidate(tags: string[]): void {
    this.upstream.cache.invalidate(tags);
  }

  private cache(tags: string[]): UpstreamCall['cache'] {
    return this.ttlMs > 0 ? { ttlMs: this.ttlMs, tags } : undefined;
  }

  /** Null only where `nullIfNotFound` allows it; reads and writes differ in their `call`, not here. */
  private send<T>(send: Send & { nullIfNotFound: true }): Promise<T | null>;
  private send<T>(send: Send): Promise<T>;
  private async send<T>({ call, scopes, nullIfNotFound }: Send): Promise<T | null> {
    const caller: Caller = { ...this.caller, identity: this.credential.identity };
    const attempt = async (): Promise<{ res: HttpResponse; auth: string }> => {
      const auth = await this.credential.authorization(this.caller.usage);
      return { res: await this.upstream.call({ ...call, headers: { authorization: auth } }, caller), auth };
    };
    let { res, auth } = await attempt();
    // An expired or revoked token: fetch a new one and try once more.
    if (res.status === 401 && (await this.credential.renew(auth, this.caller.usage))) ({ res } = await attempt());
    if (res.status >= 200 && res.status < 300) {
      this.onAnswer?.(call.operation, res.body);
      return (res.body ?? {}) as T;
    }
    if (isNotFound(res) && nullIfNotFound) return null;
    throw statusError(res, scopes, call.operation);
  }
}

function pageQuery(page: PageRequest): Record<string, string | number | undefined> {
  return { page: page.page, size: page.size, sort: page.sort };
}

const enc = encodeURIComponent;
