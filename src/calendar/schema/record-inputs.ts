/**
 * Input types for venues, organizers, categories and tags, shared by their own mutations and by
 * `createEvent`'s inline venue and organizers. Each is typed by the writer's input shape
 * (`../writes.ts`), so a field of the wrong type fails to compile.
 */
import { builder, type Types } from '../../graph/builder.js';
import type { OrganizerInput, TermInput, VenueInput } from '../writes.js';
import { PostStatus } from './post-status.js';

type InputFields = PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>;

/** An input's `postStatus` (the enum, e.g. `example`) and the deprecated raw `status` beside it. */
export const postStatusFields = (t: InputFields, example: string) => ({
  postStatus: t.field({ type: PostStatus, description: `The post status, e.g. ${example}.` }),
  status: t.string({
    description: 'The post status as the upstream spells it, e.g. `publish`.',
    deprecationReason: 'Use `postStatus`, the PostStatus enum.',
  }),
});

/** The fields venue and organizer inputs share. */
const linkedPostFields = (t: InputFields, phone: string) => ({
  phone: t.string({ description: phone }),
  website: t.string({ description: 'The website URL.' }),
  description: t.string({ description: 'The description, as HTML.' }),
  ...postStatusFields(t, 'PUBLISH'),
  image: t.string({ description: 'The featured image, as an attachment id or an image URL.' }),
});

const venueFields = (name: string, create: boolean) =>
  builder.inputRef<VenueInput>(name).implement({
    description: create ? 'A new venue.' : 'Changes to a venue; fields left out keep their values.',
    fields: (t) => ({
      name: t.string({ required: create, description: 'The venue name.' }),
      address: t.string({ description: 'The street address.' }),
      city: t.string({ description: 'The city.' }),
      country: t.string({ description: 'The country.' }),
      province: t.string({ description: 'The province.' }),
      state: t.string({ description: 'The state.' }),
      stateProvince: t.string({ description: 'The state or province as one value.' }),
      zip: t.string({ description: 'The postal code.' }),
      ...linkedPostFields(t, 'The phone number.'),
      showMap: t.boolean({ description: 'Whether to show a map of the venue.' }),
      showMapLink: t.boolean({ description: 'Whether to show a link to a map of the venue.' }),
    }),
  });

const organizerFields = (name: string, create: boolean) =>
  builder.inputRef<OrganizerInput>(name).implement({
    description: create ? 'A new organizer.' : 'Changes to an organizer; fields left out keep their values.',
    fields: (t) => ({
      name: t.string({ required: create, description: 'The organizer name.' }),
      email: t.string({ description: 'The contact email address.' }),
      ...linkedPostFields(t, 'The contact phone number.'),
    }),
  });

const termFields = (name: string, create: boolean, hierarchical: boolean) =>
  builder.inputRef<TermInput>(name).implement({
    description: create
      ? `A new event ${hierarchical ? 'category' : 'tag'}.`
      : `Changes to an event ${hierarchical ? 'category' : 'tag'}; fields left out keep their values.`,
    fields: (t) => ({
      name: t.string({ required: create, description: 'The name.' }),
      description: t.string({ description: 'The description.' }),
      slug: t.string({ description: 'The URL slug; derived from the name when left out.' }),
      ...(hierarchical ? { parentId: t.id({ description: 'The parent category (0 for top level).' }) } : {}),
    }),
  });

/** Also used inline by `createEvent`. */
export const CreateVenueInput = venueFields('CreateVenueInput', true);
export const UpdateVenueInput = venueFields('UpdateVenueInput', false);
export const CreateOrganizerInput = organizerFields('CreateOrganizerInput', true);
export const UpdateOrganizerInput = organizerFields('UpdateOrganizerInput', false);
export const CreateCategoryInput = termFields('CreateCategoryInput', true, true);
export const UpdateCategoryInput = termFields('UpdateCategoryInput', false, true);
export const CreateTagInput = termFields('CreateTagInput', true, false);
export const UpdateTagInput = termFields('UpdateTagInput', false, false);
