/**
 * Writes of venues, organizers, categories and tags. Deletes of venues and organizers move them to
 * the trash and return them; categories and tags have no trash and are deleted for good.
 */
import { builder } from '../../graph/builder.js';
import { idempotentCreate } from '../../graph/idempotency.js';
import { CLIENT_MUTATION_ID_HELP, EXPECTED_VERSION_HELP } from '../../graph/write-args.js';
import { recordId, recordRef } from '../inputs.js';
import {
  CreateCategoryInput,
  CreateTagInput,
  OrganizerInputFields,
  UpdateCategoryInput,
  UpdateOrganizerInput,
  UpdateTagInput,
  UpdateVenueInput,
  VenueInputFields,
} from './record-inputs.js';
import {
  DeleteCategoryPayload,
  DeleteOrganizerPayload,
  DeleteTagPayload,
  DeleteVenuePayload,
  deleted,
} from './delete-payloads.js';
import { CategoryRef, OrganizerRef, TagRef, VenueRef } from './refs.js';
import { refuseNulls } from '../../graph/update-input.js';

builder.mutationFields((t) => {
  const idOrSlug = (what: string) => ({
    id: t.arg.id({ description: `The ${what}'s id.` }),
    slug: t.arg.string({ description: `The ${what}'s slug.` }),
  });
  const termId = (what: string) => ({ id: t.arg.id({ required: true, description: `The ${what}'s term id.` }) });
  const expectedVersion = () => t.arg.string({ description: EXPECTED_VERSION_HELP });
  const clientMutationId = () => t.arg.string({ description: CLIENT_MUTATION_ID_HELP });
  return {
    createVenue: t.field({
      type: VenueRef,
      nullable: true,
      description: 'Creates a venue.',
      args: {
        input: t.arg({ type: VenueInputFields, required: true, description: 'The new venue.' }),
        clientMutationId: clientMutationId(),
      },
      resolve: (_r, { input, clientMutationId }, { calendar, idempotency }, info) =>
        idempotentCreate(
          idempotency,
          info,
          { upstream: 'calendar', identity: calendar.client.writerIdentity },
          input,
          clientMutationId,
          () => calendar.writes.createVenue(input),
        ),
    }),
    updateVenue: t.field({
      type: VenueRef,
      nullable: true,
      description: 'Changes the given fields of a venue found by id or slug.',
      args: {
        ...idOrSlug('venue'),
        input: t.arg({ type: UpdateVenueInput, required: true, description: 'The changes.' }),
        expectedVersion: expectedVersion(),
      },
      resolve: (_r, args, { calendar }) => {
        const ref = recordRef(args, 'venue');
        refuseNulls(args.input, 'input');
        return calendar.writes.updateVenue(ref, args.input, args.expectedVersion ?? undefined);
      },
    }),
    deleteVenue: t.field({
      type: DeleteVenuePayload,
      nullable: true,
      description:
        'Moves a venue found by id or slug to the trash; NOT_FOUND when there is no such venue, GONE when it is already in the trash.',
      args: idOrSlug('venue'),
      resolve: async (_r, args, { calendar }) => deleted(await calendar.writes.deleteVenue(recordRef(args, 'venue'))),
    }),
    createOrganizer: t.field({
      type: OrganizerRef,
      nullable: true,
      description: 'Creates an organizer.',
      args: {
        input: t.arg({ type: OrganizerInputFields, required: true, description: 'The new organizer.' }),
        clientMutationId: clientMutationId(),
      },
      resolve: (_r, { input, clientMutationId }, { calendar, idempotency }, info) =>
        idempotentCreate(
          idempotency,
          info,
          { upstream: 'calendar', identity: calendar.client.writerIdentity },
          input,
          clientMutationId,
          () => calendar.writes.createOrganizer(input),
        ),
    }),
    updateOrganizer: t.field({
      type: OrganizerRef,
      nullable: true,
      description: 'Changes the given fields of an organizer found by id or slug.',
      args: {
        ...idOrSlug('organizer'),
        input: t.arg({ type: UpdateOrganizerInput, required: true, description: 'The changes.' }),
        expectedVersion: expectedVersion(),
      },
      resolve: (_r, args, { calendar }) => {
        const ref = recordRef(args, 'organizer');
        refuseNulls(args.input, 'input');
        return calendar.writes.updateOrganizer(ref, args.input, args.expectedVersion ?? undefined);
      },
    }),
    deleteOrganizer: t.field({
      type: DeleteOrganizerPayload,
      nullable: true,
      description:
        'Moves an organizer found by id or slug to the trash; NOT_FOUND when there is no such organizer, GONE when it is already in the trash.',
      args: idOrSlug('organizer'),
      resolve: async (_r, args, { calendar }) =>
        deleted(await calendar.writes.deleteOrganizer(recordRef(args, 'organizer'))),
    }),
    createCategory: t.field({
      type: CategoryRef,
      nullable: true,
      description: 'Creates an event category.',
      args: {
        input: t.arg({ type: CreateCategoryInput, required: true, description: 'The new category.' }),
        clientMutationId: clientMutationId(),
      },
      resolve: (_r, { input, clientMutationId }, { calendar, idempotency }, info) =>
        idempotentCreate(
          idempotency,
          info,
          { upstream: 'calendar', identity: calendar.client.writerIdentity },
          input,
          clientMutationId,
          () => calendar.writes.createCategory(input),
        ),
    }),
    updateCategory: t.field({
      type: CategoryRef,
      nullable: true,
      description: 'Changes the given fields of an event category.',
      args: {
        ...termId('category'),
        input: t.arg({ type: UpdateCategoryInput, required: true, description: 'The changes.' }),
        expectedVersion: expectedVersion(),
      },
      resolve: (_r, args, { calendar }) => {
        const id = recordId(args.id, 'id');
        refuseNulls(args.input, 'input');
        return calendar.writes.updateCategory(id, args.input, args.expectedVersion ?? undefined);
      },
    }),
    deleteCategory: t.field({
      type: DeleteCategoryPayload,
      nullable: true,
      description:
        'Deletes an event category for good (terms have no trash); NOT_FOUND when there is no such category.',
      args: termId('category'),
      resolve: async (_r, args, { calendar }) => deleted(await calendar.writes.deleteCategory(recordId(args.id, 'id'))),
    }),
    createTag: t.field({
      type: TagRef,
      nullable: true,
      description: 'Creates an event tag.',
      args: {
        input: t.arg({ type: CreateTagInput, required: true, description: 'The new tag.' }),
        clientMutationId: clientMutationId(),
      },
      resolve: (_r, { input, clientMutationId }, { calendar, idempotency }, info) =>
        idempotentCreate(
          idempotency,
          info,
          { upstream: 'calendar', identity: calendar.client.writerIdentity },
          input,
          clientMutationId,
          () => calendar.writes.createTag(input),
        ),
    }),
    updateTag: t.field({
      type: TagRef,
      nullable: true,
      description: 'Changes the given fields of an event tag.',
      args: {
        ...termId('tag'),
        input: t.arg({ type: UpdateTagInput, required: true, description: 'The changes.' }),
        expectedVersion: expectedVersion(),
      },
      resolve: (_r, args, { calendar }) => {
        const id = recordId(args.id, 'id');
        refuseNulls(args.input, 'input');
        return calendar.writes.updateTag(id, args.input, args.expectedVersion ?? undefined);
      },
    }),
    deleteTag: t.field({
      type: DeleteTagPayload,
      nullable: true,
      description: 'Deletes an event tag for good (terms have no trash); NOT_FOUND when there is no such tag.',
      args: termId('tag'),
      resolve: async (_r, args, { calendar }) => deleted(await calendar.writes.deleteTag(recordId(args.id, 'id'))),
    }),
  };
});
