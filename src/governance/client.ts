/**
 * The governance REST client: the only file that knows the upstream's paths, query parameters and
 * payloads. One method per contract operation; each builds an `UpstreamCall` (kind of call, cache TTL and
 * tags for reads), adds the credential, retries once with a fresh token after a 401, and turns an
 * error status into an `UpstreamError` (see `statusError`). Reads of unknown ids return null.
 */
import { isRecord } from '../core/records.js';
import type { Caller, UpstreamCall } from '../core/upstream-pipeline.js';
import type { Upstream } from '../core/upstream-pipeline.js';
import type { HttpResponse } from '../core/http.js';
import { isUpstreamError } from '../core/errors.js';
import { urlPath } from '../core/url-path.js';
import type { PageKind } from '../core/upstream-pipeline.js';
import type { GovernanceCredential } from './auth.js';
import type { z } from 'zod';
import { checkPayload } from '../core/contract.js';
import { isNotFound, refusedArgument, statusError, type ScopeGroup } from './errors.js';
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
import { entityShape, springPageShape } from './wire.js';
import type { Harvest } from '../core/harvest.js';
import type { CacheKind } from '../config/config.js';
import { Tags } from './tags.js';
import { heldEntities } from './harvest.js';

/** Built once: zod compiles a schema's checker on first use, so a schema per call would recompile it. */
const ENTITY_PAGE = springPageShape(entityShape);

export interface PageRequest {
  page: number;
  size: number;
  sort?: string;
  /** The page a query asked for, or one filling out a larger `first` (the core ranks them). */
  kind: PageKind;
}

/** One call: a read unless it `invalidates` (a write: never repeated, never cached). */
interface Send extends Pick<UpstreamCall, 'method' | 'path' | 'query' | 'json' | 'operation' | 'cache' | 'harvest'> {
  /** Default: `write` for a call that invalidates, else `read`. */
  kind?: UpstreamCall['kind'];
  /** The contract's scope row, named on a 403. Default: `write` for a call that invalidates, else `read`. */
  scopes?: ScopeGroup;
  /** Answer an unknown id with null instead of an error. */
  nullIfNotFound?: boolean;
  /** What the gateway reads of a successful answer, checked before anyone sees it (see core/contract.ts). */
  shape?: z.ZodType;
  /** A write's cache tags: dropped once it was sent, answered or not (even a refused write may have changed something). */
  invalidates?: string[];
}

export interface GovernanceClientOptions {
  upstream: Upstream;
  credential: GovernanceCredential;
  caller: Omit<Caller, 'identity'>;
  /** Freshness of cached reads by kind of resource. */
  cacheTtlMs: Pick<Record<CacheKind, number>, 'entities' | 'entityTypes' | 'links'>;
  /** Sees every successful answer, by operation (the discovery registry learns from it). */
  onAnswer?: (operation: string, body: unknown) => void;
  /** Told after every write, applied or not: the request's own loaders forget what it may change. */
  afterWrite?: () => void;
}

export class GovernanceClient {
  constructor(private readonly options: GovernanceClientOptions) {}

  /** The non-secret identity of the caller's credential (scopes idempotency keys). */
  get identity(): string {
    return this.options.credential.identity;
  }

  // ------------------------------------------------------------------ entities (ops 2-7)

  searchEntities(typeName: AiEntityTypeName | undefined, criteria: AttributeQueryCriteria, page: PageRequest) {
    return this.send<SpringPage<EntityInformation>>({
      operation: 'entities.search',
      method: 'POST',
      path: '/entities/search',
      query: { ...pageQuery(page), entityTypeName: typeName },
      json: { queryRequest: { criteria } },
      kind: page.kind,
      cache: this.cache('entities', [Tags.entityLists]),
      // Full-details items are whole entities (see entityRecords); basic-details ones never are.
      harvest: (res) => this.entityRecords(isRecord(res.body) ? res.body.content : undefined),
      shape: ENTITY_PAGE,
    });
  }

  searchEntitySummaries(request: BasicSearchRequest, page: PageRequest) {
    return this.send<SpringPage<BasicEntity>>({
      operation: 'entities.basicSearch',
      method: 'POST',
      path: '/entity-basic-details/search',
      query: pageQuery(page),
      json: request,
      kind: page.kind,
      cache: this.cache('entities', [Tags.entityLists]),
      shape: ENTITY_PAGE,
    });
  }

  /**
   * `fresh`: past the cache: for a read that a write's precondition depends on (`true`), or for live
   * updates: a poll (`background`, the lowest priority) or a subscriber's re-read after a change the
   * cache may not know of yet.
   */
  getEntity(id: string, fresh?: boolean | { background: boolean }) {
    return this.send<EntityInformation>(this.entityRead(id, fresh));
  }

