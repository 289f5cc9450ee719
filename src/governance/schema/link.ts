/**
 * GovernanceLink: a link between two records, read by itself (`link(id, linkTypeId)`, `createLink`)
 * or as an entity's links list it (`Entity.links`). Both are one object with one id; the fields
 * `direction`, `label` and `counterpart` read it from the entity whose links listed it, and from its
 * first end when it was read by itself. What only the link record holds (its schema, attributes,
 * authors) is read by id when a listed link is asked for it.
 */
import { UpstreamError } from '../../core/errors.js';
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import type { Context } from '../../graph/context.js';
import { recordNode } from '../../graph/node.js';
import type { LinkEndpoint, LinkInformation } from '../model.js';
import { auditFields } from './common.js';
import { LinkEndRef, LinkRef, LinkTypeRef, RelationshipTypeRef, type LinkShape } from './refs.js';
import { linkIdArg, LINK_TYPE_IDS, uuidArg, uuidKey } from './validate.js';

const isRecord = (l: LinkShape): l is LinkInformation => 'auditFields' in l;
const idOf = (l: LinkShape) => (isRecord(l) ? l.id : l.item.id);
const linkTypeIdOf = (l: LinkShape) => (isRecord(l) ? l.linkType.id : l.item.relationshipTypeDetail.id);
const labels = (l: LinkShape) => (isRecord(l) ? l.linkTypeLabel : l.item.relationshipTypeDetail);
const ends = (l: LinkShape): [LinkEndpoint, LinkEndpoint] =>
  isRecord(l) ? [l.entity1, l.entity2] : [l.item.source, l.item.target];
/** Whether the link points away from the entity it is seen from (its first end, when read by itself). */
const outgoing = (l: LinkShape) => isRecord(l) || l.item.source.id === l.parentId;

/** The link record, read by id when the link came in an entity's list. */
async function record(l: LinkShape, ctx: Context): Promise<LinkInformation> {
  if (isRecord(l)) return l;
  const read = await ctx.governance.client.getLink(l.item.id, l.item.relationshipTypeDetail.id);
  if (!read) throw new UpstreamError('governance', 'not-found', 'The link no longer exists.');
  return read;
}

const LinkDirection = builder.enumType('EntityLinkDirection', {
  description: 'Which way a link points, seen from the entity it was listed for.',
  values: {
    OUTGOING: { description: "The entity is the link's source (its first end)." },
    INCOMING: { description: "The entity is the link's target (its second end)." },
  } as const,
});

