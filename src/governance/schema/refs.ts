/**
 * Object references of the governance graph, declared once with the upstream payload that backs
 * each, so type files can point at each other without import cycles. Each is implemented in the file
 * named after it.
 */
import { builder } from '../../graph/builder.js';
import type {
  AttributeInformation,
  AttributeOptionInformation,
  BasicEntity,
  EntityInformation,
  EntityTypeInformation,
  EntityTypeReference,
  LinkEndpoint,
  LinkInformation,
  LinkTypeReference,
  RelatedEntityLink,
  RelationshipTypeDetail,
  UserReference,
  ValueItem,
  WorkflowAndStage,
  WorkflowStageInformation,
} from '../model.js';

export type AttributeGroupValue = 'base' | 'extended' | 'custom';
export interface EntityAttributeShape {
  name: string;
  group: AttributeGroupValue;
  values: ValueItem[];
}
/** An item of an entity's links list, with the id of the entity it was listed for. */
export interface EntityLinkShape {
  item: RelatedEntityLink;
  parentId: string;
}

export const EntityRef = builder.objectRef<EntityInformation>('Entity');
export const EntityTypeRef = builder.objectRef<EntityTypeReference | EntityTypeInformation>('EntityType');
export const EntitySummaryRef = builder.objectRef<BasicEntity>('EntitySummary');
export const EntityStageRef = builder.objectRef<WorkflowAndStage>('EntityStage');
export const WorkflowStageRef = builder.objectRef<WorkflowStageInformation>('WorkflowStage');
export const UserRef = builder.objectRef<UserReference>('GovernanceUser');
export const EntityAttributeRef = builder.objectRef<EntityAttributeShape>('EntityAttribute');
export const AttributeValueRef = builder.objectRef<ValueItem>('AttributeValue');
export const LinkRef = builder.objectRef<LinkInformation>('GovernanceLink');
export const LinkTypeRef = builder.objectRef<LinkTypeReference>('GovernanceLinkType');
export const RelationshipTypeRef = builder.objectRef<RelationshipTypeDetail>('RelationshipType');
export const LinkEndRef = builder.objectRef<LinkEndpoint>('GovernanceLinkEnd');
export const EntityLinkRef = builder.objectRef<EntityLinkShape>('EntityLink');
export const SchemaAttributeRef = builder.objectRef<AttributeInformation>('SchemaAttribute');
export const AttributeOptionRef = builder.objectRef<AttributeOptionInformation>('AttributeOption');
