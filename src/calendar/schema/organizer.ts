/**
 * The Organizer type, its events, and the organizer queries.
 */
import { builder } from '../../builder.js';
import { listKeyOf } from '../../paging.js';
import { postListQuery, recordRef } from '../inputs.js';
import { HTMLScalar } from './common.js';
import { eventsOf, pagedConnection } from './paged.js';
import { EventFilter } from './event-filter.js';
import { EventConnection, EventRef, ImageRef, OrganizerConnection, OrganizerRef } from './refs.js';

OrganizerRef.implement({
  description: 'A person or organisation that runs calendar events.',
  fields: (t) => ({
    id: t.exposeID('id', { nullable: false, description: 'The WordPress post id of the organizer.' }),
    globalId: t.exposeString('globalId', { nullable: false, description: 'A stable identifier across sites (`host?id=N`); do not parse it.' }),
    name: t.exposeString('name', { nullable: false, description: 'The organizer name as plain text.' }),
    slug: t.exposeString('slug', { nullable: true, description: 'The URL slug of the organizer.' }),
    status: t.exposeString('status', { nullable: true, description: 'The post status, e.g. `publish` or `trash`.' }),
    authorId: t.exposeID('authorId', { nullable: true, description: 'The WordPress user id of the author, when known.' }),
    description: t.field({ type: HTMLScalar, nullable: true, description: 'The description as HTML, when there is one.', resolve: (o) => o.description }),
    url: t.exposeString('url', { nullable: true, description: 'The public web page of the organizer.' }),
    email: t.exposeString('email', { nullable: true, description: 'The contact email address.' }),
    phone: t.exposeString('phone', { nullable: true, description: 'The contact phone number.' }),
    website: t.exposeString('website', { nullable: true, description: 'The organizer\'s website.' }),
    image: t.field({ type: ImageRef, nullable: true, description: 'The featured image, or null.', resolve: (o) => o.image }),
    events: t.connection(
      {
        type: EventRef,
        nullable: true,
        description: 'Events by this organizer, in start order (the upstream\'s default window unless the filter gives dates).',
        args: { filter: t.arg({ type: EventFilter, description: 'Further conditions on the events; not `organizers`, which this organizer decides.' }) },
        resolve: (organizer, args, { calendar }) => eventsOf(calendar, args, 'organizer', organizer.id),
      },
      EventConnection,
    ),
  }),
});

builder.queryFields((t) => ({
  organizer: t.field({
    type: OrganizerRef,
    nullable: true,
    description: 'One organizer by id or by slug (give exactly one); null when there is no such organizer.',
    args: { id: t.arg.id({ description: 'The organizer\'s WordPress id.' }), slug: t.arg.string({ description: 'The organizer\'s slug.' }) },
    resolve: (_root, args, { calendar }) => {
      const ref = recordRef(args, 'organizer');
      return 'id' in ref ? calendar.loaders.organizer.load(ref.id) : calendar.loaders.organizerBySlug.load(ref.slug);
    },
  }),
  organizers: t.connection(
    {
      type: OrganizerRef,
      nullable: true,
      description: 'Organizers, filtered.',
      args: {
        search: t.arg.string({ description: 'Only organizers with this text in their name, description or custom fields.' }),
        eventId: t.arg.id({ description: 'Only the organizers of this event.' }),
        hasEvents: t.arg.boolean({ description: 'Only organizers with (true) or without (false) events.' }),
        onlyWithUpcoming: t.arg.boolean({ description: 'Only organizers with upcoming events.' }),
        status: t.arg.string({ description: 'Only organizers with this post status.' }),
      },
      resolve: (_root, args, { calendar }) => {
        const query = postListQuery(args);
        return pagedConnection(calendar, args, listKeyOf('organizers', query), calendar.loaders.organizers, query);
      },
    },
    OrganizerConnection,
  ),
}));
