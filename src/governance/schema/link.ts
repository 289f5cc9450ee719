/**
 * GovernanceLink: a link between two records, read by itself (`link(id, linkTypeId)`, `createLink`)
 * or as an entity's links list it (`Entity.links`). `direction`, `label`, `counterpart` and
 * `relationshipType` depend on the entity it is seen from, so the id says which: a listed link's id
 * holds the listing entity's uuid besides the link's (`node` answers it seen from there), a link read
 * by itself is seen from its first end. What only the link record holds (its schema, attributes,
 * authors) is read by id when a listed link is asked for it.
 */
import { UpstreamError } from '../../core/errors.js';
import { decodeGlobalId } from '../../core/global-id.js';
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import type { Context } from '../../graph/context.js';
import { recordNode } from '../../graph/node.js';
import { UPSTREAM_PAGE_SIZE } from '../../core/pages.js';
import type { LinkEndpoint, LinkInformation } from '../model.js';
import { auditFields } from './common.js';
import { kindOf } from './kind.js';
import { LinkEndRef, LinkRef, LinkTypeRef, RelationshipTypeRef, type LinkRecordShape, type LinkShape } from './refs.js';
import { linkIdArg, LINK_TYPE_IDS, uuidArg, uuidKey } from './validate.js';

const isRecord = (l: LinkShape): l is LinkRecordShape => 'auditFields' in l;
const idOf = (l: LinkShape) => (isRecord(l) ? l.id : l.item.id);
const linkTypeIdOf = (l: LinkShape) => (isRecord(l) ? l.linkType.id : l.item.relationshipTypeDetail.id);
const labels = (l: LinkShape) => (isRecord(l) ? l.linkTypeLabel : l.item.relationshipTypeDetail);
const ends = (l: LinkShape): [LinkEndpoint, LinkEndpoint] =>
  isRecord(l) ? [l.entity1, l.entity2] : [l.item.source, l.item.target];
/** Whether the link points away from the entity it is seen from (its first end, when read by itself). */
const outgoing = (l: LinkShape) => l.parentId === undefined || ends(l)[0].id === l.parentId;
const seenFrom = (l: LinkShape) => ends(l)[outgoing(l) ? 0 : 1];
const counterpartOf = (l: LinkShape) => ends(l)[outgoing(l) ? 1 : 0];

/** The link record, read by id when the link came in an entity's list. */
async function record(l: LinkShape, ctx: Context): Promise<LinkInformation> {
  if (isRecord(l)) return l;
  const read = await ctx.governance.client.getLink(l.item.id, l.item.relationshipTypeDetail.id);
  if (!read) throw new UpstreamError('governance', 'not-found', 'The link no longer exists.');
  return read;
}

/**
 * A listed link's relationship type. A link record lacks it: seen from an entity, it is found among
 * that entity's links to records of the other end's name (one page; null when the link is not on it).
 */
async function relationshipTypeOf(l: LinkShape, ctx: Context) {
  if (!isRecord(l)) return l.item.relationshipTypeDetail;
  const typeName = kindOf(seenFrom(l).entityType?.name);
  if (l.parentId === undefined || !typeName) return null;
  const page = await ctx.governance.loaders.linksPage.load({
    typeName,
    entityId: l.parentId,
    criteria: { fullText: counterpartOf(l).name.slice(0, 500) },
    page: { page: 0, size: UPSTREAM_PAGE_SIZE, sort: 'id,desc', kind: 'page' },
  });
  return page?.content.find((item) => item.id === l.id)?.relationshipTypeDetail ?? null;
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
    'A link between two records, of a given link type. `direction`, `label`, `counterpart` and `relationshipType` see it from the entity whose `links` listed it (from `entity1` when it was read by itself); the id says which, so the same link listed by its two ends has two ids.',
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
        "The type of the relationship, with its labels; its id is the `linkTypeId` of the link. Null for a link read by itself (`link`, `createLink`): read `linkType` there. `node` of a listed link's id finds it among the links of the entity that listed it (null in the rare case that one upstream page of its links to records of the other end's name lacks it).",
      resolve: (l, _a, ctx) => relationshipTypeOf(l, ctx),
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
      resolve: counterpartOf,
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

/** A link as the entity `parentId` lists it (null when that is not one of its ends); as read without one. */
function seenFromEnd<L extends LinkInformation>(link: L | null, parentId: string | undefined) {
  if (!link || parentId === undefined) return link;
  const end = [link.entity1.id, link.entity2.id].find((e) => e.toLowerCase() === parentId);
  return end === undefined ? null : { ...link, parentId: end };
}

/** The entity a listed link's global id names as the end it was seen from, if it is one. */
function listedFrom(id: string | number): string | undefined {
  const global = decodeGlobalId(String(id));
  const parentId = global?.type === 'GovernanceLink' ? global.id.split(':')[2] : undefined;
  return parentId === undefined ? undefined : uuidKey(parentId) || undefined;
}

recordNode(LinkRef, {
  permission: 'governance:read',
  key: (l) => [idOf(l), linkTypeIdOf(l), ...(l.parentId === undefined ? [] : [l.parentId])].join(':'),
  databaseId: idOf,
  // `<link uuid>:<link type uuid>` (the upstream reads a link by both), then, for a listed link,
  // `:<uuid of the entity that listed it>`.
  parse: (key) => {
    const parts = key.split(':').map(uuidKey);
    return (parts.length === 2 || parts.length === 3) && parts.every(Boolean) ? parts.join(':') : '';
  },
  load: (keys, ctx) =>
    Promise.all(
      keys.map(async (key) => {
        const [id, linkTypeId, parentId] = key.split(':') as [string, string, string?];
        return seenFromEnd(await ctx.governance.client.getLink(id, linkTypeId), parentId);
      }),
    ),
  what: "The link's uuid",
});

builder.queryField('link', (t) =>
  t.field({
    ...requires('governance:read'),
    type: LinkRef,
    description:
      "One link by its id (global or uuid) and its link type's id (the upstream needs both); null when there is no such link. The id of a link as an entity's `links` listed it answers that view of it (the same id, `direction`, `label` and `counterpart`).",
    args: {
      id: t.arg.id({ required: true, description: "The link's id, or its uuid (`databaseId`)." }),
      linkTypeId: t.arg.id({
        required: true,
        description: "The id of the link's type (a relationship type's `id` or `databaseId`).",
      }),
    },
    // A listed link's id answers that listing's view of it, with the same id.
    resolve: async (_root, args, ctx) =>
      seenFromEnd(
        await ctx.governance.client.getLink(
          linkIdArg(args.id, 'id'),
          uuidArg(args.linkTypeId, 'linkTypeId', LINK_TYPE_IDS),
        ),
        listedFrom(args.id),
      ),
  }),
);
