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
import { CategoryRef, OrganizerRef, TagRef, VenueRef } from './refs.js';

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
      args: { input: t.arg({ type: VenueInputFields, required: true, description: 'The new venue.' }), clientMutationId: clientMutationId() },
      resolve: (_r, { input, clientMutationId }, { calendar, idempotency }, info) =>
        idempotentCreate(idempotency, info, { upstream: 'calendar', identity: calendar.client.writerIdentity }, input, clientMutationId, () => calendar.writes.createVenue(input)),
    }),
    updateVenue: t.field({
      type: VenueRef,
      nullable: true,
      description: 'Changes the given fields of a venue found by id or slug.',
      args: { ...idOrSlug('venue'), input: t.arg({ type: UpdateVenueInput, required: true, description: 'The changes.' }), expectedVersion: expectedVersion() },
      resolve: (_r, args, { calendar }) => calendar.writes.updateVenue(recordRef(args, 'venue'), args.input, args.expectedVersion ?? undefined),
    }),
    deleteVenue: t.field({
      type: VenueRef,
      nullable: true,
      description: 'Moves a venue found by id or slug to the trash and returns it; deleting it again is a GONE error.',
      args: idOrSlug('venue'),
      resolve: (_r, args, { calendar }) => calendar.writes.deleteVenue(recordRef(args, 'venue')),
    }),
    createOrganizer: t.field({
      type: OrganizerRef,
      nullable: true,
      description: 'Creates an organizer.',
      args: { input: t.arg({ type: OrganizerInputFields, required: true, description: 'The new organizer.' }), clientMutationId: clientMutationId() },
      resolve: (_r, { input, clientMutationId }, { calendar, idempotency }, info) =>
        idempotentCreate(idempotency, info, { upstream: 'calendar', identity: calendar.client.writerIdentity }, input, clientMutationId, () => calendar.writes.createOrganizer(input)),
    }),
    updateOrganizer: t.field({
      type: OrganizerRef,
      nullable: true,
      description: 'Changes the given fields of an organizer found by id or slug.',
      args: { ...idOrSlug('organizer'), input: t.arg({ type: UpdateOrganizerInput, required: true, description: 'The changes.' }), expectedVersion: expectedVersion() },
      resolve: (_r, args, { calendar }) => calendar.writes.updateOrganizer(recordRef(args, 'organizer'), args.input, args.expectedVersion ?? undefined),
    }),
    deleteOrganizer: t.field({
      type: OrganizerRef,
      nullable: true,
      description: 'Moves an organizer found by id or slug to the trash and returns it; deleting it again is a GONE error.',
      args: idOrSlug('organizer'),
      resolve: (_r, args, { calendar }) => calendar.writes.deleteOrganizer(recordRef(args, 'organizer')),
    }),
    createCategory: t.field({
      type: CategoryRef,
      nullable: true,
      description: 'Creates an event category.',
      args: { input: t.arg({ type: CreateCategoryInput, required: true, description: 'The new category.' }), clientMutationId: clientMutationId() },
      resolve: (_r, { input, clientMutationId }, { calendar, idempotency }, info) =>
        idempotentCreate(idempotency, info, { upstream: 'calendar', identity: calendar.client.writerIdentity }, input, clientMutationId, () => calendar.writes.createCategory(input)),
    }),
    updateCategory: t.field({
      type: CategoryRef,
      nullable: true,
      description: 'Changes the given fields of an event category.',
      args: { ...termId('category'), input: t.arg({ type: UpdateCategoryInput, required: true, description: 'The changes.' }), expectedVersion: expectedVersion() },
      resolve: (_r, args, { calendar }) => calendar.writes.updateCategory(recordId(args.id, 'id'), args.input, args.expectedVersion ?? undefined),
    }),
    deleteCategory: t.field({
      type: CategoryRef,
      nullable: true,
      description: 'Deletes an event category for good and returns it as it was.',
      args: termId('category'),
      resolve: (_r, args, { calendar }) => calendar.writes.deleteCategory(recordId(args.id, 'id')),
    }),
    createTag: t.field({
      type: TagRef,
      nullable: true,
      description: 'Creates an event tag.',
      args: { input: t.arg({ type: CreateTagInput, required: true, description: 'The new tag.' }), clientMutationId: clientMutationId() },
      resolve: (_r, { input, clientMutationId }, { calendar, idempotency }, info) =>
        idempotentCreate(idempotency, info, { upstream: 'calendar', identity: calendar.client.writerIdentity }, input, clientMutationId, () => calendar.writes.createTag(input)),
    }),
    updateTag: t.field({
      type: TagRef,
      nullable: true,
      description: 'Changes the given fields of an event tag.',
      args: { ...termId('tag'), input: t.arg({ type: UpdateTagInput, required: true, description: 'The changes.' }), expectedVersion: expectedVersion() },
      resolve: (_r, args, { calendar }) => calendar.writes.updateTag(recordId(args.id, 'id'), args.input, args.expectedVersion ?? undefined),
    }),
    deleteTag: t.field({
      type: TagRef,
      nullable: true,
      description: 'Deletes an event tag for good and returns it as it was.',
      args: termId('tag'),
      resolve: (_r, args, { calendar }) => calendar.writes.deleteTag(recordId(args.id, 'id')),
    }),
  };
});
