/**
 * In-memory tenant state: the seed, lookups that throw the platform's errors, and the writes.
 * `reset()` goes back to the seed. Deleting an entity keeps a tombstone, so links to it stay and show
 * that end as `deleted: true` (the seed has such links too); the entity itself then reads as not found.
 */
import { randomUUID } from 'node:crypto';
import {
  AI_ENTITY_TYPE_NAMES,
  type AttributeValueRequest,
  type OptionValueItem,
  type UserReference,
  type ValueItem,
} from '../../governance/wire.js';
import { invalid, notFound } from './errors.js';
import type {
  CustomAttributeRecord,
  EntityRecord,
  EntityTypeRecord,
  GovernanceData,
  LinkRecord,
  LinkTypeRecord,
} from './records.js';
import { buildSeed } from './seed.js';

export const isAiKind = (name: string): boolean => (AI_ENTITY_TYPE_NAMES as readonly string[]).includes(name);

export type TraversalStrategy = 'DESCENDANTS' | 'ANCESTORS_AND_DESCENDANTS' | 'ALL';

export class GovernanceStore {
  data!: GovernanceData;
  private entities = new Map<string, EntityRecord>();

  constructor(private readonly seed: number) {
    this.reset();
  }

  reset(): void {
    this.data = buildSeed(this.seed);
    this.entities = new Map(this.data.entities.map((e) => [e.id, e]));
  }

  /** The org the API credential was created in: the root of the tree. */
  get rootOrgId(): string {
    return this.data.organizations[0]!.id;
  }

  /** The user that API writes are recorded as. */
  get apiUser(): UserReference {
    return this.data.users[0]!;
  }

  typeByName(name: string): EntityTypeRecord | undefined {
    return this.data.entityTypes.find((t) => t.name === name);
  }

  entityType(id: string): EntityTypeRecord {
    const type = this.data.entityTypes.find((t) => t.id === id);
    if (!type) throw notFound(id, 'EntityType');
    return type;
  }

  /** The AI kind named by `entityTypeId`/`entityTypeName` query parameters, if any were given. */
  aiTypeFromQuery(entityTypeId: string | undefined, entityTypeName: string | undefined): EntityTypeRecord | undefined {
    let type: EntityTypeRecord | undefined;
    if (entityTypeName !== undefined) {
      if (!isAiKind(entityTypeName)) throw invalid(`entityTypeName must be one of ${AI_ENTITY_TYPE_NAMES.join(', ')}`);
      type = this.typeByName(entityTypeName);
    }
    if (entityTypeId !== undefined) {
      const byId = this.entityType(entityTypeId);
      if (!isAiKind(byId.name)) throw invalid('Only AI governance entity types are supported');
      if (type && type.id !== byId.id) throw invalid('entityTypeId and entityTypeName disagree');
      type = byId;
    }
    return type;
  }

  /** A live record of one of the four AI kinds (optionally of the given type), else not found. */
  entity(id: string, type?: EntityTypeRecord): EntityRecord {
    const e = this.entities.get(id);
    if (!e || e.deleted || !isAiKind(e.typeName) || (type && e.typeName !== type.name))
      throw notFound(id, type?.name ?? 'Entity');
    return e;
  }

  /** Any record, deleted or of another kind (link ends). */
  resolve = (id: string): { entity: EntityRecord; type: EntityTypeRecord } => {
    const entity = this.entities.get(id);
    if (!entity) throw notFound(id, 'Entity');
    return { entity, type: this.typeByName(entity.typeName)! };
  };

  anyEntity(id: string): EntityRecord | undefined {
    return this.entities.get(id);
  }

  liveEntities(): EntityRecord[] {
    return this.data.entities.filter((e) => !e.deleted && isAiKind(e.typeName));
  }

  linkType(id: string): LinkTypeRecord {
    const type = this.data.linkTypes.find((t) => t.id === id);
    if (!type) throw notFound(id, 'EntityLinkType');
    return type;
  }

  link(id: string, linkTypeId: string): LinkRecord {
    const type = this.linkType(linkTypeId);
    const link = this.data.links.find((l) => l.id === id && l.linkTypeId === type.id);
    if (!link) throw notFound(id, 'EntityLink');
    return link;
  }

  /**
   * Organizations a search may see. The context org is `requestedOrganizationId` or the credential's
   * (root) org. DESCENDANTS (default): the context org and everything below it. ANCESTORS_AND_DESCENDANTS:
   * also the orgs above it. ALL: every org of the tenant.
   */
  visibleOrgs(strategy: TraversalStrategy, requestedOrganizationId?: string): Set<string> {
    const orgs = this.data.organizations;
    if (strategy === 'ALL') return new Set(orgs.map((o) => o.id));
    const context = requestedOrganizationId ?? this.rootOrgId;
    if (!orgs.some((o) => o.id === context)) throw notFound(context, 'Organization');
    const visible = new Set([context]);
    // Parents come before their children in the list, so one pass collects every descendant.
    for (const o of orgs) if (o.parentId && visible.has(o.parentId)) visible.add(o.id);
    if (strategy === 'ANCESTORS_AND_DESCENDANTS') {
      const parentOf = new Map(orgs.map((o) => [o.id, o.parentId]));
      for (let up = parentOf.get(context); up; up = parentOf.get(up)) visible.add(up);
    }
    return visible;
  }

