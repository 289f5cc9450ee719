/**
 * The Organizer type, its events, and the organizer queries.
 */
import { VERSION_HELP } from '../../graph/write-args.js';
import { organizerVersion } from '../versions.js';
import { linkedPostQueries } from './linked-post.js';
import { recordEventsField } from './record-events.js';
import { LinkedPostRef, OrganizerRef } from './refs.js';

OrganizerRef.implement({
  description: 'A person or organisation that runs calendar events.',
  interfaces: [LinkedPostRef],
  fields: (t) => ({
    version: t.string({ nullable: false, description: VERSION_HELP, resolve: (o) => organizerVersion(o) }),
    email: t.exposeString('email', { description: 'The contact email address.' }),
  }),
});

recordEventsField(OrganizerRef, 'organizer', 'by this organizer');
linkedPostQueries('organizer', OrganizerRef);
