/**
 * The AI governance REST API's JSON payloads, typed as the real platform sends them (see
 * /work/shared/upstreams/governance-facts.md and the published OpenAPI file). Shared by the emulator
 * and the gateway's REST client, so both sides agree on one wire shape. Fields the platform sometimes
 * omits are optional; fields it sends as null are `| null`.
 */

import { z } from 'zod';

export type Uuid = string;
/** ISO 8601 UTC timestamp with milliseconds, e.g. `2025-11-18T08:54:42.017Z`. */
export type IsoTimestamp = string;

export const AI_ENTITY_TYPE_NAMES = ['models', 'datasets', 'aisystems', 'aiagents'] as const;
export type AiEntityTypeName = (typeof AI_ENTITY_TYPE_NAMES)[number];

export type GovernanceScope = 'AI_GOVERNANCE' | 'AI_GOVERNANCE_READ' | 'AI_GOVERNANCE_WRITE';

// Read payloads are zod schemas, and their types are inferred from them: one source for the
// shapes the gateway checks (picked at the end of this file) and the types the client and the
// emulator compile against. Request bodies, which the gateway builds itself, stay interfaces.

const uuid = z.string();
const isoTimestamp = z.string();

// ---------------------------------------------------------------------------------------------
// Shared pieces

/** Entity type reference embedded in entities, link ends and basic entities. */
export const entityTypeReferenceShape = z.object({
  id: z.string(),
  name: z.string(),
  nameKey: z.string().optional(),
  seeded: z.boolean().optional(),
  moduleName: z.string().optional(),
  schemaName: z.string().optional(),
});
export type EntityTypeReference = z.infer<typeof entityTypeReferenceShape>;

const userReference = z.object({
  id: uuid,
  name: z.string().nullable(),
  email: z.string().nullable(),
  initials: z.string().nullable(),
});
export type UserReference = z.infer<typeof userReference>;

/** Audit fields: entities and links carry the user references, entity types only the dates. */
const auditFields = z.object({
  createdDate: isoTimestamp,
  lastUpdatedDate: isoTimestamp,
  createdBy: userReference.optional(),
  lastModifiedBy: userReference.optional(),
});
export type AuditFields = z.infer<typeof auditFields>;

/** A value of a text attribute: `id` is null, `value` is the text. */
const valueItem = z.object({
  id: uuid.nullable(),
  value: z.string(),
  disabled: z.boolean(),
  valueKey: z.string().optional(),
  colorCode: z.string().optional(),
  optionSelectionValue: z.string().optional(),
  displayLabel: z.string().optional(),
});
export type ValueItem = z.infer<typeof valueItem>;

/** A selected option of a select attribute: `id` is the option uuid, `valueKey` its localisation key. */
const optionValueItem = valueItem.extend({ id: uuid, valueKey: z.string() });
export type OptionValueItem = z.infer<typeof optionValueItem>;

/**
 * `entityDetail`: seeded text attributes sit at the top level (`description`, `datasetVersion`, …),
 * seeded select attributes under `extendedBaseAttributes` (`type`, `source`, `function`, …).
 */
const entityDetail = z
  .object({ extendedBaseAttributes: z.record(z.string(), z.array(optionValueItem)).optional() })
  .catchall(z.union([z.array(valueItem), z.record(z.string(), z.array(optionValueItem))]).optional());

const workflowAndStage = z.object({
  id: uuid,
  name: z.string(),
  nameKey: z.string().optional(),
  /** The workflow type (equals the entity type's `workflowType`). */
  type: uuid,
  workflowMode: z.enum(['BASIC', 'ADVANCED']).optional(),
  stageId: uuid,
  stageName: z.string(),
  stageNameKey: z.string().optional(),
  badgeColor: z.string().optional(),
});
export type WorkflowAndStage = z.infer<typeof workflowAndStage>;

// ---------------------------------------------------------------------------------------------
// Entities

