/**
 * `Entity.links`: the records an entity is linked to, one upstream page per request and entity
 * (through the links-page loader), each item a `GovernanceLink` seen from the entity it was listed
 * for: `label` reads the relationship from that side and `counterpart` is the other end (link.ts). `counterpartKinds` is a filter
 * the gateway completes itself (the upstream cannot filter links by kind).
 */
import { builder } from '../../graph/builder.js';
import { badInput } from '../../graph/errors.js';
import type { PageRequest } from '../client.js';
import { EntityKind, kindOf } from './kind.js';
import { EntityRef, LinkRef, type EntityLinkShape } from './refs.js';
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

const counterpart = (l: EntityLinkShape) => (l.item.source.id === l.parentId ? l.item.target : l.item.source);

builder.objectField(EntityRef, 'links', (t) =>
  t.connection(
    {
      type: LinkRef,
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