  private entityRead(id: string, fresh?: boolean | { background: boolean }) {
    return {
      operation: 'entities.get',
      method: 'GET',
      path: urlPath`/entities/${id}`,
      kind: typeof fresh === 'object' && fresh.background ? 'poll' : 'read',
      cache: fresh ? undefined : this.cache('entities', [Tags.entity(id)]),
      shape: entityShape,
      nullIfNotFound: true as const,
    } satisfies Send;
  }

  /** Whole entities inside an answer (`harvest.ts`), as the reads by id they answer (see core/harvest.ts). */
  private entityRecords(items: unknown): Harvest<UpstreamCall>[] {
    return heldEntities(items).map(({ id, body }) => {
      const { nullIfNotFound: _n, shape: _shape, ...read } = this.entityRead(id);
      return { call: { ...read, idempotent: true }, body };
    });
  }

  createEntity(typeName: AiEntityTypeName, body: EntityCreateRequest) {
    return this.send<EntityInformation>({
      operation: 'entities.create',
      method: 'POST',
      path: '/entities',
      query: { entityTypeName: typeName },
      json: body,
      invalidates: [Tags.entityLists, Tags.linkLists],
      shape: entityShape,
      harvest: (res) => this.entityRecords([res.body]),
    });
  }

  updateEntity(id: string, body: EntityUpdateRequest) {
    return this.send<EntityInformation>({
      operation: 'entities.update',
      method: 'PATCH',
      path: urlPath`/entities/${id}`,
      json: body,
      invalidates: [Tags.entity(id), Tags.entityLists, Tags.linkLists],
      shape: entityShape,
      nullIfNotFound: true,
      harvest: (res) => this.entityRecords([res.body]),
    });
  }

  /** False when there was no such entity. */
  deleteEntity(id: string): Promise<boolean> {
    return this.send<unknown>({
      operation: 'entities.delete',
      method: 'DELETE',
      path: urlPath`/entities/${id}`,
      invalidates: [Tags.entity(id), Tags.entityLists, Tags.linkLists],
      scopes: 'delete',
      nullIfNotFound: true,
    }).then((res) => res !== null);
  }

  // ------------------------------------------------------------------ workflow (op 1)

  moveToStage(entityId: string, workflowType: string, body: StageRequest) {
    return this.send<WorkflowStageInformation>({
      operation: 'workflow.moveToStage',
      method: 'POST',
      path: urlPath`/assignments/entities/${entityId}/types/${workflowType}/stage`,
      json: body,
      invalidates: [Tags.entity(entityId), Tags.entityLists],
      nullIfNotFound: true,
    });
  }

  // ------------------------------------------------------------------ entity types (ops 8, 9)

  searchEntityTypes(criteria: AttributeQueryCriteria, page: PageRequest) {
    return this.send<SpringPage<EntityTypeInformation>>({
      operation: 'entityTypes.search',
      method: 'POST',
      path: '/entity-types/search',
      query: pageQuery(page),
      json: criteria,
      kind: page.kind,
      cache: this.cache('entityTypes', [Tags.entityTypeLists]),
    });
  }

  getEntityType(id: string) {
    return this.send<EntityTypeInformation>({
      operation: 'entityTypes.get',
      method: 'GET',
      path: urlPath`/entity-types/${id}`,
      cache: this.cache('entityTypes', [Tags.entityType(id)]),
      nullIfNotFound: true,
    });
  }

  // ------------------------------------------------------------------ links (ops 10-13)

  linksPage(typeName: AiEntityTypeName, entityId: string, criteria: AttributeQueryCriteria, page: PageRequest) {
    return this.send<LinksPage<RelatedEntityLink>>({
      operation: 'links.page',
      method: 'POST',
      path: urlPath`/linked-entity-types/entity-types/names/${typeName}/entities/${entityId}/links/pages`,
      query: pageQuery(page),
      json: { fullText: '', ...criteria },
      kind: page.kind,
      cache: this.cache('links', [Tags.links(entityId), Tags.linkLists]),
      scopes: 'links',
      nullIfNotFound: true,
    });
  }

  getLink(id: string, linkTypeId: string) {
    return this.send<LinkInformation>({
      operation: 'links.get',
      method: 'GET',
      path: urlPath`/links/${id}`,
      query: { linkTypeId },
      cache: this.cache('links', [Tags.link(id)]),
      nullIfNotFound: true,
    });
  }

