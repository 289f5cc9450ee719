/**
 * Writes of venues, organizers, categories and tags: `create…`, `update…` and `delete…` of each, alike
 * but for the record. Venues and organizers are found by id or slug, and their deletes move them to the
 * trash and return them; categories and tags are found by term id, have no trash and are deleted for good.
 * A create is idempotent by `clientMutationId` or the `Idempotency-Key` header.
 */
import type { ArgBuilder, InputObjectRef } from '@pothos/core';
import type { GraphQLResolveInfo } from 'graphql';
import { requires } from '../../graph/auth.js';
import { builder, type Types } from '../../graph/builder.js';
import type { Context } from '../../graph/context.js';
import { idempotentCreate } from '../../graph/idempotency.js';
import { refuseNulls } from '../../graph/update-input.js';
import { CLIENT_MUTATION_ID_HELP, EXPECTED_VERSION_HELP } from '../../graph/write-args.js';
import { recordId, recordRef } from '../inputs.js';
import {
  CreateCategoryInput,
  CreateTagInput,
  CreateOrganizerInput,
  UpdateCategoryInput,
  UpdateOrganizerInput,
  UpdateTagInput,
  UpdateVenueInput,
  CreateVenueInput,
} from './record-inputs.js';
import { calendarDeletePayload, deleted } from './delete-payloads.js';
import { CategoryRef, OrganizerRef, TagRef, VenueRef } from './refs.js';

const write = requires('calendar:write');

/** A create's arguments: the new record and the idempotency key. */
const createArgs = <T extends object>(arg: ArgBuilder<Types>, type: InputObjectRef<Types, T>, noun: string) => ({
  input: arg({ type, required: true, description: `The new ${noun}.` }),
  clientMutationId: arg.string({ description: CLIENT_MUTATION_ID_HELP }),
});

/** An update's arguments besides the locator: the changes and the version they apply to. */
const updateArgs = <T extends object>(arg: ArgBuilder<Types>, type: InputObjectRef<Types, T>) => ({
  input: arg({ type, required: true, description: 'The changes.' }),
  expectedVersion: arg.string({ description: EXPECTED_VERSION_HELP }),
});

/** A post (venue, organizer) is found by id or slug. */
const postArgs = (arg: ArgBuilder<Types>, noun: string) => ({
  id: arg.id({ description: `The ${noun}'s id.` }),
  slug: arg.string({ description: `The ${noun}'s slug.` }),
});

/** A term (category, tag) is found by its term id. */
const termArgs = (arg: ArgBuilder<Types>, noun: string) => ({
  id: arg.id({ required: true, description: `The ${noun}'s term id.` }),
});

/** A create once per idempotency key. */
function created<T>(
  ctx: Context,
  info: GraphQLResolveInfo,
  args: { input: object; clientMutationId?: string | null },
  create: () => Promise<T>,
): Promise<T> {
  const writer = { upstream: 'calendar', identity: ctx.calendar.client.writerIdentity } as const;
  return idempotentCreate(ctx.idempotency, info, writer, args.input, args.clientMutationId, create);
}

const postUpdate = (what: string) => `Changes the given fields of ${what} found by id or slug.`;
const postDelete = (what: string, noun: string) =>
  `Moves ${what} found by id or slug to the trash; NOT_FOUND when there is no such ${noun}, GONE when it is already in the trash.`;
const termUpdate = (what: string) => `Changes the given fields of ${what}.`;
const termDelete = (what: string, noun: string) =>
  `Deletes ${what} for good (terms have no trash); NOT_FOUND when there is no such ${noun}.`;

const DeleteVenuePayload = calendarDeletePayload('DeleteVenuePayload', VenueRef, 'a venue', true);
const DeleteOrganizerPayload = calendarDeletePayload('DeleteOrganizerPayload', OrganizerRef, 'an organizer', true);
const DeleteCategoryPayload = calendarDeletePayload('DeleteCategoryPayload', CategoryRef, 'a category', false);
const DeleteTagPayload = calendarDeletePayload('DeleteTagPayload', TagRef, 'a tag', false);

