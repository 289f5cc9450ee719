/**
 * Links between records: the link record (`Link`, from `link(id, linkTypeId)` and `createLink`),
 * its ends (`LinkEnd`), and the types of relationship. A link end that is one of the four AI kinds
 * leads to the full record through the request's entity loader; other kinds (vendors) have none.
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import type { Context } from '../../graph/context.js';
import type { LinkEndpoint } from '../model.js';
import { auditFields } from './common.js';
import { EntityKind, kindOf, typeDisplayName } from './kind.js';
import {
  EntityAttributeRef,
  EntityRef,
  EntityTypeRef,
  LinkEndRef,
  LinkRef,
  LinkTypeRef,
  RelationshipTypeRef,
} from './refs.js';
import { uuidArg } from './validate.js';

LinkTypeRef.implement({
  description: 'The type of a link, as a link record names it.',
  fields: (t) => ({
    id: t.exposeID('id', {
      nullable: false,
      description: "The link type's uuid (the `linkTypeId` that reading or deleting the link takes).",
    }),
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
    id: t.exposeID('id', {
      nullable: false,
      description: "The relationship type's uuid (the `linkTypeId` of its links).",
    }),
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

/** The full record behind a link end: only the four AI kinds have one, and a deleted record has none. */
function endEntity(end: LinkEndpoint, ctx: Context) {
  if (end.deleted || !kindOf(end.entityType?.name)) return null;
  return ctx.governance.loaders.entity.load(end.id);
}

LinkEndRef.implement({
  description:
    'One end of a link: a record as the link shows it, which may be of a kind outside AI governance (a vendor, say).',
  fields: (t) => ({
    id: t.exposeID('id', { nullable: false, description: "The record's uuid." }),
    number: t.exposeInt('number', { description: "The record's sequence number, when the upstream sends it." }),
    name: t.exposeString('name', { nullable: false, description: "The record's name." }),
    displayLabel: t.string({
      description: "The record's display label, when the upstream sends it.",
      resolve: (e) => e.linkEntityDetail?.displayLabel ?? null,
    }),
    typeName: t.string({
      nullable: false,
      description:
        "The name of the record's entity type, e.g. `models` or `vendors` (a key, not for display: see `typeDisplayName`).",
      resolve: (e) => e.entityType.name,
    }),
    typeDisplayName: t.string({
      nullable: false,
      description: "A human name of the record's entity type, e.g. `AI System` or `Vendor`.",
      resolve: (e) => typeDisplayName(e.entityType.name),
    }),
    type: t.expose('entityType', { nullable: false, type: EntityTypeRef, description: "The record's entity type." }),
    kind: t.field({
      type: EntityKind,
      description: 'The AI governance kind of the record; null for records of other kinds.',
      resolve: (e) => kindOf(e.entityType?.name),
    }),
    deleted: t.exposeBoolean('deleted', { nullable: false, description: 'Whether the record has been deleted.' }),
    options: t.field({
      nullable: false,
      type: [EntityAttributeRef],
      description: "The record's option attributes as the link shows them (empty when the upstream sends none).",
      resolve: (e) =>
        Object.entries(e.linkEntityDetail?.extendedBaseAttributes ?? {}).map(([name, values]) => ({
          name,
          group: 'extended' as const,
          values: values,
        })),
    }),
    entity: t.field({
      type: EntityRef,
      description:
        'The full record, for the four AI governance kinds; null for other kinds, deleted records and unknown ids.',
      resolve: (e, _a, ctx) => endEntity(e, ctx),
    }),
  }),
});

LinkRef.implement({
  description: 'A link between two records, of a given link type.',
  fields: (t) => ({
    id: t.exposeID('id', { nullable: false, description: "The link's uuid." }),
    linkType: t.expose('linkType', { nullable: false, type: LinkTypeRef, description: "The link's type." }),
    forwardLabel: t.string({
      nullable: false,
      description: 'The label read from `entity1` to `entity2`, e.g. `is composed of`.',
      resolve: (l) => l.linkTypeLabel.entityType1ToEntityType2EntityLinkName,
    }),
    reverseLabel: t.string({
      nullable: false,
      description: 'The label read from `entity2` to `entity1`, e.g. `is a component of`.',
      resolve: (l) => l.linkTypeLabel.entityType2ToEntityType1EntityLinkName,
    }),
    forwardLabelKey: t.string({
      description: 'The localisation key of the forward label.',
      resolve: (l) => l.linkTypeLabel.entityType1ToEntityType2EntityLinkNameKey ?? null,
    }),
    reverseLabelKey: t.string({
      description: 'The localisation key of the reverse label.',
      resolve: (l) => l.linkTypeLabel.entityType2ToEntityType1EntityLinkNameKey ?? null,
    }),
    entity1: t.expose('entity1', { nullable: false, type: LinkEndRef, description: 'The first end of the link.' }),
    entity2: t.expose('entity2', { nullable: false, type: LinkEndRef, description: 'The second end of the link.' }),
    schemaId: t.exposeID('schemaId', {
      nullable: false,
      description: "The uuid of the schema of the link's attributes.",
    }),
    attributes: t.expose('entityLinkDetail', {
      type: 'JSONObject',
      description: "The link's own attributes, as the upstream sends them.",
    }),
    ...auditFields(t, 'the link'),
  }),
});

builder.queryField('link', (t) =>
  t.field({
    ...requires('governance:read'),
    type: LinkRef,
    description:
      "One link by its uuid and its link type's uuid (the upstream needs both); null when there is no such link.",
    args: {
      id: t.arg.id({ required: true, description: "The link's uuid." }),
      linkTypeId: t.arg.id({ required: true, description: "The uuid of the link's type (a relationship type id)." }),
    },
    resolve: (_root, args, ctx) =>
      ctx.governance.client.getLink(uuidArg(args.id, 'id'), uuidArg(args.linkTypeId, 'linkTypeId')),
  }),
);
