/**
 * The types of links: the link type a link names (`GovernanceLinkType`) and the relationship types
 * an entity's links carry (`RelationshipType`), both known by the `linkTypeId`.
 */
import { recordIds } from '../../graph/node.js';
import { LinkTypeRef, RelationshipTypeRef } from './refs.js';

LinkTypeRef.implement({
  description: 'The type of a link, as a link record names it.',
  fields: (t) => ({
    ...recordIds(
      t,
      'GovernanceLinkType',
      (l) => l.id,
      "The link type's uuid (the `linkTypeId` that reading or deleting the link takes)",
    ),
    name: t.exposeString('name', {
      nullable: false,
      description: "The link type's name, e.g. `ai-system-composition`.",
    }),
    nameKey: t.exposeString('nameKey', { description: 'The localisation key of the name.' }),
  }),
});

RelationshipTypeRef.implement({
  description: 'A type of relationship between records, with its labels read in both directions.',
  fields: (t) => ({
    ...recordIds(t, 'RelationshipType', (r) => r.id, "The relationship type's uuid (the `linkTypeId` of its links)"),
    name: t.exposeString('name', {
      nullable: false,
      description: "The relationship type's name, e.g. `ai-system-composition`.",
    }),
    nameKey: t.exposeString('nameKey', { nullable: false, description: 'The localisation key of the name.' }),
    description: t.exposeString('description', { nullable: false, description: 'What the relationship means.' }),
    seeded: t.exposeBoolean('seeded', { nullable: false, description: 'Whether the type is built into the platform.' }),
    moduleName: t.exposeString('moduleName', {
      nullable: false,
      description: 'The platform module that owns the type.',
    }),
    schemaName: t.exposeString('schemaName', { nullable: false, description: 'The schema the type belongs to.' }),
    forwardLabel: t.exposeString('entityType1ToEntityType2EntityLinkName', {
      nullable: false,
      description: 'The label read from the first end to the second, e.g. `is composed of`.',
    }),
    reverseLabel: t.exposeString('entityType2ToEntityType1EntityLinkName', {
      nullable: false,
      description: 'The label read from the second end to the first, e.g. `is a component of`.',
    }),
    descriptionKey: t.exposeString('descriptionKey', { description: 'The localisation key of the description.' }),
    forwardLabelKey: t.exposeString('entityType1ToEntityType2EntityLinkNameKey', {
      description: 'The localisation key of the forward label.',
    }),
    reverseLabelKey: t.exposeString('entityType2ToEntityType1EntityLinkNameKey', {
      description: 'The localisation key of the reverse label.',
    }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When the relationship type was created.',
      resolve: (r) => r.auditFields?.createdDate ?? null,
    }),
    updatedAt: t.field({
      type: 'DateTime',
      description: 'When the relationship type was last changed.',
      resolve: (r) => r.auditFields?.lastUpdatedDate ?? null,
    }),
    enableAudit: t.exposeBoolean('enableAudit', {
      nullable: false,
      description: 'Whether changes to links of this type are audited.',
    }),
    allowNewCustomLinkAssociation: t.exposeBoolean('allowNewCustomLinkAssociation', {
      nullable: false,
      description: 'Whether tenants may allow this type between further kinds of record.',
    }),
  }),
});
