/**
 * Event writes. `updateEvent` changes only the fields given (the service re-sends the rest, see
 * `../writes.ts`); `deleteEvent` moves the event to the trash and returns it.
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import { idempotentCreate } from '../../graph/idempotency.js';
import { CLIENT_MUTATION_ID_HELP, EXPECTED_VERSION_HELP } from '../../graph/write-args.js';
import { badInput } from '../../graph/errors.js';
import { refuseNulls } from '../../graph/update-input.js';
import type { LiveScope } from '../../live/scope.js';
import type { CalendarEvent } from '../model.js';
import { eventVersion } from '../versions.js';
import type { EventInput } from '../writes.js';
import { recordRef } from '../inputs.js';
import { statusInput, type PostStatusValue } from './post-status.js';
import { CreateOrganizerInput, CreateVenueInput, postStatusFields } from './record-inputs.js';
import { DeleteEventPayload, deleted } from './delete-payloads.js';
import { EventRef } from './refs.js';

const DATE_HELP =
  "A wall clock without an offset (`2027-03-01 18:00:00`) is read in the event's time zone; a value with an offset is converted to it.";

const TERMS_HELP =
  'One the site does not have is a BAD_USER_INPUT listing the known slugs, before any write, unless `createMissingTerms` is true (then an unknown name creates the term).';

const CREATE_MISSING_TERMS_HELP =
  'Create the categories and tags that `input` names by a name or slug the site does not have. Off by default: an unknown one is then refused (BAD_USER_INPUT listing the known slugs) and nothing is written.';

/** What `updateEvent` lets `null` clear (see docs/api-conventions.md). */
const CLEARABLE = ['venueId', 'organizerIds'] as const;

/** The graph's event input: the writer's (`../writes.ts`) with whole days and the PostStatus enum. */
type EventArgs = Omit<EventInput, 'status'> & {
  startDay?: string | null;
  endDay?: string | null;
  postStatus?: PostStatusValue | null;
  status?: string | null;
};

const eventFields = (create: boolean) =>
  builder.inputRef<EventArgs>(create ? 'CreateEventInput' : 'UpdateEventInput').implement({
    description: create ? 'A new calendar event.' : 'Changes to a calendar event; fields left out keep their values.',
    fields: (t) => ({
      title: t.string({ required: create, description: 'The title as plain text.' }),
      startDate: t.field({
        type: 'DateTime',
        description: `When the event starts${create ? ' (this or `startDay` is required)' : ''}. ${DATE_HELP}`,
      }),
      endDate: t.field({
        type: 'DateTime',
        description: `When the event ends${create ? ' (this or `endDay` is required)' : ''}. ${DATE_HELP}`,
      }),
      startDay: t.field({
        type: 'Date',
        description: 'The first day of an all-day event, instead of `startDate`; makes the event all-day.',
      }),
      endDay: t.field({
        type: 'Date',
        description: 'The last day of an all-day event, instead of `endDate`; makes the event all-day.',
      }),
      timezone: t.string({ description: "The event's time zone, e.g. `Europe/Berlin`; the site's when left out." }),
      allDay: t.boolean({ description: 'Whether the event lasts whole days.' }),
      description: t.string({ description: 'The description, as HTML.' }),
      excerpt: t.string({ description: 'The excerpt, as HTML.' }),
      slug: t.string({ description: 'The URL slug; derived from the title when left out.' }),
      ...postStatusFields(t, 'PUBLISH or DRAFT'),
      image: t.string({ description: 'The featured image, as an attachment id or an image URL to import.' }),
      cost: t.string({ description: 'The cost as text, e.g. `$10` or `5 - 20`.' }),
      website: t.string({ description: "The event's website URL." }),
      showMap: t.boolean({ description: 'Whether to show a map of the venue.' }),
      showMapLink: t.boolean({ description: 'Whether to show a link to a map of the venue.' }),
      hideFromListings: t.boolean({ description: 'Whether to hide the event from calendar lists.' }),
      sticky: t.boolean({ description: 'Whether to pin the event to the top of month views.' }),
      featured: t.boolean({ description: 'Whether the event is featured.' }),
      categories: t.stringList({
        description: `The categories, by id, slug or name; replaces the current ones. ${TERMS_HELP}`,
      }),
      tags: t.stringList({ description: `The tags, by id, slug or name; replaces the current ones. ${TERMS_HELP}` }),
      venueId: t.id({
        description: create
          ? 'An existing venue for the event.'
          : 'An existing venue for the event; null removes the venue.',
      }),
      venue: t.field({
        type: CreateVenueInput,
        description: create
          ? 'A new venue to create with the event (instead of `venueId`).'
          : 'A new venue to create and give the event instead of its current one (instead of `venueId`).',
      }),
      organizerIds: t.idList({
        description: create
          ? 'Existing organizers of the event.'
          : 'Existing organizers of the event, replacing the current ones; null or [] removes them.',
      }),
      organizers: t.field({
        type: [CreateOrganizerInput],
        description: create
          ? 'New organizers to create with the event (added to `organizerIds`).'
          : 'New organizers to create and add to the event: to those of `organizerIds`, or to the current ones when `organizerIds` is left out.',
      }),
    }),
  });

