/**
 * The emulator's internal records. They hold ids and references; `render.ts` turns them into the wire
 * shapes of `../wire.ts`, so one change of a record shows up consistently in every response.
 */
import type { AttributeInformation, OptionValueItem, UserReference, ValueItem } from '../../governance/wire.js';

export interface Organization {
  id: string;
  name: string;
  parentId: string | null;
}

export interface OptionRecord {
  id: string;
  value: string;
  valueKey: string;
}

export interface SeededAttribute {
  field: string;
  /** Present for select attributes. */
  options?: OptionRecord[];
}

export interface StageRecord {
  id: string;
  name: string;
  nameKey: string;
  sequence: number;
  badgeColor: string;
}

export interface WorkflowRecord {
  id: string;
  name: string;
  nameKey: string;
  /** The workflow type uuid: the entity type's own id. */
  type: string;
  stages: StageRecord[];
}

export interface EntityTypeRecord {
  id: string;
  name: string;
  nameKey: string;
  description: string;
  descriptionKey: string;
  moduleName: string;
  moduleScopes: string[];
  seeded: boolean;
  enabled: boolean;
  schemaId: string;
  workflow: WorkflowRecord | null;
  /** Seeded attributes (only for the AI kinds). */
  attributes: SeededAttribute[];
  createdDate: string;
  lastUpdatedDate: string;
}

export interface EntityRecord {
  id: string;
  typeName: string;
  number: number;
  name: string;
  orgGroupId: string;
  /** Text attributes by field. */
  text: Record<string, ValueItem[]>;
  /** Select attributes by field. */
  options: Record<string, OptionValueItem[]>;
  /** Custom attributes by generated field name. */
  custom: Record<string, ValueItem[]>;
  stageId: string | null;
  /** Deleted records stay as tombstones so link ends can say `deleted: true`. */
  deleted: boolean;
  createdDate: string;
  lastUpdatedDate: string;
  createdBy: UserReference;
  lastModifiedBy: UserReference;
}

export interface LinkTypeRecord {
  id: string;
  name: string;
  nameKey: string;
  schemaId: string;
  description: string;
  descriptionKey: string;
  seeded: boolean;
  moduleName: string;
  labelId: number;
  forward: string;
  forwardKey: string;
  backward: string;
  backwardKey: string;
  associations: Array<[string, string]>;
  createdDate: string;
}

export interface LinkRecord {
  id: string;
  linkTypeId: string;
  entity1Id: string;
  entity2Id: string;
  createdDate: string;
  lastUpdatedDate: string;
  createdBy: UserReference;
}

/** Custom attributes are kept in their wire shape; options are re-sorted on every change. */
export type CustomAttributeRecord = AttributeInformation & { options: NonNullable<AttributeInformation['options']> };

export interface GovernanceData {
  tenantGuid: string;
  organizations: Organization[];
  users: UserReference[];
  entityTypes: EntityTypeRecord[];
  entities: EntityRecord[];
  linkTypes: LinkTypeRecord[];
  links: LinkRecord[];
  customAttributes: CustomAttributeRecord[];
}
