/**
 * The governance records and requests as the graph sees them. The client checks each read payload
 * against its contract and hands it up unchanged, so a record here is the checked payload's type;
 * a request is a body a resolver builds for the service. The schema imports this file, never
 * `wire.ts` (the zod shapes, page envelopes, error and token bodies), which only the client side
 * and the emulator read.
 */
export { AI_ENTITY_TYPE_NAMES, type AiEntityTypeName } from './wire.js';
export type {
  AttributeInformation,
  AttributeOptionInformation,
  AttributeOptionRequest,
  AttributePredicate,
  AttributeValueRequest,
  AuditFields,
  BasicEntity,
  EntityInformation,
  EntityTypeInformation,
  EntityTypeReference,
  EntityTypeSettings,
  LinkEndpoint,
  LinkInformation,
  LinkRequestEnd,
  LinkTypeReference,
  RelatedEntityLink,
  RelationshipTypeDetail,
  UserReference,
  ValueItem,
  WorkflowAndStage,
  WorkflowStageInformation,
} from './wire.js';
