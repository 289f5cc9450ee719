/**
 * Writes to records: create, update (only the fields given change) and delete. Each write drops the
 * cached answers it may have changed and primes the request's loader with the record it returns, so
 * a read after a write shows the write.
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import { badInput } from '../../graph/errors.js';
import { idempotentCreate } from '../../graph/idempotency.js';
import { entityVersion } from '../versions.js';
import { CLIENT_MUTATION_ID_HELP, EXPECTED_VERSION_HELP } from '../../graph/write-args.js';
import { deletePayload, notFound, selects } from '../../graph/delete-payload.js';
import { refuseNulls } from '../../graph/update-input.js';
import type { Context } from '../../graph/context.js';
import type { AttributeValueRequest, EntityInformation } from '../model.js';
import { EntityKind } from './kind.js';
import { EntityRef } from './refs.js';
import { nonEmptyArg, OPTION_IDS, ORGANIZATION_IDS, RECORD_IDS, uuidArg } from './validate.js';

const AttributeValueInput = builder.inputType('AttributeValueInput', {
  description: 'One value of an attribute: a text (`value`) or a selected option (`id`).',
  fields: (t) => ({
    id: t.id({ description: 'The uuid of the option to select (option attributes).' }),
    value: t.string({ description: "The text (text attributes), or the option's label." }),
  }),
});

const AttributeInput = builder.inputType('AttributeInput', {
  description: 'The values to set on one attribute; an empty list clears it.',
  fields: (t) => ({
    name: t.string({
      required: true,
      description: "The attribute's field name, e.g. `description`, `type` or a custom field name.",
    }),
    values: t.field({ type: [AttributeValueInput], required: true, description: "The attribute's new values." }),
  }),
});

type AttributeArg = { name: string; values: { id?: string | number | null; value?: string | null }[] };

function attributesArg(
  list: readonly AttributeArg[] | null | undefined,
  argument: string,
): Record<string, AttributeValueRequest[]> | undefined {
  if (!list) return undefined;
  const out: Record<string, AttributeValueRequest[]> = {};
  list.forEach((a, i) => {
    const name = nonEmptyArg(a.name, `${argument}[${i}].name`);
    out[name] = a.values.map((v, j) => {
      if (v.id == null && v.value == null)
        throw badInput(`A value needs an "id" or a "value".`, `${argument}[${i}].values[${j}]`);
      return {
        ...(v.id != null ? { id: uuidArg(v.id, `${argument}[${i}].values[${j}].id`, OPTION_IDS) } : {}),
        ...(v.value != null ? { value: v.value } : {}),
      };
    });
  });
  return out;
}

const CreateEntityInput = builder.inputType('CreateEntityInput', {
  description: 'A new AI governance record.',
  fields: (t) => ({
    kind: t.field({ type: EntityKind, required: true, description: 'The kind of record to create.' }),
    name: t.string({ required: true, description: "The record's name (1 to 255 characters)." }),
    organizationId: t.id({ required: true, description: 'The uuid of the organization that will own the record.' }),
    attributes: t.field({ type: [AttributeInput], description: 'Initial attribute values.' }),
  }),
});

const UpdateEntityInput = builder.inputType('UpdateEntityInput', {
  description: 'Changes to a record; fields left out keep their values.',
  fields: (t) => ({
    name: t.string({ description: "The record's new name (1 to 255 characters)." }),
    organizationId: t.id({ description: 'The uuid of the organization that will own the record.' }),
    attributes: t.field({
      type: [AttributeInput],
      description: 'Attributes to change; attributes left out keep their values.',
    }),
  }),
});

const DeleteEntityPayload = deletePayload('DeleteEntityPayload', EntityRef, {
  what: 'a record',
  idWord: 'uuid',
  node: "The record as it was just before the delete. The upstream's delete answers no body, so selecting this costs one read before the delete.",
});

function wrote(ctx: Context, entity: EntityInformation): EntityInformation {
  ctx.governance.loaders.primeEntities([entity]);
  ctx.live.bus.entityChanged({ id: entity.id, origin: 'gateway', version: entityVersion(entity) });
  return entity;
}

builder.mutationFields((t) => ({
  createEntity: t.field({
    ...requires('governance:write'),
    type: EntityRef,
    description: 'Creates an AI governance record and returns it.',
    args: {
      input: t.arg({ type: CreateEntityInput, required: true, description: 'The new record.' }),
      clientMutationId: t.arg.string({ description: CLIENT_MUTATION_ID_HELP }),
    },
    resolve: async (_root, { input, clientMutationId }, ctx, info) => {
      const body = {
        name: nonEmptyArg(input.name, 'input.name'),
        organization: { id: uuidArg(input.organizationId, 'input.organizationId', ORGANIZATION_IDS) },
        attributes: attributesArg(input.attributes, 'input.attributes'),
      };
      const { client } = ctx.governance;
      return idempotentCreate(
        ctx.idempotency,
        info,
        { upstream: 'governance', identity: client.identity },
        { kind: input.kind, body },
        clientMutationId,
        async () => wrote(ctx, await client.createEntity(input.kind, body)),
      );
    },
  }),
  updateEntity: t.field({
    ...requires('governance:write'),
    type: EntityRef,
    description: 'Changes a record and returns it; NOT_FOUND when there is no record with that id.',
    args: {
      id: t.arg.id({ required: true, description: "The record's id, or its uuid (`databaseId`)." }),
      input: t.arg({ type: UpdateEntityInput, required: true, description: 'The changes.' }),
      expectedVersion: t.arg.string({ description: EXPECTED_VERSION_HELP }),
    },
    resolve: async (_root, { id, input, expectedVersion }, ctx) => {
      const entityId = uuidArg(id, 'id', RECORD_IDS);
      refuseNulls(input);
      const body = {
        ...(input.name != null ? { name: nonEmptyArg(input.name, 'input.name') } : {}),
        ...(input.organizationId != null
          ? { organization: { id: uuidArg(input.organizationId, 'input.organizationId', ORGANIZATION_IDS) } }
          : {}),
        ...(input.attributes ? { attributes: attributesArg(input.attributes, 'input.attributes') } : {}),
      };
      if (Object.keys(body).length === 0) throw badInput('Give at least one field to change.', 'input');
      const entity = await ctx.governance.writes.updateEntity(entityId, body, expectedVersion);
      if (!entity) throw notFound('record', 'id');
      return wrote(ctx, entity);
    },
  }),
  deleteEntity: t.field({
    ...requires('governance:delete'),
    type: DeleteEntityPayload,
    description:
      'Deletes a record (needs the full AI_GOVERNANCE scope); NOT_FOUND when there is no record with that id (a second delete too).',
    args: { id: t.arg.id({ required: true, description: "The record's id, or its uuid (`databaseId`)." }) },
    resolve: async (_root, args, ctx, info) => {
      const id = uuidArg(args.id, 'id', RECORD_IDS);
      const { client, loaders } = ctx.governance;
      // The delete answers no body: the record as it was costs a read, made only when asked for.
      const node = selects(info, 'node') ? await loaders.entity.load(id) : null;
      const deleted = await client.deleteEntity(id);
      loaders.forgetEntity(id);
      if (!deleted) throw notFound('record', 'id');
      ctx.live.bus.entityChanged({ id, origin: 'gateway', deleted: true });
      return { deletedId: id, node };
    },
  }),
}));