LinkRef.implement({
  description:
    'A link between two records, of a given link type. `direction`, `label` and `counterpart` see it from the entity whose `links` listed it (from `entity1` when it was read by itself).',
  fields: (t) => ({
    linkType: t.field({
      nullable: false,
      type: LinkTypeRef,
      description: "The link's type.",
      resolve: (l) => (isRecord(l) ? l.linkType : l.item.relationshipTypeDetail),
    }),
    relationshipType: t.field({
      type: RelationshipTypeRef,
      description:
        'The type of the relationship, with its labels; its id is the `linkTypeId` of the link. Null for a link read by itself (`link`, `createLink`): read `linkType` there.',
      resolve: (l) => (isRecord(l) ? null : l.item.relationshipTypeDetail),
    }),
    forwardLabel: t.string({
      nullable: false,
      description: 'The label read from `entity1` to `entity2`, e.g. `is composed of`.',
      resolve: (l) => labels(l).entityType1ToEntityType2EntityLinkName,
    }),
    reverseLabel: t.string({
      nullable: false,
      description: 'The label read from `entity2` to `entity1`, e.g. `is a component of`.',
      resolve: (l) => labels(l).entityType2ToEntityType1EntityLinkName,
    }),
    forwardLabelKey: t.string({
      description: 'The localisation key of the forward label.',
      resolve: (l) => labels(l).entityType1ToEntityType2EntityLinkNameKey ?? null,
    }),
    reverseLabelKey: t.string({
      description: 'The localisation key of the reverse label.',
      resolve: (l) => labels(l).entityType2ToEntityType1EntityLinkNameKey ?? null,
    }),
    direction: t.field({
      nullable: false,
      type: LinkDirection,
      description: "Whether the entity the link is seen from is the link's source or its target.",
      resolve: (l) => (outgoing(l) ? 'OUTGOING' : 'INCOMING'),
    }),
    label: t.string({
      nullable: false,
      description:
        'The relationship read from the side it is seen from, e.g. `is composed of` from a system, `is a component of` from its part.',
      resolve: (l) =>
        outgoing(l)
          ? labels(l).entityType1ToEntityType2EntityLinkName
          : labels(l).entityType2ToEntityType1EntityLinkName,
    }),
    entity1: t.field({
      nullable: false,
      type: LinkEndRef,
      description: 'The first end of the link.',
      resolve: (l) => ends(l)[0],
    }),
    entity2: t.field({
      nullable: false,
      type: LinkEndRef,
      description: 'The second end of the link.',
      resolve: (l) => ends(l)[1],
    }),
    source: t.field({
      nullable: false,
      type: LinkEndRef,
      description: "The link's first end (`entity1`).",
      resolve: (l) => ends(l)[0],
    }),
    target: t.field({
      nullable: false,
      type: LinkEndRef,
      description: "The link's second end (`entity2`).",
      resolve: (l) => ends(l)[1],
    }),
    counterpart: t.field({
      nullable: false,
      type: LinkEndRef,
      description:
        'The other end of the link, seen from the entity whose links listed it (`entity2` when read by itself).',
      resolve: (l) => ends(l)[outgoing(l) ? 1 : 0],
    }),
    schemaId: t.id({
      nullable: false,
      description: "The uuid of the schema of the link's attributes.",
      resolve: async (l, _a, ctx) => (await record(l, ctx)).schemaId,
    }),
    attributes: t.field({
      type: 'JSONObject',
      description: "The link's own attributes, as the upstream sends them.",
      resolve: async (l, _a, ctx) => (await record(l, ctx)).entityLinkDetail,
    }),
    ...auditFields(t, 'the link', async (l, ctx, users) => {
      if (isRecord(l)) return l.auditFields;
      const dates = { createdDate: l.item.createdDate, lastUpdatedDate: l.item.lastUpdatedDate };
      return users ? { ...(await record(l, ctx)).auditFields, ...dates } : dates;
    }),
  }),
});

recordNode(LinkRef, {
  permission: 'governance:read',
  key: (l) => `${idOf(l)}:${linkTypeIdOf(l)}`,
  databaseId: idOf,
  // `<link uuid>:<link type uuid>`: the upstream reads a link by both.
  parse: (key) => {
    const [id = '', linkTypeId = ''] = key.split(':');
    return uuidKey(id) && uuidKey(linkTypeId) ? `${uuidKey(id)}:${uuidKey(linkTypeId)}` : '';
  },
  load: (keys, ctx) =>
    Promise.all(
      keys.map((key) => {
        const [id, linkTypeId] = key.split(':') as [string, string];
        return ctx.governance.client.getLink(id, linkTypeId);
      }),
    ),
  what: "The link's uuid",
});

builder.queryField('link', (t) =>
  t.field({
    ...requires('governance:read'),
    type: LinkRef,
    description:
      "One link by its id (global or uuid) and its link type's id (the upstream needs both); null when there is no such link.",
    args: {
      id: t.arg.id({ required: true, description: "The link's id, or its uuid (`databaseId`)." }),
      linkTypeId: t.arg.id({
        required: true,
        description: "The id of the link's type (a relationship type's `id` or `databaseId`).",
      }),
    },
    resolve: (_root, args, ctx) =>
      ctx.governance.client.getLink(linkIdArg(args.id, 'id'), uuidArg(args.linkTypeId, 'linkTypeId', LINK_TYPE_IDS)),
  }),
);
