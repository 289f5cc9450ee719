/**
 * The ends of a link (`GovernanceLinkEnd`): an `Entity` where the end is a record of the four AI
 * kinds that is not deleted (so the end and the record are one object, with one id), else a
 * `GovernanceLinkedRecord` (a vendor, say, or a deleted record), which the graph cannot read again.
 */
import { recordIds } from '../../graph/node.js';
import type { EntityInformation, LinkEndpoint } from '../model.js';
import { EntityKind, kindOf, typeDisplayName } from './kind.js';
import { EntityAttributeRef, EntityRef, EntityTypeRef, LinkEndRef, LinkedRecordRef, type EntityShape } from './refs.js';

const isEnd = (e: EntityShape): e is LinkEndpoint => 'deleted' in e;

/** Whether a link end is a record the graph reads as an `Entity`. */
export const isEntityEnd = (e: EntityShape) => !(isEnd(e) && e.deleted) && kindOf(e.entityType?.name) !== null;

LinkEndRef.implement({
  description:
    'One end of a link: an `Entity` for the four AI governance kinds, else a `GovernanceLinkedRecord` (records of other kinds, such as vendors, and deleted records).',
  resolveType: (e) => (isEntityEnd(e) ? 'Entity' : 'GovernanceLinkedRecord'),
  fields: (t) => ({
    id: t.id({
      nullable: false,
      description: 'A globally unique, opaque id (that of the `Entity` for the four AI governance kinds).',
      resolve: () => {
        throw new Error('Each link end type resolves its own id.');
      },
    }),
    databaseId: t.id({ nullable: false, description: "The record's uuid.", resolve: (e) => e.id }),
    number: t.int({
      description: "The record's sequence number, when the upstream sends it.",
      resolve: (e) => e.number ?? null,
    }),
    name: t.exposeString('name', { nullable: false, description: "The record's name." }),
    displayLabel: t.string({
      description: "The record's display label, when the upstream sends it.",
      resolve: (e) => (isEnd(e) ? (e.linkEntityDetail?.displayLabel ?? null) : `${e.number} | ${e.name}`),
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
    deleted: t.boolean({
      nullable: false,
      description: 'Whether the record has been deleted.',
      resolve: (e) => isEnd(e) && e.deleted,
    }),
    options: t.field({
      nullable: false,
      type: [EntityAttributeRef],
      description: "The record's option attributes as the link shows them (empty when the upstream sends none).",
      resolve: (e) =>
        Object.entries(
          (isEnd(e) ? e.linkEntityDetail?.extendedBaseAttributes : e.entityDetail.extendedBaseAttributes) ?? {},
        ).map(([name, values]) => ({ name, group: 'extended' as const, values })),
    }),
    entity: t.field({
      type: EntityRef,
      description:
        'The full record, for the four AI governance kinds (this same object); null for other kinds, deleted records and unknown ids.',
      resolve: (e, _a, ctx): Promise<EntityInformation | null> | EntityInformation | null => {
        if (!isEntityEnd(e)) return null;
        return isEnd(e) ? ctx.governance.loaders.entity.load(e.id) : e;
      },
    }),
  }),
});

LinkedRecordRef.implement({
  description:
    'A link end the graph cannot read as an `Entity`: a record of another kind (a vendor, say) or a deleted record.',
  interfaces: [LinkEndRef],
  fields: (t) => ({
    ...recordIds(t, 'GovernanceLinkedRecord', (e) => e.id, "The record's uuid"),
  }),
});
