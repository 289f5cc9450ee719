/**
 * Writes of venues, organizers, categories and tags. Deletes of venues and organizers move them to
 * the trash and return them; categories and tags have no trash and are deleted for good.
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import { CLIENT_MUTATION_ID_HELP, EXPECTED_VERSION_HELP } from '../../graph/write-args.js';
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
} from './delete-payloads.js';
import {
  createResolver,
  deleteByIdResolver,
  deleteByRefResolver,
  updateByIdResolver,
  updateByRefResolver,
} from './resolvers.js';
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
      ...requires('calendar:write'),
      type: VenueRef,
      description: 'Creates a venue.',
      args: {
        input: t.arg({ type: VenueInputFields, required: true, description: 'The new venue.' }),
        clientMutationId: clientMutationId(),
      },
      resolve: createResolver((writes, input) => writes.createVenue(input)),
    }),
    updateVenue: t.field({
      ...requires('calendar:write'),
      type: VenueRef,
      description: 'Changes the given fields of a venue found by id or slug.',
      args: {
        ...idOrSlug('venue'),
        input: t.arg({ type: UpdateVenueInput, required: true, description: 'The changes.' }),
        expectedVersion: expectedVersion(),
      },
      resolve: updateByRefResolver('venue', (writes, ref, input, v) => writes.updateVenue(ref, input, v)),
    }),
    deleteVenue: t.field({
      ...requires('calendar:write'),
      type: DeleteVenuePayload,
      description:
        'Moves a venue found by id or slug to the trash; NOT_FOUND when there is no such venue, GONE when it is already in the trash.',
      args: idOrSlug('venue'),
      resolve: deleteByRefResolver('venue', (writes, ref) => writes.deleteVenue(ref)),
    }),
    createOrganizer: t.field({
      ...requires('calendar:write'),
      type: OrganizerRef,
      description: 'Creates an organizer.',
      args: {
        input: t.arg({ type: OrganizerInputFields, required: true, description: 'The new organizer.' }),
        clientMutationId: clientMutationId(),
      },
      resolve: createResolver((writes, input) => writes.createOrganizer(input)),
    }),
    updateOrganizer: t.field({
      ...requires('calendar:write'),
      type: OrganizerRef,
      description: 'Changes the given fields of an organizer found by id or slug.',
      args: {
        ...idOrSlug('organizer'),
        input: t.arg({ type: UpdateOrganizerInput, required: true, description: 'The changes.' }),
        expectedVersion: expectedVersion(),
      },
      resolve: updateByRefResolver('organizer', (writes, ref, input, v) => writes.updateOrganizer(ref, input, v)),
    }),
    deleteOrganizer: t.field({
      ...requires('calendar:write'),
      type: DeleteOrganizerPayload,
      description:
        'Moves an organizer found by id or slug to the trash; NOT_FOUND when there is no such organizer, GONE when it is already in the trash.',
      args: idOrSlug('organizer'),
      resolve: deleteByRefResolver('organizer', (writes, ref) => writes.deleteOrganizer(ref)),
    }),
    createCategory: t.field({
      ...requires('calendar:write'),
      type: CategoryRef,
      description: 'Creates an event category.',
      args: {
        input: t.arg({ type: CreateCategoryInput, required: true, description: 'The new category.' }),
        clientMutationId: clientMutationId(),
      },
      resolve: createResolver((writes, input) => writes.createCategory(input)),
    }),
    updateCategory: t.field({
      ...requires('calendar:write'),
      type: CategoryRef,
      description: 'Changes the given fields of an event category.',
      args: {
        ...termId('category'),
        input: t.arg({ type: UpdateCategoryInput, required: true, description: 'The changes.' }),
        expectedVersion: expectedVersion(),
      },
      resolve: updateByIdResolver((writes, id, input, v) => writes.updateCategory(id, input, v)),
    }),
    deleteCategory: t.field({
      ...requires('calendar:write'),
      type: DeleteCategoryPayload,
      description:
        'Deletes an event category for good (terms have no trash); NOT_FOUND when there is no such category.',
      args: termId('category'),
      resolve: deleteByIdResolver((writes, id) => writes.deleteCategory(id)),
    }),
    createTag: t.field({
      ...requires('calendar:write'),
      type: TagRef,
      description: 'Creates an event tag.',
      args: {
        input: t.arg({ type: CreateTagInput, required: true, description: 'The new tag.' }),
        clientMutationId: clientMutationId(),
      },
      resolve: createResolver((writes, input) => writes.createTag(input)),
    }),
    updateTag: t.field({
      ...requires('calendar:write'),
      type: TagRef,
      description: 'Changes the given fields of an event tag.',
      args: {
        ...termId('tag'),
        input: t.arg({ type: UpdateTagInput, required: true, description: 'The changes.' }),
        expectedVersion: expectedVersion(),
      },
      resolve: updateByIdResolver((writes, id, input, v) => writes.updateTag(id, input, v)),
    }),
    deleteTag: t.field({
      ...requires('calendar:write'),
      type: DeleteTagPayload,
      description: 'Deletes an event tag for good (terms have no trash); NOT_FOUND when there is no such tag.',
      args: termId('tag'),
      resolve: deleteByIdResolver((writes, id) => writes.deleteTag(id)),
    }),
  };
});