const entityInformation = z.object({
  id: uuid,
  number: z.number(),
  name: z.string(),
  orgGroupId: uuid,
  schemaId: uuid,
  entityType: entityTypeReferenceShape,
  workflowAndStage: workflowAndStage.nullable(),
  entityDetail,
  /** Custom attributes keyed by generated field name (e.g. `attributeTextValue.value1_3`); often `{}`. */
  attributes: z.record(z.string(), z.array(valueItem)),
  auditFields,
});
export type EntityInformation = z.infer<typeof entityInformation>;

/** Item of `/entity-basic-details/search`. */
export const basicEntity = z.object({
  id: uuid,
  number: z.number(),
  name: z.string(),
  /** `"<number> | <name>"`. */
  displayLabel: z.string(),
  entityType: entityTypeReferenceShape,
  orgGroupId: uuid,
  schemaId: uuid,
});
export type BasicEntity = z.infer<typeof basicEntity>;

// ---------------------------------------------------------------------------------------------
// Entity types

const entityTypeSettings = z.object({
  enableWorkflow: z.boolean(),
  enableWorkflowStageTracking: z.boolean(),
  enableAudit: z.boolean().optional(),
  assessable: z.boolean(),
  enableTask: z.boolean(),
  enableRisk: z.boolean(),
  enableDocument: z.boolean(),
  enableControl: z.boolean(),
  enableWebForm: z.boolean(),
  enableComment: z.boolean(),
});
export type EntityTypeSettings = z.infer<typeof entityTypeSettings>;

export const entityTypeInformation = z.object({
  id: uuid,
  name: z.string(),
  nameKey: z.string().optional(),
  description: z.string().optional(),
  descriptionKey: z.string().optional(),
  seeded: z.boolean().optional(),
  enabled: z.boolean().optional(),
  moduleName: z.string().optional(),
  /** Module codes such as `AIG`, `DM`, `ITRM`. */
  moduleScopes: z.array(z.string()).optional(),
  schemaName: z.string().optional(),
  /** The workflow type uuid (the type's own id where seen), null without a workflow. */
  workflowType: uuid.nullable(),
  settings: entityTypeSettings,
  auditFields: auditFields.optional(),
});
export type EntityTypeInformation = z.infer<typeof entityTypeInformation>;

// ---------------------------------------------------------------------------------------------
// Links

const linkTypeReference = z.object({
  id: uuid,
  name: z.string(),
  nameKey: z.string().optional(),
  idOrNamePresent: z.boolean().optional(),
});
export type LinkTypeReference = z.infer<typeof linkTypeReference>;

const linkTypeLabel = z.object({
  id: z.number(),
  entityType1ToEntityType2EntityLinkName: z.string(),
  entityType1ToEntityType2EntityLinkNameKey: z.string().optional(),
  entityType2ToEntityType1EntityLinkName: z.string(),
  entityType2ToEntityType1EntityLinkNameKey: z.string().optional(),
});

const linkEntityDetail = z.object({
  extendedBaseAttributes: z.record(z.string(), z.array(optionValueItem)).optional(),
  displayLabel: z.string().optional(),
});

/** One end of a link. `number` is null in `/links` responses, filled in on the related-entities page. */
const linkEndpoint = z.object({
  linkEntityDetail: linkEntityDetail.nullable(),
  id: uuid,
  number: z.number().nullable(),
  name: z.string(),
  entityType: entityTypeReferenceShape,
  deleted: z.boolean(),
});
export type LinkEndpoint = z.infer<typeof linkEndpoint>;

export const linkInformation = z.object({
  id: uuid,
  linkType: linkTypeReference,
  linkTypeLabel,
  entity1: linkEndpoint,
  entity2: linkEndpoint,
  schemaId: uuid,
  entityLinkDetail: z.record(z.string(), z.unknown()).nullable(),
  auditFields,
});
export type LinkInformation = z.infer<typeof linkInformation>;

