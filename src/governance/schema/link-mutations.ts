/**
 * Writes to links: create and delete. The upstream wants each end's entity type name; the caller may
 * give it, or for the AI kinds it is read from the record (through the request's entity loader).
 */
import { builder } from '../../graph/builder.js';
import { badInput } from '../../graph/errors.js';
import type { Context } from '../../graph/context.js';
import { Tags } from '../client.js';
import type { LinkRequestEnd } from '../wire.js';
import { EntityKind } from './kind.js';
import { LinkRef } from './refs.js';
import { nonEmptyArg, uuidArg } from './validate.js';

const LinkEndInput = builder.inputType('GovernanceLinkEndInput', {
  description: 'One end of a new link: a record and, optionally, its kind or type name.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The record\'s uuid.' }),
    kind: t.field({ type: EntityKind, description: 'The record\'s kind; looked up when omitted.' }),
    typeName: t.string({ description: 'The record\'s entity type name, for records outside AI governance such as `vendors`.' }),
  }),
});

const CreateLinkInput = builder.inputType('CreateGovernanceLinkInput', {
  description: 'A new link between two records.',
  fields: (t) => ({
    linkTypeId: t.id({ required: true, description: 'The uuid of the link type (a relationship type id).' }),
    entity1: t.field({ type: LinkEndInput, required: true, description: 'The first end (the source).' }),
    entity2: t.field({ type: LinkEndInput, required: true, description: 'The second end (the target).' }),
    attributes: t.field({ type: 'JSONObject', description: 'The link\'s own attributes, passed to the upstream as they are.' }),
  }),
});

const DeleteLinkPayload = builder.objectRef<{ deletedId: string }>('DeleteGovernanceLinkPayload').implement({
  description: 'The result of deleting a link.',
  fields: (t) => ({ deletedId: t.exposeID('deletedId', { nullable: false, description: 'The uuid of the link that was deleted.' }) }),
});

type EndArg = { id: string | number; kind?: string | null; typeName?: string | null };

function checkEnd(end: EndArg, argument: string): { id: string; typeName?: string } {
  const id = uuidArg(end.id, `${argument}.id`);
  const typeName = end.kind ?? (end.typeName != null ? nonEmptyArg(end.typeName, `${argument}.typeName`) : undefined);
  return { id, typeName };
}

async function resolveEnd(end: { id: string; typeName?: string }, argument: string, ctx: Context): Promise<LinkRequestEnd> {
  if (end.typeName) return { id: end.id, entityType: { name: end.typeName } };
  const entity = await ctx.governance.loaders.entity.load(end.id);
  if (!entity) throw badInput(`No AI governance record has the id in "${argument}.id"; give "typeName" for records of other kinds.`, `${argument}.id`);
  return { id: end.id, entityType: { name: entity.entityType.name } };
}

builder.mutationFields((t) => ({
  createLink: t.field({
    type: LinkRef,
    description: 'Links two records with a link type and returns the new link.',
    args: { input: t.arg({ type: CreateLinkInput, required: true, description: 'The link to create.' }) },
    resolve: async (_root, { input }, ctx) => {
      const linkTypeId = uuidArg(input.linkTypeId, 'input.linkTypeId');
      const ends = [checkEnd(input.entity1, 'input.entity1'), checkEnd(input.entity2, 'input.entity2')] as const;
      const [entity1, entity2] = await Promise.all([resolveEnd(ends[0], 'input.entity1', ctx), resolveEnd(ends[1], 'input.entity2', ctx)]);
      const { client } = ctx.governance;
      const link = await client.createLink(linkTypeId, { entity1, entity2, attributes: input.attributes ?? null, context: null });
      client.invalidate([Tags.links(entity1.id), Tags.links(entity2.id)]);
      return link;
    },
  }),
  deleteLink: t.field({
    type: DeleteLinkPayload,
    nullable: true,
    description: 'Deletes a link (needs the full AI_GOVERNANCE scope); null when there is no such link.',
    args: {
      id: t.arg.id({ required: true, description: 'The link\'s uuid.' }),
      linkTypeId: t.arg.id({ required: true, description: 'The uuid of the link\'s type.' }),
    },
    resolve: async (_root, args, ctx) => {
      const id = uuidArg(args.id, 'id');
      const linkTypeId = uuidArg(args.linkTypeId, 'linkTypeId');
      const { client } = ctx.governance;
      const deleted = await client.deleteLink(id, linkTypeId);
      // The ends are not known here: every cached links page goes.
      client.invalidate([Tags.link(id), Tags.linkLists]);
      return deleted ? { deletedId: id } : null;
    },
  }),
}));
