/**
 * The Organizer type, its events, and the organizer queries.
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import { VERSION_HELP } from '../../graph/write-args.js';
import { organizerVersion } from '../versions.js';
import { recordRef } from '../inputs.js';
import { byIdOrSlugArgs, linkedPostListArgs, linkedPosts } from './linked-post.js';
import { eventsOf } from './paged.js';
import { recordEventsArgs } from './event-filter.js';
import { EventConnection, EventRef, LinkedPostRef, OrganizerConnection, OrganizerRef } from './refs.js';

OrganizerRef.implement({
  description: 'A person or organisation that runs calendar events.',
  interfaces: [LinkedPostRef],
  fields: (t) => ({
    version: t.string({ nullable: false, description: VERSION_HELP, resolve: (o) => organizerVersion(o) }),
    email: t.exposeString('email', { description: 'The contact email address.' }),
    events: t.connection(
      {
        type: EventRef,
        description:
          "Events by this organizer, in start order (the upstream's default window unless the filter gives dates).",
        args: recordEventsArgs('organizers', 'organizer'),
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
    description: 'One organizer by id or by slug (give exactly one); null when there is no such organizer.',
    args: byIdOrSlugArgs('organizer'),
    resolve: (_root, args, { calendar }) => {
      const ref = recordRef(args, 'organizer');
      return 'id' in ref ? calendar.loaders.organizer.load(ref.id) : calendar.loaders.organizerBySlug.load(ref.slug);
    },
  }),
  organizers: t.connection(
    {
      ...requires('calendar:read'),
      type: OrganizerRef,
      description: 'Organizers, filtered.',
      args: linkedPostListArgs('organizers'),
      resolve: (_root, args, { calendar }) => linkedPosts(calendar, args, 'organizers', calendar.loaders.organizers),
    },
    OrganizerConnection,
  ),
}));
