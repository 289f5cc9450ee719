/**
 * The Venue type, its events, and the venue queries.
 */
import { VERSION_HELP } from '../../graph/write-args.js';
import { venueVersion } from '../versions.js';
import { linkedPostQueries } from './linked-post.js';
import { recordEventsField } from './record-events.js';
import { LinkedPostRef, VenueRef } from './refs.js';

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
  }),
});

recordEventsField(VenueRef, 'venue', 'at this venue');
linkedPostQueries('venue', VenueRef);
