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

export interface UserReference {
  id: Uuid;
  name: string | null;
  email: string | null;
  initials: string | null;
}

/** Audit fields: entities and links carry the user references, entity types only the dates. */
export interface AuditFields {
  createdDate: IsoTimestamp;
  lastUpdatedDate: IsoTimestamp;
  createdBy?: UserReference;
  lastModifiedBy?: UserReference;
}

/** A value of a text attribute: `id` is null, `value` is the text. */
export interface ValueItem {
  id: Uuid | null;
  value: string;
  disabled: boolean;
  valueKey?: string;
  colorCode?: string;
  optionSelectionValue?: string;
  displayLabel?: string;
}

/** A selected option of a select attribute: `id` is the option uuid, `valueKey` its localisation key. */
export interface OptionValueItem extends ValueItem {
  id: Uuid;
  valueKey: string;
}

/**
 * `entityDetail`: seeded text attributes sit at the top level (`description`, `datasetVersion`, …),
 * seeded select attributes under `extendedBaseAttributes` (`type`, `source`, `function`, …).
 */
export type EntityDetail = {
  extendedBaseAttributes?: Record<string, OptionValueItem[]>;
} & { [attribute: string]: ValueItem[] | Record<string, OptionValueItem[]> | undefined };

export interface WorkflowAndStage {
  id: Uuid;
  name: string;
  nameKey?: string;
  /** The workflow type (equals the entity type's `workflowType`). */
  type: Uuid;
  workflowMode?: 'BASIC' | 'ADVANCED';
  stageId: Uuid;
  stageName: string;
  stageNameKey?: string;
  badgeColor?: string;
}

// ---------------------------------------------------------------------------------------------
// Entities

export interface EntityInformation {
  id: Uuid;
  number: number;
  name: string;
  orgGroupId: Uuid;
  schemaId: Uuid;
  entityType: EntityTypeReference;
  workflowAndStage: WorkflowAndStage | null;
  entityDetail: EntityDetail;
  /** Custom attributes keyed by generated field name (e.g. `attributeTextValue.value1_3`); often `{}`. */
  attributes: Record<string, ValueItem[]>;
  auditFields: AuditFields;
}

/** Item of `/entity-basic-details/search`. */
export interface BasicEntity {
  id: Uuid;
  number: number;
  name: string;
  /** `"<number> | <name>"`. */
  displayLabel: string;
  entityType: EntityTypeReference;
  orgGroupId: Uuid;
  schemaId: Uuid;
}

// ---------------------------------------------------------------------------------------------
// Entity types

export interface EntityTypeSettings {
  enableWorkflow: boolean;
  enableWorkflowStageTracking: boolean;
  enableAudit?: boolean;
  assessable: boolean;
  enableTask: boolean;
  enableRisk: boolean;
  enableDocument: boolean;
  enableControl: boolean;
  enableWebForm: boolean;
  enableComment: boolean;
}

export interface EntityTypeInformation {
  id: Uuid;
  name: string;
  nameKey?: string;
  description?: string;
  descriptionKey?: string;
  seeded?: boolean;
  enabled?: boolean;
  moduleName?: string;
  /** Module codes such as `AIG`, `DM`, `ITRM`. */
  moduleScopes?: string[];
  schemaName?: string;
  /** The workflow type uuid (the type's own id where seen), null without a workflow. */
  workflowType: Uuid | null;
  settings: EntityTypeSettings;
  auditFields?: AuditFields;
}

// ---------------------------------------------------------------------------------------------
// Links

export interface LinkTypeReference {
  id: Uuid;
  name: string;
  nameKey?: string;
  idOrNamePresent?: boolean;
}

export interface LinkTypeLabel {
  id: number;
  entityType1ToEntityType2EntityLinkName: string;
  entityType1ToEntityType2EntityLinkNameKey?: string;
  entityType2ToEntityType1EntityLinkName: string;
  entityType2ToEntityType1EntityLinkNameKey?: string;
}

export interface LinkEntityDetail {
  extendedBaseAttributes?: Record<string, OptionValueItem[]>;
  displayLabel?: string;
}

/** One end of a link. `number` is null in `/links` responses, filled in on the related-entities page. */
export interface LinkEndpoint {
  linkEntityDetail: LinkEntityDetail | null;
  id: Uuid;
  number: number | null;
  name: string;
  entityType: EntityTypeReference;
  deleted: boolean;
}

export interface LinkInformation {
  id: Uuid;
  linkType: LinkTypeReference;
  linkTypeLabel: LinkTypeLabel;
  entity1: LinkEndpoint;
  entity2: LinkEndpoint;
  schemaId: Uuid;
  entityLinkDetail: Record<string, unknown> | null;
  auditFields: AuditFields;
}

/** `relationshipTypeDetail` of a related-entities item; its `id` is the link type id. */
export interface RelationshipTypeDetail {
  id: Uuid;
  name: string;
  nameKey: string;
  schemaName: string;
  seeded: boolean;
  moduleName: string;
  description: string;
  descriptionKey: string;
  entityType1ToEntityType2EntityLinkName: string;
  entityType1ToEntityType2EntityLinkNameKey: string;
  entityType2ToEntityType1EntityLinkName: string;
  entityType2ToEntityType1EntityLinkNameKey: string;
  enableAudit: boolean;
  allowNewCustomLinkAssociation: boolean;
  auditFields: AuditFields;
}