/** `relationshipTypeDetail` of a related-entities item; its `id` is the link type id. */
const relationshipTypeDetail = z.object({
  id: uuid,
  name: z.string(),
  nameKey: z.string(),
  schemaName: z.string(),
  seeded: z.boolean(),
  moduleName: z.string(),
  description: z.string(),
  descriptionKey: z.string(),
  entityType1ToEntityType2EntityLinkName: z.string(),
  entityType1ToEntityType2EntityLinkNameKey: z.string(),
  entityType2ToEntityType1EntityLinkName: z.string(),
  entityType2ToEntityType1EntityLinkNameKey: z.string(),
  enableAudit: z.boolean(),
  allowNewCustomLinkAssociation: z.boolean(),
  auditFields,
});
export type RelationshipTypeDetail = z.infer<typeof relationshipTypeDetail>;

/** Item of `/linked-entity-types/…/links/pages`; the entity of the path may be `source` or `target`. */
export const relatedEntityLink = z.object({
  /** The link id. */
  id: uuid,
  createdDate: isoTimestamp,
  lastUpdatedDate: isoTimestamp,
  relationshipTypeDetail,
  source: linkEndpoint,
  target: linkEndpoint,
});
export type RelatedEntityLink = z.infer<typeof relatedEntityLink>;

// ---------------------------------------------------------------------------------------------
// Workflow stages

/** A stage's or an attribute's uuid, name and description, the texts with their localisation keys. */
const described = z.object({
  id: uuid,
  name: z.string(),
  nameKey: z.string().optional(),
  description: z.string().nullable().optional(),
  descriptionKey: z.string().nullable().optional(),
});