builder.mutationFields((t) => ({
  createVenue: t.field({
    ...write,
    type: VenueRef,
    description: 'Creates a venue.',
    args: createArgs(t.arg, CreateVenueInput, 'venue'),
    resolve: (_root, args, ctx, info) => created(ctx, info, args, () => ctx.calendar.writes.createVenue(args.input)),
  }),
  updateVenue: t.field({
    ...write,
    type: VenueRef,
    description: postUpdate('a venue'),
    args: { ...postArgs(t.arg, 'venue'), ...updateArgs(t.arg, UpdateVenueInput) },
    resolve: (_root, args, ctx) => {
      const at = recordRef(args, 'venue');
      refuseNulls(args.input);
      return ctx.calendar.writes.updateVenue(at, args.input, args.expectedVersion ?? undefined);
    },
  }),
  deleteVenue: t.field({
    ...write,
    type: DeleteVenuePayload,
    description: postDelete('a venue', 'venue'),
    args: postArgs(t.arg, 'venue'),
    resolve: async (_root, args, ctx) => deleted(await ctx.calendar.writes.deleteVenue(recordRef(args, 'venue'))),
  }),
  createOrganizer: t.field({
    ...write,
    type: OrganizerRef,
    description: 'Creates an organizer.',
    args: createArgs(t.arg, CreateOrganizerInput, 'organizer'),
    resolve: (_root, args, ctx, info) =>
      created(ctx, info, args, () => ctx.calendar.writes.createOrganizer(args.input)),
  }),
  updateOrganizer: t.field({
    ...write,
    type: OrganizerRef,
    description: postUpdate('an organizer'),
    args: { ...postArgs(t.arg, 'organizer'), ...updateArgs(t.arg, UpdateOrganizerInput) },
    resolve: (_root, args, ctx) => {
      const at = recordRef(args, 'organizer');
      refuseNulls(args.input);
      return ctx.calendar.writes.updateOrganizer(at, args.input, args.expectedVersion ?? undefined);
    },
  }),
  deleteOrganizer: t.field({
    ...write,
    type: DeleteOrganizerPayload,
    description: postDelete('an organizer', 'organizer'),
    args: postArgs(t.arg, 'organizer'),
    resolve: async (_root, args, ctx) =>
      deleted(await ctx.calendar.writes.deleteOrganizer(recordRef(args, 'organizer'))),
  }),
  createCategory: t.field({
    ...write,
    type: CategoryRef,
    description: 'Creates an event category.',
    args: createArgs(t.arg, CreateCategoryInput, 'category'),
    resolve: (_root, args, ctx, info) => created(ctx, info, args, () => ctx.calendar.writes.createCategory(args.input)),
  }),
  updateCategory: t.field({
    ...write,
    type: CategoryRef,
    description: termUpdate('an event category'),
    args: { ...termArgs(t.arg, 'category'), ...updateArgs(t.arg, UpdateCategoryInput) },
    resolve: (_root, args, ctx) => {
      const id = recordId(args.id, 'id', 'category');
      refuseNulls(args.input);
      return ctx.calendar.writes.updateCategory(id, args.input, args.expectedVersion ?? undefined);
    },
  }),
  deleteCategory: t.field({
    ...write,
    type: DeleteCategoryPayload,
    description: termDelete('an event category', 'category'),
    args: termArgs(t.arg, 'category'),
    resolve: async (_root, args, ctx) =>
      deleted(await ctx.calendar.writes.deleteCategory(recordId(args.id, 'id', 'category'))),
  }),
  createTag: t.field({
    ...write,
    type: TagRef,
    description: 'Creates an event tag.',
    args: createArgs(t.arg, CreateTagInput, 'tag'),
    resolve: (_root, args, ctx, info) => created(ctx, info, args, () => ctx.calendar.writes.createTag(args.input)),
  }),
  updateTag: t.field({
    ...write,
    type: TagRef,
    description: termUpdate('an event tag'),
    args: { ...termArgs(t.arg, 'tag'), ...updateArgs(t.arg, UpdateTagInput) },
    resolve: (_root, args, ctx) => {
      const id = recordId(args.id, 'id', 'tag');
      refuseNulls(args.input);
      return ctx.calendar.writes.updateTag(id, args.input, args.expectedVersion ?? undefined);
    },
  }),
  deleteTag: t.field({
    ...write,
    type: DeleteTagPayload,
    description: termDelete('an event tag', 'tag'),
    args: termArgs(t.arg, 'tag'),
    resolve: async (_root, args, ctx) => deleted(await ctx.calendar.writes.deleteTag(recordId(args.id, 'id', 'tag'))),
  }),
}));