/** Item of `/linked-entity-types/…/links/pages`; the entity of the path may be `source` or `target`. */
export interface RelatedEntityLink {
  /** The link id. */
  id: Uuid;
  createdDate: IsoTimestamp;
  lastUpdatedDate: IsoTimestamp;
  relationshipTypeDetail: RelationshipTypeDetail;
  source: LinkEndpoint;
  target: LinkEndpoint;
}

// ---------------------------------------------------------------------------------------------
// Workflow stages

/** The one stage object that the stage-assignment operation returns. */
export interface WorkflowStageInformation {
  id: Uuid;
  name: string;
  nameKey?: string;
  description?: string | null;
  descriptionKey?: string | null;
  sequence: number;
  allowDeletion?: boolean;
  badgeColor?: string;
  approvalStage?: boolean;
  exceptionStage?: boolean;
  autoAdvanceOnApproval?: boolean;
  customFields?: Record<string, unknown>;
  stageApprovers?: Array<Record<string, unknown>>;
  additionalFields?: Record<string, unknown>;
  advanceStageActionEnabled?: boolean;
  advanceStageActions?: Array<Record<string, unknown>>;
  stageExceptionConfiguration?: Record<string, unknown> | null;
}

// ---------------------------------------------------------------------------------------------
// Attributes

export type AttributeResponseType =
  'Text' | 'SingleSelect' | 'MultiSelect' | 'Date' | 'Formula' | 'Score' | 'Level' | 'Range';

export interface AttributeOptionInformation {
  id?: Uuid;
  option: string;
  optionKey?: string;
  enabled?: boolean;
  colorCode?: string;
  sequence?: number;
}

export interface AttributeInformation {
  id: Uuid;
  name: string;
  nameKey?: string;
  description?: string | null;
  descriptionKey?: string | null;
  /** Generated, e.g. `attributeTextValue.value1_3`. */
  fieldName: string;
  mappedFieldName?: string | null;
  enabled: boolean;
  required?: boolean;
  readOnly?: boolean;
  encrypted?: boolean;
  allowOther?: boolean;
  baseAttribute?: boolean;
  responseType?: AttributeResponseType;
  formula?: string | null;
  /** Schema enum None|Static|Dynamic; the platform's examples send lower case. */
  optionType?: string | null;
  optionAllowed?: boolean;
  schemaId?: Uuid;
  schemaName?: string;
  options?: AttributeOptionInformation[];
  responseMaxLength?: number | null;
  source?: string | null;
  responseSubType?: 'STANDARD' | 'FORMULA' | 'MATRIX' | null;
  multiSelectMaxOptionValues?: number | null;
  hidden?: boolean;
  abacBasicAssignmentInfo?: unknown[] | null;
  associatedAttributeFieldName?: string | null;
  scoreLevelName?: string;
  referenceCategoryIds?: string[];
  maxMultiSelectAllowedOptionValues?: number | null;
  metadata?: string;
  createdBy?: string;
  createdTime?: IsoTimestamp;
  lastModifiedBy?: string;
  lastModifiedTime?: IsoTimestamp;
}

// ---------------------------------------------------------------------------------------------
// Envelopes

export interface SortInfo {
  empty: boolean;
  sorted: boolean;
  unsorted: boolean;
}

/** Spring Data page: entities, basic details, entity types. */
export interface SpringPage<T> {
  content: T[];
  pageable: {
    pageNumber: number;
    pageSize: number;
    sort: SortInfo;
    offset: number;
    paged: boolean;
    unpaged: boolean;
  };
  last: boolean;
  first: boolean;
  empty: boolean;
  totalElements: number;
  totalPages: number;
  size: number;
  number: number;
  numberOfElements: number;
  sort: SortInfo;
}

/** The related-entities page: no `pageable`, no `sort`, `hasContent` instead of `empty`. */
export interface LinksPage<T> {
  content: T[];
  number: number;
  size: number;
  totalElements: number;
  first: boolean;
  last: boolean;
  hasContent: boolean;
  numberOfElements: number;
  totalPages: number;
}

export interface ErrorItem {
  code: string;
  title: string;
  detail: string;
  source?: string;
}

/** `{errors:[{code,title,detail}],traceId}`; codes such as `INVALID_REQUEST`, `ERROR_ONETRUST_ENTITY_NOT_FOUND`. */
export interface ErrorBody {
  errors: ErrorItem[];
  traceId: Uuid;
}

/** `POST /api/access/v1/oauth/token` success body. */
export interface TokenResponse {
  access_token: string;
  token_type: string;
  /** Seconds; the client falls back to 3600 when missing. */
  expires_in?: number;
  scope?: string;
  /** Comma-joined list of the credential's scopes, e.g. `AI_GOVERNANCE,AI_GOVERNANCE_READ`. */
  'ot-scopes'?: string;
  jti?: string;
  guid?: string;
  sessionId?: string;
  tenantId?: number;
  tenantGuid?: Uuid;
  orgGroupId?: number | string;
  orgGroupGuid?: Uuid;
  email?: string;
  user_name?: string;
  languageId?: number;
  role?: string;
}

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
export const entityShape = z.object({
  id: z.string(),
  number: z.number(),
  name: z.string(),
  entityType: entityTypeReferenceShape,
});

/** A page of the platform's Spring search endpoints, its items checked with `item`. */
export const springPageShape = <S extends z.ZodType>(item: S) =>
  z.object({ content: z.array(item), totalElements: z.number() });