const CreateEventInput = eventFields(true);
const UpdateEventInput = eventFields(false);

/** The graph's input as the writer's: whole days become wall clocks of an all-day event, and the status one string. */
function eventInput(input: EventArgs, create: boolean): EventInput {
  const { startDay, endDay, postStatus, status, ...rest } = input;
  const out: EventInput = { ...rest, status: statusInput(postStatus, status, 'input.postStatus') };
  for (const [day, full, time] of [
    ['startDay', 'startDate', '00:00:00'],
    ['endDay', 'endDate', '23:59:59'],
  ] as const) {
    const value = day === 'startDay' ? startDay : endDay;
    if (value != null && input[full] != null)
      throw badInput(`Give "input.${full}" or "input.${day}", not both.`, `input.${day}`);
    if (value != null) {
      out[full] = `${value} ${time}`;
      if (out.allDay == null) out.allDay = true;
    }
    if (create && out[full] == null) throw badInput(`Give "input.${full}" or "input.${day}".`, `input.${full}`);
  }
  return out;
}

/** The event an update or delete is of: by id or slug, with its password when it has one. */
const eventArgs = () =>
  builder.args((t) => ({
    id: t.id({ description: "The event's id." }),
    slug: t.string({ description: "The event's slug." }),
    password: t.string({ description: "The event's password, when it is password protected." }),
  }));

/** Tells subscribers on any replica that the event changed (or is gone), and returns it. */
function published(live: LiveScope, event: CalendarEvent, gone: { deleted?: true } = {}): CalendarEvent {
  live.bus.eventChanged({
    id: String(event.id),
    origin: 'gateway',
    ...(gone.deleted ? gone : { version: eventVersion(event) }),
  });
  return event;
}

builder.mutationFields((t) => ({
  createEvent: t.field({
    ...requires('calendar:write'),
    type: EventRef,
    description: 'Creates an event, with an existing or a new venue and organizers.',
    args: {
      input: t.arg({ type: CreateEventInput, required: true, description: 'The new event.' }),
      createMissingTerms: t.arg.boolean({ description: CREATE_MISSING_TERMS_HELP }),
      clientMutationId: t.arg.string({ description: CLIENT_MUTATION_ID_HELP }),
    },
    resolve: (_root, { input, createMissingTerms, clientMutationId }, { calendar, idempotency, live }, info) =>
      idempotentCreate(
        idempotency,
        info,
        { upstream: 'calendar', identity: calendar.client.writerIdentity },
        { input, createMissingTerms },
        clientMutationId,
        async () =>
          published(
            live,
            await calendar.writes.createEvent(eventInput(input, true), {
              createMissingTerms: createMissingTerms ?? false,
            }),
          ),
      ),
  }),
  updateEvent: t.field({
    ...requires('calendar:write'),
    type: EventRef,
    description:
      'Changes the given fields of an event (found by id or slug) and keeps all others; NOT_FOUND when there is no such event, GONE when it is in the trash.',
    args: {
      ...eventArgs(),
      input: t.arg({ type: UpdateEventInput, required: true, description: 'The changes.' }),
      createMissingTerms: t.arg.boolean({ description: CREATE_MISSING_TERMS_HELP }),
      expectedVersion: t.arg.string({ description: EXPECTED_VERSION_HELP }),
    },
    resolve: async (_root, args, { calendar, live }) => {
      const ref = recordRef(args, 'event');
      refuseNulls(args.input, CLEARABLE);
      const input = eventInput(args.input, false);
      return published(
        live,
        await calendar.writes.updateEvent(ref, input, {
          password: args.password ?? undefined,
          expectedVersion: args.expectedVersion ?? undefined,
          createMissingTerms: args.createMissingTerms ?? false,
        }),
      );
    },
  }),
  deleteEvent: t.field({
    ...requires('calendar:write'),
    type: DeleteEventPayload,
    description:
      'Moves an event (found by id or slug) to the trash; NOT_FOUND when there is no such event, GONE when it is already in the trash.',
    args: eventArgs(),
    resolve: async (_root, args, { calendar, live }) => {
      const event = await calendar.writes.deleteEvent(recordRef(args, 'event'), args.password ?? undefined);
      return deleted(published(live, event, { deleted: true }));
    },
  }),
}));