  createLink(linkTypeId: string, body: LinkRequest) {
    return this.send<LinkInformation>({
      operation: 'links.create',
      method: 'POST',
      path: '/links',
      query: { linkTypeId },
      json: body,
      invalidates: [Tags.links(body.entity1.id), Tags.links(body.entity2.id), Tags.linkLists],
    });
  }

  /** False when there was no such link. */
  deleteLink(id: string, linkTypeId: string): Promise<boolean> {
    return this.send<unknown>({
      operation: 'links.delete',
      method: 'DELETE',
      path: urlPath`/links/${id}`,
      query: { linkTypeId },
      // The ends are not known here: every links page goes.
      invalidates: [Tags.link(id), Tags.linkLists],
      scopes: 'delete',
      nullIfNotFound: true,
    }).then((res) => res !== null);
  }

  // ------------------------------------------------------------------ attributes (ops 14, 15)

  addAttributeOptions(attributeId: string, options: AttributeOptionRequest[]) {
    return this.send<AttributeInformation>({
      operation: 'attributes.addOptions',
      method: 'POST',
      path: '/schema-attribute-options',
      query: { attributeId },
      json: options,
      invalidates: [Tags.entityTypeLists],
      nullIfNotFound: true,
    });
  }

  addSchemaAttribute(schemaName: string, body: AttributeCreateRequest) {
    return this.send<AttributeInformation>({
      operation: 'attributes.create',
      method: 'POST',
      path: '/schema-attributes',
      query: { schemaName },
      json: body,
      invalidates: [Tags.entityTypeLists],
    });
  }

  // ------------------------------------------------------------------ plumbing

  /**
   * Polling saw the entity change outside the gateway: what the gateway holds of it (the record,
   * the lists and links pages that may show it) goes, for every credential.
   */
  changedElsewhere(entityId: string): void {
    this.options.upstream.cache.invalidate([Tags.entity(entityId), Tags.entityLists, Tags.linkLists]);
  }

  private cache(kind: 'entities' | 'entityTypes' | 'links', tags: string[]): UpstreamCall['cache'] {
    const ttlMs = this.options.cacheTtlMs[kind];
    return ttlMs > 0 ? { ttlMs, tags } : undefined;
  }

  /** Null only where `nullIfNotFound` allows it; reads and writes differ in their `call`, not here. */
  private send<T>(send: Send & { nullIfNotFound: true }): Promise<T | null>;
  private send<T>(send: Send): Promise<T>;
  private async send<T>({ scopes, nullIfNotFound, shape, invalidates, kind, ...rest }: Send): Promise<T | null> {
    const { upstream, credential, afterWrite, caller: own } = this.options;
    const write = invalidates !== undefined;
    // The token is asked for only when the call is sent: a warm read is answered without one.
    let used: string | undefined;
    const authorize = async () => ({ authorization: (used = await credential.authorization(own.usage)) });
    const call: UpstreamCall = { ...rest, kind: kind ?? (write ? 'write' : 'read'), idempotent: !write, authorize };
    const caller: Caller = { ...own, identity: credential.identity };
    const attempt = async (repeat = false): Promise<HttpResponse> => {
      try {
        return await upstream.call({ ...call, repeat }, caller);
      } catch (e) {
        // A write that may have been applied: drop what it may have changed, so a re-read sees it.
        if (invalidates && isUpstreamError(e) && e.kind === 'outcome-unknown') {
          upstream.cache.invalidate(invalidates);
          afterWrite?.();
        }
        throw e;
      }
    };
    let res = await attempt();
    // An expired or revoked token: fetch a new one and try once more (an answer shared from an
    // identical read in flight sent that read's token: this one tries once with its own).
    if (res.status === 401 && (used === undefined || (await credential.renew(used, own.usage))))
      res = await attempt(true);
    // This client is the one place that decides what a governance write makes stale (for every credential).
    if (invalidates?.length) upstream.cache.invalidate(invalidates);
    if (call.kind === 'write') afterWrite?.();
    if (res.status >= 200 && res.status < 300) {
      this.options.onAnswer?.(call.operation, res.body);
      const body = res.body ?? {};
      return (shape ? checkPayload('governance', shape, body, call.operation) : body) as T;
    }
    // A not-found of something the input refers to (an organization on an update) is not the record's.
    const sent = { json: call.json, query: call.query };
    if (isNotFound(res) && nullIfNotFound && !refusedArgument(res, call.operation, sent)) return null;
    throw statusError(res, scopes ?? (write ? 'write' : 'read'), call.operation, sent);
  }
}

const pageQuery = ({ page, size, sort }: PageRequest) => ({ page, size, sort });
