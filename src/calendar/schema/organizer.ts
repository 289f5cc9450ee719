/**
 * The Organizer type, its events, and the organizer queries.
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import { organizerVersion } from '../versions.js';
import { PostStatus, statusInput } from './post-status.js';
import { listKeyOf } from '../../graph/paging.js';
import { postListQuery, recordRef } from '../inputs.js';
import { eventsOf, pagedConnection } from './paged.js';
import { EventFilter } from './event-filter.js';
import { EventConnection, EventRef, LinkedPostRef, OrganizerConnection, OrganizerRef } from './refs.js';

OrganizerRef.implement({
  description: 'A person or organisation that runs calendar events.',
  interfaces: [LinkedPostRef],
  fields: (t) => ({
    version: t.string({
      nullable: false,
      description:
        'Opaque version of the writable fields; pass it as `expectedVersion` to an update so that it fails with CONFLICT instead of overwriting a change made since.',
      resolve: (o) => organizerVersion(o),
    }),
    email: t.exposeString('email', { nullable: true, description: 'The contact email address.' }),
    events: t.connection(
      {
        type: EventRef,
        nullable: true,
        description:
          "Events by this organizer, in start order (the upstream's default window unless the filter gives dates).",
        args: {
          filter: t.arg({
            type: EventFilter,
            description: 'Further conditions on the events; not `organizers`, which this organizer decides.',
          }),
        },
        resolve: (organizer, args, { calendar }) => eventsOf(calendar, args, 'organizer', organizer.id),
      },
      EventConnection,
    ),
  }),
});

builder.queryFields((t) => ({
  organizer: t.field({
    ...requires('calendar:read'),
    type: OrganizerRef,
    nullable: true,
    description: 'One organizer by id or by slug (give exactly one); null when there is no such organizer.',
    args: {
      id: t.arg.id({ description: "The organizer's WordPress id." }),
      slug: t.arg.string({ description: "The organizer's slug." }),
    },
    resolve: (_root, args, { calendar }) => {
      const ref = recordRef(args, 'organizer');
      return 'id' in ref ? calendar.loaders.organizer.load(ref.id) : calendar.loaders.organizerBySlug.load(ref.slug);
    },
  }),
  organizers: t.connection(
    {
      ...requires('calendar:read'),
      type: OrganizerRef,
      nullable: true,
      description: 'Organizers, filtered.',
      args: {
        search: t.arg.string({
          description: 'Only organizers with this text in their name, description or custom fields.',
        }),
        eventId: t.arg.id({ description: 'Only the organizers of this event.' }),
        hasEvents: t.arg.boolean({ description: 'Only organizers with (true) or without (false) events.' }),
        onlyWithUpcoming: t.arg.boolean({ description: 'Only organizers with upcoming events.' }),
        postStatus: t.arg({ type: PostStatus, description: 'Only organizers with this post status.' }),
        status: t.arg.string({
          description: 'Only organizers with this post status, as the upstream spells it.',
          deprecationReason: 'Use `postStatus`, the PostStatus enum.',
        }),
      },
      resolve: (_root, args, { calendar }) => {
        const query = postListQuery({ ...args, status: statusInput(args.postStatus, args.status, 'postStatus') });
        return pagedConnection(calendar, args, listKeyOf('organizers', query), calendar.loaders.organizers, query);
      },
    },
    OrganizerConnection,
  ),
}));
