/**
 * `Entity.links`: the records an entity is linked to, one upstream page per request and entity
 * (through the links-page loader), each item seen from the entity it was listed for: `label` reads
 * the relationship from that side and `counterpart` is the other end. `counterpartKinds` is a filter
 * the gateway completes itself (the upstream cannot filter links by kind).
 */
import { builder } from '../../graph/builder.js';
import { badInput } from '../../graph/errors.js';
import type { PageRequest } from '../client.js';
import { EntityKind, kindOf } from './kind.js';
import { EntityLinkRef, EntityRef, LinkEndRef, RelationshipTypeRef, type EntityLinkShape } from './refs.js';
import { connectionTypes, governanceList } from './validate.js';

const LinkOrder = builder.enumType('EntityLinkOrder', {
  description: "The order of an entity's links.",
  values: {
    ID_DESC: { value: 'id,desc', description: "By link id, descending (the upstream's default)." },
    ID_ASC: { value: 'id,asc', description: 'By link id, ascending.' },
    NEWEST_FIRST: {
      value: 'id,desc',
      description: 'By link id, descending.',
      deprecationReason: 'Use ID_DESC: the graph spells every order FIELD_DIRECTION.',
    },
    OLDEST_FIRST: {
      value: 'id,asc',
      description: 'By link id, ascending.',
      deprecationReason: 'Use ID_ASC: the graph spells every order FIELD_DIRECTION.',
    },
  } as const,
});

const LinkDirection = builder.enumType('EntityLinkDirection', {
  description: 'Which way a link points, seen from the entity it was listed for.',
  values: {
    OUTGOING: { description: "The entity is the link's source (its first end)." },
    INCOMING: { description: "The entity is the link's target (its second end)." },
  } as const,
});

const outgoing = (l: EntityLinkShape) => l.item.source.id === l.parentId;
const counterpart = (l: EntityLinkShape) => (outgoing(l) ? l.item.target : l.item.source);

EntityLinkRef.implement({
  description: 'A link of an entity, seen from that entity.',
  fields: (t) => ({
    id: t.id({ nullable: false, description: "The link's uuid.", resolve: (l) => l.item.id }),
    direction: t.field({
      nullable: false,
      type: LinkDirection,
      description: "Whether the entity is the link's source or its target.",
      resolve: (l) => (outgoing(l) ? 'OUTGOING' : 'INCOMING'),
    }),
    label: t.string({
      nullable: false,
      description:
        "The relationship read from the entity's side, e.g. `is composed of` from a system, `is a component of` from its part.",
      resolve: (l) =>
        outgoing(l)
          ? l.item.relationshipTypeDetail.entityType1ToEntityType2EntityLinkName
          : l.item.relationshipTypeDetail.entityType2ToEntityType1EntityLinkName,
    }),
    relationshipType: t.field({
      nullable: false,
      type: RelationshipTypeRef,
      description: 'The type of the relationship; its id is the `linkTypeId` of the link.',
      resolve: (l) => l.item.relationshipTypeDetail,
    }),
    source: t.field({
      nullable: false,
      type: LinkEndRef,
      description: "The link's first end.",
      resolve: (l) => l.item.source,
    }),
    target: t.field({
      nullable: false,
      type: LinkEndRef,
      description: "The link's second end.",
      resolve: (l) => l.item.target,
    }),
    counterpart: t.field({
      nullable: false,
      type: LinkEndRef,
      description: 'The other end of the link, seen from the entity.',
      resolve: counterpart,
    }),
    createdAt: t.field({
      nullable: false,
      type: 'DateTime',
      description: 'When the link was created.',
      resolve: (l) => l.item.createdDate,
    }),
    updatedAt: t.field({
      nullable: false,
      type: 'DateTime',
      description: 'When the link was last changed.',
      resolve: (l) => l.item.lastUpdatedDate,
    }),
  }),
});

builder.objectField(EntityRef, 'links', (t) =>
  t.connection(
    {
      type: EntityLinkRef,
      description:
        'The records this entity is linked to (models, datasets, AI systems, agents and records of other kinds such as vendors).',
      args: {
        search: t.arg.string({ description: 'Full-text search over the linked records (at most 500 characters).' }),
        orderBy: t.arg({ type: LinkOrder, defaultValue: 'id,desc', description: 'The order of the links.' }),
        counterpartKinds: t.arg({
          type: [EntityKind],
          description:
            "Only links whose other end (`counterpart`) is of one of these kinds, e.g. `[DATASET, MODEL]`; records of other kinds (vendors) drop out. The upstream cannot filter by kind, so the gateway reads the entity's links in pages of 50 and keeps the matching ones: a page of `first` reads at most ceil(first / 50) + 1 upstream pages (the estimate counts them all) and stops once it has seen a match beyond the page or the end of the links; `hasNextPage` is true when it saw such a match or stopped at its most pages before the end (the rest unread: the next page may then be empty); `totalCount` is null unless that covered all the links; `last`/`before` are refused.",
        }),
      },
      resolve: (entity, args, { governance: scope }) => {
        const typeName = kindOf(entity.entityType?.name);
        const criteria = { fullText: args.search ?? '' };
        if (args.counterpartKinds?.length === 0)
          throw badInput(
            '"counterpartKinds" takes at least one kind; leave it out for every kind.',
            'counterpartKinds',
          );
        const page = async (page: PageRequest) => {
          if (!typeName) return null;
          const sort = args.orderBy ?? 'id,desc';
          const res = await scope.loaders.linksPage.load({
            typeName,
            entityId: entity.id,
            criteria,
            page: { ...page, sort },
          });
          return res && { ...res, content: res.content.map((item) => ({ item, parentId: entity.id })) };
        };
        const kinds: readonly string[] | null | undefined = args.counterpartKinds;
        const filter = kinds
          ? {
              costField: 'Entity.links',
              argument: 'counterpartKinds',
              keep: (l: EntityLinkShape) => kinds.includes(counterpart(l).entityType?.name ?? ''),
            }
          : undefined;
        return governanceList(scope, `links:${entity.id}`, args, page, { defaultPageSize: 10, filter });
      },
    },
    ...connectionTypes('EntityLink', "A page of an entity's links.", 'A link in a page, with its cursor.'),
  ),
);