  createEntity(
    type: EntityTypeRecord,
    name: string,
    orgId: string,
    attributes: Record<string, AttributeValueRequest[]>,
  ): EntityRecord {
    this.organization(orgId);
    const now = new Date().toISOString();
    const number = Math.max(0, ...this.data.entities.filter((e) => e.typeName === type.name).map((e) => e.number)) + 1;
    const record: EntityRecord = {
      id: randomUUID(),
      typeName: type.name,
      number,
      name,
      orgGroupId: orgId,
      text: {},
      options: {},
      custom: {},
      stageId: type.workflow?.stages[0]?.id ?? null,
      deleted: false,
      createdDate: now,
      lastUpdatedDate: now,
      createdBy: this.apiUser,
      lastModifiedBy: this.apiUser,
    };
    this.applyAttributes(record, type, attributes);
    this.data.entities.push(record);
    this.entities.set(record.id, record);
    return record;
  }

  updateEntity(
    record: EntityRecord,
    changes: { name?: string; orgId?: string; attributes?: Record<string, AttributeValueRequest[]> },
  ): void {
    const type = this.typeByName(record.typeName)!;
    if (changes.orgId !== undefined) this.organization(changes.orgId);
    const draft = structuredClone(record);
    if (changes.attributes) this.applyAttributes(draft, type, changes.attributes);
    Object.assign(record, draft, {
      name: changes.name ?? record.name,
      orgGroupId: changes.orgId ?? record.orgGroupId,
      lastUpdatedDate: new Date().toISOString(),
      lastModifiedBy: this.apiUser,
    });
  }

  deleteEntity(record: EntityRecord): void {
    record.deleted = true;
    record.lastUpdatedDate = new Date().toISOString();
  }

  createLink(linkType: LinkTypeRecord, entity1: EntityRecord, entity2: EntityRecord): LinkRecord {
    const allowed = linkType.associations.some(
      ([a, b]) =>
        (a === entity1.typeName && b === entity2.typeName) || (a === entity2.typeName && b === entity1.typeName),
    );
    if (!allowed)
      throw invalid(`Link type ${linkType.name} does not connect ${entity1.typeName} and ${entity2.typeName}`);
    if (entity1.id === entity2.id) throw invalid('An entity cannot be linked to itself');
    const duplicate = this.data.links.some(
      (l) =>
        l.linkTypeId === linkType.id &&
        ((l.entity1Id === entity1.id && l.entity2Id === entity2.id) ||
          (l.entity1Id === entity2.id && l.entity2Id === entity1.id)),
    );
    if (duplicate) throw invalid('These entities are already linked with this link type');
    const now = new Date().toISOString();
    const link: LinkRecord = {
      id: randomUUID(),
      linkTypeId: linkType.id,
      entity1Id: entity1.id,
      entity2Id: entity2.id,
      createdDate: now,
      lastUpdatedDate: now,
      createdBy: this.apiUser,
    };
    this.data.links.push(link);
    return link;
  }

  deleteLink(link: LinkRecord): void {
    this.data.links = this.data.links.filter((l) => l !== link);
  }

  customAttributes(schemaName: string): CustomAttributeRecord[] {
    return this.data.customAttributes.filter((a) => a.schemaName === schemaName);
  }

  private organization(id: string) {
    const org = this.data.organizations.find((o) => o.id === id);
    if (!org) throw notFound(id, 'Organization');
    return org;
  }

  /** Seeded text → entityDetail, seeded selects → extendedBaseAttributes, custom → attributes. */
  private applyAttributes(
    record: EntityRecord,
    type: EntityTypeRecord,
    attributes: Record<string, AttributeValueRequest[]>,
  ): void {
    for (const [field, raw] of Object.entries(attributes)) {
      if (!Array.isArray(raw)) throw invalid(`attributes.${field} must be an array`);
      const seeded = type.attributes.find((a) => a.field === field);
      const custom = this.customAttributes(type.name).find((a) => a.fieldName === field || a.name === field);
      if (!seeded && !custom) throw invalid(`Unknown attribute ${field} for ${type.name}`);
      const target = seeded ? (seeded.options ? record.options : record.text) : record.custom;
      const key = custom?.fieldName ?? field;
      if (raw.length === 0) {
        delete target[key];
        continue;
      }
      const options =
        seeded?.options?.map((o) => ({ id: o.id, value: o.value, valueKey: o.valueKey })) ??
        (custom?.optionAllowed
          ? custom.options.map((o) => ({ id: o.id ?? '', value: o.option, valueKey: o.optionKey ?? '' }))
          : undefined);
      target[key] = raw.map((v): ValueItem | OptionValueItem => {
        if (!options) {
          if (typeof v?.value !== 'string') throw invalid(`attributes.${field} values need a string value`);
          return { id: null, value: v.value, disabled: false };
        }
        const option = options.find(
          (o) => (v?.id !== undefined && o.id === v.id) || (v?.id === undefined && o.value === v?.value),
        );
        if (!option) throw invalid(`attributes.${field}: unknown option ${v?.id ?? v?.value}`);
        return { id: option.id, value: option.value, valueKey: option.valueKey, disabled: false };
      });
    }
  }
}