/** The one stage object that the stage-assignment operation returns. */
export const workflowStageInformation = described.extend({
  sequence: z.number(),
  allowDeletion: z.boolean().optional(),
  badgeColor: z.string().optional(),
  approvalStage: z.boolean().optional(),
  exceptionStage: z.boolean().optional(),
  autoAdvanceOnApproval: z.boolean().optional(),
  customFields: z.record(z.string(), z.unknown()).optional(),
  stageApprovers: z.array(z.record(z.string(), z.unknown())).optional(),
  additionalFields: z.record(z.string(), z.unknown()).optional(),
  advanceStageActionEnabled: z.boolean().optional(),
  advanceStageActions: z.array(z.record(z.string(), z.unknown())).optional(),
  stageExceptionConfiguration: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type WorkflowStageInformation = z.infer<typeof workflowStageInformation>;

// ---------------------------------------------------------------------------------------------
// Attributes

const attributeResponseType = z.enum([
  'Text',
  'SingleSelect',
  'MultiSelect',
  'Date',
  'Formula',
  'Score',
  'Level',
  'Range',
]);
export type AttributeResponseType = z.infer<typeof attributeResponseType>;

const attributeOptionInformation = z.object({
  id: uuid.optional(),
  option: z.string(),
  optionKey: z.string().optional(),
  enabled: z.boolean().optional(),
  colorCode: z.string().optional(),
  sequence: z.number().optional(),
});
export type AttributeOptionInformation = z.infer<typeof attributeOptionInformation>;

export const attributeInformation = described.extend({
  /** Generated, e.g. `attributeTextValue.value1_3`. */
  fieldName: z.string(),
  mappedFieldName: z.string().nullable().optional(),
  enabled: z.boolean(),
  required: z.boolean().optional(),
  readOnly: z.boolean().optional(),
  encrypted: z.boolean().optional(),
  allowOther: z.boolean().optional(),
  baseAttribute: z.boolean().optional(),
  responseType: attributeResponseType.optional(),
  formula: z.string().nullable().optional(),
  /** Schema enum None|Static|Dynamic; the platform's examples send lower case. */
  optionType: z.string().nullable().optional(),
  optionAllowed: z.boolean().optional(),
  schemaId: uuid.optional(),
  schemaName: z.string().optional(),
  options: z.array(attributeOptionInformation).optional(),
  responseMaxLength: z.number().nullable().optional(),
  source: z.string().nullable().optional(),
  responseSubType: z.enum(['STANDARD', 'FORMULA', 'MATRIX']).nullable().optional(),
  multiSelectMaxOptionValues: z.number().nullable().optional(),
  hidden: z.boolean().optional(),
  abacBasicAssignmentInfo: z.array(z.unknown()).nullable().optional(),
  associatedAttributeFieldName: z.string().nullable().optional(),
  scoreLevelName: z.string().optional(),
  referenceCategoryIds: z.array(z.string()).optional(),
  maxMultiSelectAllowedOptionValues: z.number().nullable().optional(),
  metadata: z.string().optional(),
  createdBy: z.string().optional(),
  createdTime: isoTimestamp.optional(),
  lastModifiedBy: z.string().optional(),
  lastModifiedTime: isoTimestamp.optional(),
});
export type AttributeInformation = z.infer<typeof attributeInformation>;

// ---------------------------------------------------------------------------------------------
// Envelopes

const sortInfo = z.object({ empty: z.boolean(), sorted: z.boolean(), unsorted: z.boolean() });

/** What both page envelopes hold: the items, the page's number and size, and the totals. */
const pageOf = <S extends z.ZodType>(item: S) =>
  z.object({
    content: z.array(item),
    number: z.number(),
    size: z.number(),
    totalElements: z.number(),
    totalPages: z.number(),
    numberOfElements: z.number(),
    first: z.boolean(),
    last: z.boolean(),
  });

/** Spring Data page: entities, basic details, entity types. */
export const springPage = <S extends z.ZodType>(item: S) =>
  pageOf(item).extend({
    pageable: z.object({
      pageNumber: z.number(),
      pageSize: z.number(),
      sort: sortInfo,
      offset: z.number(),
      paged: z.boolean(),
      unpaged: z.boolean(),
    }),
    empty: z.boolean(),
    sort: sortInfo,
  });
export type SpringPage<T> = Omit<z.infer<ReturnType<typeof springPage<z.ZodUnknown>>>, 'content'> & { content: T[] };

/** The related-entities page: no `pageable`, no `sort`, `hasContent` instead of `empty`. */
export const linksPage = <S extends z.ZodType>(item: S) => pageOf(item).extend({ hasContent: z.boolean() });
export type LinksPage<T> = Omit<z.infer<ReturnType<typeof linksPage<z.ZodUnknown>>>, 'content'> & { content: T[] };

const errorItem = z.object({
  code: z.string(),
  title: z.string(),
  detail: z.string(),
  source: z.string().optional(),
});

/** `{errors:[{code,title,detail}],traceId}`; codes such as `INVALID_REQUEST`, `ERROR_ONETRUST_ENTITY_NOT_FOUND`. */
export const errorBody = z.object({ errors: z.array(errorItem), traceId: uuid });
export type ErrorBody = z.infer<typeof errorBody>;

/** `POST /api/access/v1/oauth/token` success body. */
export const tokenResponse = z.object({
  access_token: z.string(),
  token_type: z.string(),
  /** Seconds; the client falls back to 3600 when missing. */
  expires_in: z.number().optional(),
  scope: z.string().optional(),
  /** Comma-joined list of the credential's scopes, e.g. `AI_GOVERNANCE,AI_GOVERNANCE_READ`. */
  'ot-scopes': z.string().optional(),
  jti: z.string().optional(),
  guid: z.string().optional(),
  sessionId: z.string().optional(),
  tenantId: z.number().optional(),
  tenantGuid: uuid.optional(),
  orgGroupId: z.union([z.number(), z.string()]).optional(),
  orgGroupGuid: uuid.optional(),
  email: z.string().optional(),
  user_name: z.string().optional(),
  languageId: z.number().optional(),
  role: z.string().optional(),
});
export type TokenResponse = z.infer<typeof tokenResponse>;

// ---------------------------------------------------------------------------------------------
// Request bodies

/** A value in a create/update `attributes` map: text as `{value}`, options as `{id}` (or both). */
export interface AttributeValueRequest {
  id?: Uuid;
  value?: string;
}

export interface OrganizationReference {
  id: Uuid;
  name?: string;
}

export interface EntityCreateRequest {
  name: string;
  organization: OrganizationReference;
  attributes?: Record<string, AttributeValueRequest[]>;
  workflowAndStage?: {
    workflow?: { id?: Uuid; value?: string };
    stage?: { id?: Uuid; value?: string };
    closedDate?: IsoTimestamp;
  };
}

/** PATCH body: only the fields given change. */
export interface EntityUpdateRequest {
  name?: string;
  organization?: OrganizationReference;
  attributes?: Record<string, AttributeValueRequest[]>;
}

export type FilterOperator =
  | 'EQUAL_TO'
  | 'NOT_EQUAL_TO'
  | 'GREATER_THAN'
  | 'GREATER_THAN_EQUAL_TO'
  | 'LESS_THAN'
  | 'LESS_THAN_EQUAL_TO'
  | 'BETWEEN';

export interface AttributePredicate {
  field: string;
  operator?: FilterOperator;
  /** A single string (or boolean) or an array of them; option fields take option uuids. */
  value?: string | boolean | Array<string | boolean>;
  toValue?: unknown;
}

/** Body of `/entity-types/search` and links/pages; also the `criteria` of the entity searches. */
export interface AttributeQueryCriteria {
  fullText?: string;
  filters?: AttributePredicate[];
}

export type OrganizationTraversalStrategy =
  'ancestors_and_descendants' | 'descendants' | 'all' | 'ANCESTORS_AND_DESCENDANTS' | 'DESCENDANTS' | 'ALL';

/** Body of `/entity-basic-details/search` (unwrapped). */
export interface BasicSearchRequest {
  criteria?: AttributeQueryCriteria;
  organizationTraversalStrategy?: OrganizationTraversalStrategy;
  requestedOrganizationId?: Uuid;
  queryAction?: string;
}

/** Body of `/entities/search` (wrapped in `queryRequest`). */
export interface EntitySearchRequest {
  context?: Record<string, unknown>;
  queryRequest?: BasicSearchRequest;
  requestedFields?: {
    fields?: string[];
    mode?: 'select_all' | 'ignore_all' | 'specific';
    includeSelectedFullTextSearchFields?: boolean;
    overriddenSearchFields?: string[];
  };
}

export interface LinkRequestEnd {
  id: Uuid;
  entityType: { name: string; id?: Uuid };
}

/** `POST /links?linkTypeId=` body. */
export interface LinkRequest {
  entity1: LinkRequestEnd;
  entity2: LinkRequestEnd;
  attributes?: Record<string, unknown> | null;
  context?: Record<string, unknown> | null;
}

/** `POST /assignments/entities/{entityId}/types/{type}/stage` body. */
export interface StageRequest {
  nextStageName: string;
  parameters?: Record<string, unknown>;
}

export interface AttributeOptionRequest {
  option: string;
  optionKey?: string;
  optionSelectionValue?: string;
  colorCode?: string;
  metadata?: Record<string, unknown>;
}

/** `POST /schema-attributes?schemaName=` body; `fieldName` is generated by the server. */
export interface AttributeCreateRequest {
  name: string;
  responseType: AttributeResponseType;
  fieldName?: string;
  nameKey?: string;
  description?: string;
  descriptionKey?: string;
  required?: boolean;
  encrypted?: boolean;
  allowOther?: boolean;
  options?: AttributeOptionRequest[];
  optionType?: string;
  referenceCategoryIds?: string[];
  formula?: string | null;
  context?: { parameters?: Record<string, unknown> };
  source?: string;
  responseSubType?: 'STANDARD' | 'FORMULA' | 'MATRIX' | null;
  maxMultiSelectAllowedOptionValues?: number;
  metadata?: string;
  scoreLevelName?: string;
}

// ---------------------------------------------------------------------------------------------
// Checked at the client edge (src/core/contract.ts): what the gateway reads of each record without
// a fallback. The other fields pass through unchecked (the payload itself is handed on), so the check stays cheap.

/** The fields of an entity the graph reads as non-null (id, number, name, its type). */
export const entityShape = entityInformation.pick({ id: true, number: true, name: true, entityType: true });

/** A page of the platform's Spring search endpoints, its items checked with `item`. */
export const springPageShape = <S extends z.ZodType>(item: S) =>
  springPage(item).pick({ content: true, totalElements: true });
