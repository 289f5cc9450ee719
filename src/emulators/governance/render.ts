/**
 * Records → wire shapes (see `../wire.ts`), in the field order the platform's examples use. Every
 * shape is serialised as soon as it is built (`c.json`), so it shares the record's nested values
 * instead of copying them: copies were half of an entities page's cost.
 */
import type {
  BasicEntity,
  EntityInformation,
  EntityTypeInformation,
  EntityTypeReference,
  LinkEndpoint,
  LinkInformation,
  RelatedEntityLink,
  WorkflowStageInformation,
} from '../../governance/wire.js';
import type { EntityRecord, EntityTypeRecord, LinkRecord, LinkTypeRecord, StageRecord } from './records.js';

function typeReference(type: EntityTypeRecord): EntityTypeReference {
  return {
    id: type.id,
    name: type.name,
    nameKey: type.nameKey,
    seeded: type.seeded,
    moduleName: type.moduleName,
    schemaName: type.name,
  };
}

export const displayLabel = (e: EntityRecord) => `${e.number} | ${e.name}`;

export function renderEntity(e: EntityRecord, type: EntityTypeRecord): EntityInformation {
  const stage = type.workflow?.stages.find((s) => s.id === e.stageId);
  const entityDetail: EntityInformation['entityDetail'] = {};
  if (Object.keys(e.options).length > 0) entityDetail.extendedBaseAttributes = e.options;
  for (const [field, values] of Object.entries(e.text)) entityDetail[field] = values;
  return {
    id: e.id,
    number: e.number,
    name: e.name,
    orgGroupId: e.orgGroupId,
    schemaId: type.schemaId,
    entityType: typeReference(type),
    workflowAndStage:
      type.workflow && stage
        ? {
            id: type.workflow.id,
            name: type.workflow.name,
            nameKey: type.workflow.nameKey,
            type: type.workflow.type,
            workflowMode: 'BASIC',
            stageId: stage.id,
            stageName: stage.name,
            stageNameKey: stage.nameKey,
            badgeColor: stage.badgeColor,
          }
        : null,
    entityDetail,
    attributes: e.custom,
    auditFields: {
      createdDate: e.createdDate,
      lastUpdatedDate: e.lastUpdatedDate,
      createdBy: { ...e.createdBy },
      lastModifiedBy: { ...e.lastModifiedBy },
    },
  };
}

export function renderBasicEntity(e: EntityRecord, type: EntityTypeRecord): BasicEntity {
  return {
    displayLabel: displayLabel(e),
    entityType: typeReference(type),
    id: e.id,
    name: e.name,
    number: e.number,
    orgGroupId: e.orgGroupId,
    schemaId: type.schemaId,
  };
}

export function renderEntityType(t: EntityTypeRecord): EntityTypeInformation {
  const workflow = t.workflow !== null;
  return {
    ...typeReference(t),
    description: t.description,
    descriptionKey: t.descriptionKey,
    workflowType: t.workflow?.type ?? null,
    enabled: t.enabled,
    moduleScopes: [...t.moduleScopes],
    settings: {
      enableWorkflow: workflow,
      enableWorkflowStageTracking: workflow,
      enableAudit: true,
      assessable: true,
      enableTask: true,
      enableRisk: true,
      enableDocument: true,
      enableControl: true,
      enableWebForm: false,
      enableComment: true,
    },
    auditFields: { createdDate: t.createdDate, lastUpdatedDate: t.lastUpdatedDate },
  };
}

/** A link end; `detailed` fills number and linkEntityDetail as the related-entities page does. */
function renderEndpoint(e: EntityRecord, type: EntityTypeRecord, detailed: boolean): LinkEndpoint {
  return {
    linkEntityDetail: detailed ? { extendedBaseAttributes: e.options, displayLabel: e.name } : null,
    id: e.id,
    number: detailed ? e.number : null,
    name: e.name,
    entityType: typeReference(type),
    deleted: e.deleted,
  };
}

type Resolve = (entityId: string) => { entity: EntityRecord; type: EntityTypeRecord };

export function renderLink(link: LinkRecord, linkType: LinkTypeRecord, resolve: Resolve): LinkInformation {
  const one = resolve(link.entity1Id);
  const two = resolve(link.entity2Id);
  return {
    id: link.id,
    linkType: { id: linkType.id, name: linkType.name, nameKey: linkType.nameKey, idOrNamePresent: true },
    linkTypeLabel: {
      id: linkType.labelId,
      entityType1ToEntityType2EntityLinkName: linkType.forward,
      entityType1ToEntityType2EntityLinkNameKey: linkType.forwardKey,
      entityType2ToEntityType1EntityLinkName: linkType.backward,
      entityType2ToEntityType1EntityLinkNameKey: linkType.backwardKey,
    },
    entity1: renderEndpoint(one.entity, one.type, false),
    entity2: renderEndpoint(two.entity, two.type, false),
    schemaId: linkType.schemaId,
    entityLinkDetail: null,
    auditFields: {
      createdDate: link.createdDate,
      lastUpdatedDate: link.lastUpdatedDate,
      createdBy: { ...link.createdBy },
      lastModifiedBy: { ...link.createdBy },
    },
  };
}

export function renderRelated(link: LinkRecord, linkType: LinkTypeRecord, resolve: Resolve): RelatedEntityLink {
  const source = resolve(link.entity1Id);
  const target = resolve(link.entity2Id);
  return {
    createdDate: link.createdDate,
    id: link.id,
    lastUpdatedDate: link.lastUpdatedDate,
    relationshipTypeDetail: {
      id: linkType.id,
      name: linkType.name,
      nameKey: linkType.nameKey,
      schemaName: linkType.name,
      seeded: linkType.seeded,
      moduleName: linkType.moduleName,
      description: linkType.description,
      descriptionKey: linkType.descriptionKey,
      entityType1ToEntityType2EntityLinkName: linkType.forward,
      entityType1ToEntityType2EntityLinkNameKey: linkType.forwardKey,
      entityType2ToEntityType1EntityLinkName: linkType.backward,
      entityType2ToEntityType1EntityLinkNameKey: linkType.backwardKey,
      enableAudit: true,
      allowNewCustomLinkAssociation: true,
      auditFields: { createdDate: linkType.createdDate, lastUpdatedDate: linkType.createdDate },
    },
    source: renderEndpoint(source.entity, source.type, true),
    target: renderEndpoint(target.entity, target.type, true),
  };
}

export function renderStage(stage: StageRecord): WorkflowStageInformation {
  return {
    id: stage.id,
    name: stage.name,
    nameKey: stage.nameKey,
    description: null,
    descriptionKey: null,
    sequence: stage.sequence,
    allowDeletion: stage.sequence !== 1,
    badgeColor: stage.badgeColor,
    approvalStage: stage.name === 'Approved',
    exceptionStage: false,
    autoAdvanceOnApproval: false,
    customFields: {},
    stageApprovers: [],
    additionalFields: {},
    advanceStageActionEnabled: false,
    advanceStageActions: [],
    stageExceptionConfiguration: {
      stageExceptionApprovers: [],
      exceptionGrantedTargetStageId: null,
      workflowExceptionApprovalRequiredFromAll: false,
    },
  };
}
