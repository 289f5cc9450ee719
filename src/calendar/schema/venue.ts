/**
 * The Venue type, its events, and the venue queries.
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import { venueVersion } from '../versions.js';
import { PostStatus, statusInput } from './post-status.js';
import { listKeyOf } from '../../graph/paging.js';
import { postListQuery, recordRef } from '../inputs.js';
import { eventsOf, pagedConnection } from './paged.js';
import { EventFilter } from './event-filter.js';
import { EventConnection, EventRef, LinkedPostRef, VenueConnection, VenueRef } from './refs.js';

VenueRef.implement({
  description: 'A place where calendar events happen.',
  interfaces: [LinkedPostRef],
  fields: (t) => ({
    version: t.string({
      nullable: false,
      description:
        'Opaque version of the writable fields; pass it as `expectedVersion` to an update so that it fails with CONFLICT instead of overwriting a change made since.',
      resolve: (v) => venueVersion(v),
    }),
    address: t.exposeString('address', { nullable: true, description: 'The street address.' }),
    city: t.exposeString('city', { nullable: true, description: 'The city.' }),
    country: t.exposeString('country', { nullable: true, description: 'The country.' }),
    province: t.exposeString('province', {
      nullable: true,
      description: 'The province, for countries that have provinces.',
    }),
    state: t.exposeString('state', { nullable: true, description: 'The state, for countries that have states.' }),
    stateProvince: t.exposeString('stateProvince', {
      nullable: true,
      description: 'The state or province as one value.',
    }),
    zip: t.exposeString('zip', { nullable: true, description: 'The postal code.' }),
    latitude: t.exposeFloat('latitude', {
      nullable: true,
      description: 'The latitude, when the site geocodes venues.',
    }),
    longitude: t.exposeFloat('longitude', {
      nullable: true,
      description: 'The longitude, when the site geocodes venues.',
    }),
    showMap: t.exposeBoolean('showMap', { nullable: true, description: 'Whether the site shows a map of the venue.' }),
    showMapLink: t.exposeBoolean('showMapLink', {
      nullable: true,
      description: 'Whether the site shows a link to a map of the venue.',
    }),
    events: t.connection(
      {
        type: EventRef,
        nullable: true,
        description:
          "Events at this venue, in start order (the upstream's default window unless the filter gives dates).",
        args: {
          filter: t.arg({
            type: EventFilter,
            description: 'Further conditions on the events; not `venues`, which this venue decides.',
          }),
        },
        resolve: (venue, args, { calendar }) => eventsOf(calendar, args, 'venue', venue.id),
      },
      EventConnection,
    ),
  }),
});

builder.queryFields((t) => ({
  venue: t.field({
    ...requires('calendar:read'),
    type: VenueRef,
    nullable: true,
    description: 'One venue by id or by slug (give exactly one); null when there is no such venue.',
    args: {
      id: t.arg.id({ description: "The venue's WordPress id." }),
      slug: t.arg.string({ description: "The venue's slug." }),
    },
    resolve: (_root, args, { calendar }) => {
      const ref = recordRef(args, 'venue');
      return 'id' in ref ? calendar.loaders.venue.load(ref.id) : calendar.loaders.venueBySlug.load(ref.slug);
    },
  }),
  venues: t.connection(
    {
      ...requires('calendar:read'),
      type: VenueRef,
      nullable: true,
      description: 'Venues, filtered.',
      args: {
        search: t.arg.string({
          description: 'Only venues with this text in their name, description or custom fields.',
        }),
        eventId: t.arg.id({ description: 'Only the venues of this event.' }),
        hasEvents: t.arg.boolean({ description: 'Only venues with (true) or without (false) events.' }),
        onlyWithUpcoming: t.arg.boolean({ description: 'Only venues with upcoming events.' }),
        postStatus: t.arg({ type: PostStatus, description: 'Only venues with this post status.' }),
        status: t.arg.string({
          description: 'Only venues with this post status, as the upstream spells it.',
          deprecationReason: 'Use `postStatus`, the PostStatus enum.',
        }),
      },
      resolve: (_root, args, { calendar }) => {
        const query = postListQuery({ ...args, status: statusInput(args.postStatus, args.status, 'postStatus') });
        return pagedConnection(calendar, args, listKeyOf('venues', query), calendar.loaders.venues, query);
      },
    },
    VenueConnection,
  ),
}));
