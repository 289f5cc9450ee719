/**
 * Object references of the governance graph, declared once with the upstream payload that backs
 * each, so type files can point at each other without import cycles. Each is implemented in the file
 * named after it.
 */
import { builder } from '../../graph/builder.js';
import type * as M from '../model.js';

export interface EntityAttributeShape {
  name: string;
  group: 'base' | 'extended' | 'custom';
  values: M.ValueItem[];
}
/** An item of an entity's links list, with the id of the entity it was listed for. */
export interface EntityLinkShape {
  item: M.RelatedEntityLink;
  parentId: string;
}

/** A record in full, or as a link shows one of its ends: what that lacks is loaded when asked for (entity.ts). */
export type EntityShape = M.EntityInformation | M.LinkEndpoint;
/** A link record read by id: by itself, or (`parentId`, from a listed link's id) seen from one of its ends. */
export type LinkRecordShape = M.LinkInformation & { parentId?: string };
/** A link as read by itself, or as an entity's links list it (seen from that entity). */
export type LinkShape = LinkRecordShape | EntityLinkShape;

export const EntityRef = builder.objectRef<EntityShape>('Entity');
export const EntityTypeRef = builder.objectRef<M.EntityTypeReference | M.EntityTypeInformation>('EntityType');
export const EntitySummaryRef = builder.objectRef<M.BasicEntity>('EntitySummary');
export const EntityStageRef = builder.objectRef<M.WorkflowAndStage>('EntityStage');
export const WorkflowStageRef = builder.objectRef<M.WorkflowStageInformation>('WorkflowStage');
export const UserRef = builder.objectRef<M.UserReference>('GovernanceUser');
export const EntityAttributeRef = builder.objectRef<EntityAttributeShape>('EntityAttribute');
export const AttributeValueRef = builder.objectRef<M.ValueItem>('AttributeValue');
export const LinkRef = builder.objectRef<LinkShape>('GovernanceLink');
export const LinkTypeRef = builder.objectRef<M.LinkTypeReference>('GovernanceLinkType');
export const RelationshipTypeRef = builder.objectRef<M.RelationshipTypeDetail>('RelationshipType');
export const LinkEndRef = builder.interfaceRef<EntityShape>('GovernanceLinkEnd');
export const LinkedRecordRef = builder.objectRef<M.LinkEndpoint>('GovernanceLinkedRecord');
export const SchemaAttributeRef = builder.objectRef<M.AttributeInformation>('SchemaAttribute');
export const AttributeOptionRef = builder.objectRef<M.AttributeOptionInformation>('AttributeOption');
