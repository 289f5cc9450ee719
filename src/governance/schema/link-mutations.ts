/**
 * Writes to links: create and delete. The upstream wants each end's entity type name; the caller may
 * give it, or for the AI kinds it is read from the record (through the request's entity loader).
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import { badInput } from '../../graph/errors.js';
import { isUpstreamError } from '../../core/errors.js';
import { idempotentCreate } from '../../graph/idempotency.js';
import { CLIENT_MUTATION_ID_HELP } from '../../graph/write-args.js';
import { deletePayload, notFound, selects } from '../../graph/delete-payload.js';
import { decodeGlobalId } from '../../core/global-id.js';
import type { Context } from '../../graph/context.js';
import type { LinkRequestEnd } from '../model.js';
import { nameList } from './discovery.js';
import { EntityKind } from './kind.js';
import { LinkRef } from './refs.js';
import { LINK_TYPE_IDS, linkIdArg, nonEmptyArg, RECORD_IDS, uuidArg } from './validate.js';

const LinkEndInput = builder.inputType('GovernanceLinkEndInput', {
  description: 'One end of a new link: a record and, optionally, its kind or type name.',
  fields: (t) => ({
    id: t.id({ required: true, description: "The record's id (`id` of an entity or a link end), or its uuid." }),
    kind: t.field({ type: EntityKind, description: "The record's kind; looked up when omitted." }),
    typeName: t.string({
      description: "The record's entity type name, for records outside AI governance such as `vendors`.",
    }),
  }),
});

const CreateLinkInput = builder.inputType('CreateGovernanceLinkInput', {
  description: 'A new link between two records.',
  fields: (t) => ({
    linkTypeId: t.id({
      description: 'The uuid of the link type (a relationship type id); give this or `relationshipType`.',
    }),
    relationshipType: t.string({
      description:
        'The name of the link type, e.g. `ai-system-composition` (see `relationshipTypes`); an unknown name is a BAD_USER_INPUT that lists the known ones.',
    }),
    entity1: t.field({ type: LinkEndInput, required: true, description: 'The first end (the source).' }),
    entity2: t.field({ type: LinkEndInput, required: true, description: 'The second end (the target).' }),
    attributes: t.field({
      type: 'JSONObject',
      description: "The link's own attributes, passed to the upstream as they are.",
    }),
  }),
});

const DeleteLinkPayload = deletePayload('DeleteGovernanceLinkPayload', LinkRef, {
  what: 'a link',
  idWord: 'uuid',
  node: "The link as it was just before the delete. The upstream's delete answers no link, so selecting this costs one read before the delete.",
});

type EndArg = { id: string | number; kind?: string | null; typeName?: string | null };

function checkEnd(end: EndArg, argument: string): { id: string; typeName?: string } {
  const id = uuidArg(end.id, `${argument}.id`, RECORD_IDS);
  const typeName = end.kind ?? (end.typeName != null ? nonEmptyArg(end.typeName, `${argument}.typeName`) : undefined);
  return { id, typeName };
}

async function resolveEnd(
  end: { id: string; typeName?: string },
  argument: string,
  ctx: Context,
): Promise<LinkRequestEnd> {
  if (end.typeName) return { id: end.id, entityType: { name: end.typeName } };
  const entity = await ctx.governance.loaders.entity.load(end.id);
  if (!entity)
    throw badInput(
      `No AI governance record has the id in "${argument}.id"; give "typeName" for records of other kinds.`,
      `${argument}.id`,
    );
  return { id: end.id, entityType: { name: entity.entityType.name } };
}

/** The link type's uuid, given or looked up by name among the known relationship types. */
function linkTypeOf(
  input: { linkTypeId?: string | number | null; relationshipType?: string | null },
  ctx: Context,
): string {
  const hasId = input.linkTypeId != null;
  const hasName = input.relationshipType != null;
  if (hasId === hasName)
    throw badInput(
      'Give exactly one of "linkTypeId" or "relationshipType".',
      hasId ? 'input.relationshipType' : 'input.linkTypeId',
    );
  if (hasId) return uuidArg(input.linkTypeId!, 'input.linkTypeId', LINK_TYPE_IDS);
  const { discovery } = ctx.governance;
  const known = discovery.relationshipType(input.relationshipType!);
  if (!known)
    throw badInput(
      `"${input.relationshipType}" is not a known relationship type; known: ${nameList(discovery.relationshipTypes().map((r) => r.name))}.`,
      'input.relationshipType',
    );
  if (!known.id)
    throw badInput(
      `The uuid of relationship type "${known.name}" is not known yet (configure it, or give "linkTypeId").`,
      'input.relationshipType',
    );
  return known.id;
}

builder.mutationFields((t) => ({
  createLink: t.field({
    ...requires('governance:write'),
    type: LinkRef,
    description: 'Links two records with a link type and returns the new link.',
    args: {
      input: t.arg({ type: CreateLinkInput, required: true, description: 'The link to create.' }),
      clientMutationId: t.arg.string({ description: CLIENT_MUTATION_ID_HELP }),
    },
    resolve: async (_root, { input, clientMutationId }, ctx, info) => {
      const linkTypeId = linkTypeOf(input, ctx);
      const ends = [checkEnd(input.entity1, 'input.entity1'), checkEnd(input.entity2, 'input.entity2')] as const;
      const { client } = ctx.governance;
      return idempotentCreate(
        ctx.idempotency,
        info,
        { upstream: 'governance', identity: client.identity },
        { linkTypeId, ends, attributes: input.attributes ?? null },
        clientMutationId,
        async () => {
          const [entity1, entity2] = await Promise.all([
            resolveEnd(ends[0], 'input.entity1', ctx),
            resolveEnd(ends[1], 'input.entity2', ctx),
          ]);
          const link = await client
            .createLink(linkTypeId, { entity1, entity2, attributes: input.attributes ?? null, context: null })
            .catch((e: unknown) => {
              // The caller named the link type, the client only knows the uuid it became.
              if (isUpstreamError(e) && e.argument === 'input.linkTypeId' && input.relationshipType != null)
                e.argument = 'input.relationshipType';
              throw e;
            });
          // A link is part of both records' view (their links lists).
          for (const end of [entity1.id, entity2.id]) ctx.live.bus.entityChanged({ id: end, origin: 'gateway' });
          return link;
        },
      );
    },
  }),
  deleteLink: t.field({
    ...requires('governance:delete'),
    type: DeleteLinkPayload,
    description:
      'Deletes a link (needs the full AI_GOVERNANCE scope); NOT_FOUND when there is no such link (a second delete too).',
    args: {
      id: t.arg.id({ required: true, description: "The link's id, or its uuid (`databaseId`)." }),
      linkTypeId: t.arg.id({ required: true, description: "The id of the link's type, or its uuid." }),
    },
    resolve: async (_root, args, ctx, info) => {
      const id = linkIdArg(args.id, 'id');
      const linkTypeId = uuidArg(args.linkTypeId, 'linkTypeId', LINK_TYPE_IDS);
      const { client } = ctx.governance;
      const node = selects(info, 'node') ? await client.getLink(id, linkTypeId) : null;
      const deleted = await client.deleteLink(id, linkTypeId);
      if (!deleted) throw notFound('link', 'id');
      // The id it was given when that names the link (a listed link's names its viewpoint too).
      const given = decodeGlobalId(String(args.id).trim());
      return { deletedId: given?.type === 'GovernanceLink' ? given.id : `${id}:${linkTypeId}`, node };
    },
  }),
}));
