/**
 * The Venue type, its events, and the venue queries.
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import { VERSION_HELP } from '../../graph/write-args.js';
import { venueVersion } from '../versions.js';
import { recordRef } from '../inputs.js';
import { byIdOrSlugArgs, linkedPostListArgs, linkedPosts } from './linked-post.js';
import { eventsOf } from './paged.js';
import { recordEventsArgs } from './event-filter.js';
import { EventConnection, EventRef, LinkedPostRef, VenueConnection, VenueRef } from './refs.js';

VenueRef.implement({
  description: 'A place where calendar events happen.',
  interfaces: [LinkedPostRef],
  fields: (t) => ({
    version: t.string({ nullable: false, description: VERSION_HELP, resolve: (v) => venueVersion(v) }),
    address: t.exposeString('address', { description: 'The street address.' }),
    city: t.exposeString('city', { description: 'The city.' }),
    country: t.exposeString('country', { description: 'The country.' }),
    province: t.exposeString('province', { description: 'The province, for countries that have provinces.' }),
    state: t.exposeString('state', { description: 'The state, for countries that have states.' }),
    stateProvince: t.exposeString('stateProvince', { description: 'The state or province as one value.' }),
    zip: t.exposeString('zip', { description: 'The postal code.' }),
    latitude: t.exposeFloat('latitude', { description: 'The latitude, when the site geocodes venues.' }),
    longitude: t.exposeFloat('longitude', { description: 'The longitude, when the site geocodes venues.' }),
    showMap: t.exposeBoolean('showMap', { description: 'Whether the site shows a map of the venue.' }),
    showMapLink: t.exposeBoolean('showMapLink', {
      description: 'Whether the site shows a link to a map of the venue.',
    }),
    events: t.connection(
      {
        type: EventRef,
        description:
          "Events at this venue, in start order (the upstream's default window unless the filter gives dates).",
        args: recordEventsArgs('venues', 'venue'),
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
    description: 'One venue by id or by slug (give exactly one); null when there is no such venue.',
    args: byIdOrSlugArgs('venue'),
    resolve: (_root, args, { calendar }) => {
      const ref = recordRef(args, 'venue');
      return 'id' in ref ? calendar.loaders.venue.load(ref.id) : calendar.loaders.venueBySlug.load(ref.slug);
    },
  }),
  venues: t.connection(
    {
      ...requires('calendar:read'),
      type: VenueRef,
      description: 'Venues, filtered.',
      args: linkedPostListArgs('venues'),
      resolve: (_root, args, { calendar }) => linkedPosts(calendar, args, 'venues', calendar.loaders.venues),
    },
    VenueConnection,
  ),
}));
