/**
 * Event writes. `updateEvent` changes only the fields given (the service re-sends the rest, see
 * `../writes.ts`); `deleteEvent` moves the event to the trash and returns it.
 */
import { builder } from '../../graph/builder.js';
import { idempotentCreate } from '../../graph/idempotency.js';
import { CLIENT_MUTATION_ID_HELP, EXPECTED_VERSION_HELP } from '../../graph/write-args.js';
import { recordRef } from '../inputs.js';
import { OrganizerInputFields, VenueInputFields } from './record-inputs.js';
import { EventRef } from './refs.js';

const DATE_HELP = 'Takes `YYYY-MM-DD HH:MM:SS` in the event\'s time zone, or ISO 8601 with an offset (converted to that zone).';

const eventFields = (create: boolean) =>
  builder.inputType(create ? 'CreateEventInput' : 'UpdateEventInput', {
    description: create ? 'A new calendar event.' : 'Changes to a calendar event; fields left out keep their values.',
    fields: (t) => ({
      title: t.string({ required: create, description: 'The title as plain text.' }),
      startDate: t.string({ required: create, description: `When the event starts. ${DATE_HELP}` }),
      endDate: t.string({ required: create, description: `When the event ends. ${DATE_HELP}` }),
      timezone: t.string({ description: 'The event\'s time zone, e.g. `Europe/Berlin`; the site\'s when left out.' }),
      allDay: t.boolean({ description: 'Whether the event lasts whole days.' }),
      description: t.string({ description: 'The description, as HTML.' }),
      excerpt: t.string({ description: 'The excerpt, as HTML.' }),
      slug: t.string({ description: 'The URL slug; derived from the title when left out.' }),
      status: t.string({ description: 'The post status, e.g. `publish` or `draft`.' }),
      image: t.string({ description: 'The featured image, as an attachment id or an image URL to import.' }),
      cost: t.string({ description: 'The cost as text, e.g. `$10` or `5 - 20`.' }),
      website: t.string({ description: 'The event\'s website URL.' }),
      showMap: t.boolean({ description: 'Whether to show a map of the venue.' }),
      showMapLink: t.boolean({ description: 'Whether to show a link to a map of the venue.' }),
      hideFromListings: t.boolean({ description: 'Whether to hide the event from calendar lists.' }),
      sticky: t.boolean({ description: 'Whether to pin the event to the top of month views.' }),
      featured: t.boolean({ description: 'Whether the event is featured.' }),
      categories: t.stringList({ description: 'The categories, by id, slug or name; unknown names are created. Replaces the current ones.' }),
      tags: t.stringList({ description: 'The tags, by id, slug or name; unknown names are created. Replaces the current ones.' }),
      venueId: t.id({ description: create ? 'An existing venue for the event.' : 'An existing venue for the event; null removes the venue.' }),
      venue: t.field({
        type: VenueInputFields,
        description: create ? 'A new venue to create with the event (instead of `venueId`).' : 'A new venue to create and give the event instead of its current one (instead of `venueId`).',
      }),
      organizerIds: t.idList({ description: create ? 'Existing organizers of the event.' : 'Existing organizers of the event, replacing the current ones; null or [] removes them.' }),
      organizers: t.field({
        type: [OrganizerInputFields],
        description: create
          ? 'New organizers to create with the event (added to `organizerIds`).'
          : 'New organizers to create and add to the event: to those of `organizerIds`, or to the current ones when `organizerIds` is left out.',
      }),
    }),
  });

const CreateEventInput = eventFields(true);
const UpdateEventInput = eventFields(false);

builder.mutationFields((t) => ({
  createEvent: t.field({
    type: EventRef,
    nullable: true,
    description: 'Creates an event, with an existing or a new venue and organizers.',
    args: {
      input: t.arg({ type: CreateEventInput, required: true, description: 'The new event.' }),
      clientMutationId: t.arg.string({ description: CLIENT_MUTATION_ID_HELP }),
    },
    resolve: (_root, { input, clientMutationId }, { calendar, idempotency }, info) =>
      idempotentCreate(idempotency, info, { upstream: 'calendar', identity: calendar.client.writerIdentity }, input, clientMutationId, () => calendar.writes.createEvent(input)),
  }),
  updateEvent: t.field({
    type: EventRef,
    nullable: true,
    description: 'Changes the given fields of an event (found by id or slug) and keeps all others.',
    args: {
      id: t.arg.id({ description: 'The event\'s id.' }),
      slug: t.arg.string({ description: 'The event\'s slug.' }),
      password: t.arg.string({ description: 'The event\'s password, when it is password protected.' }),
      input: t.arg({ type: UpdateEventInput, required: true, description: 'The changes.' }),
      expectedVersion: t.arg.string({ description: EXPECTED_VERSION_HELP }),
    },
    resolve: (_root, args, { calendar }) => calendar.writes.updateEvent(recordRef(args, 'event'), args.input, args.password ?? undefined, args.expectedVersion ?? undefined),
  }),
  deleteEvent: t.field({
    type: EventRef,
    nullable: true,
    description: 'Moves an event (found by id or slug) to the trash and returns it; deleting it again is a GONE error.',
    args: {
      id: t.arg.id({ description: 'The event\'s id.' }),
      slug: t.arg.string({ description: 'The event\'s slug.' }),
      password: t.arg.string({ description: 'The event\'s password, when it is password protected.' }),
    },
    resolve: (_root, args, { calendar }) => calendar.writes.deleteEvent(recordRef(args, 'event'), args.password ?? undefined),
  }),
}));
