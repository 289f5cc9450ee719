/** The versions of calendar records (`expectedVersion` of the writes): see `src/core/versions.ts`. */
import { versionOf } from '../core/versions.js';
import type { CalendarEvent, CalendarOrganizer, CalendarTerm, CalendarVenue } from './model.js';

const ids = (list: { id: number }[]) => list.map((x) => x.id).sort((a, b) => a - b);

/** Words of a space-separated list, as a union. */
type Words<S extends string> = S extends `${infer Head} ${infer Tail}` ? Head | Words<Tail> : S;
/** The values of the named fields (space-separated, each a field of `record`), in that order. */
const fields = <T, S extends string>(record: T, names: S & ([Words<S>] extends [keyof T] ? S : never)) =>
  names.split(' ').map((name) => record[name as keyof T]);

export const eventVersion = (e: CalendarEvent): string =>
  versionOf([
    'event',
    ...fields(e, 'title description excerpt slug status startDate endDate allDay timezone cost website showMap'),
    ...fields(e, 'showMapLink hideFromListings sticky featured'),
    e.image?.url ?? null,
    ids(e.categories),
    ids(e.tags),
    ids(e.venues),
    ids(e.organizers),
  ]);

export const venueVersion = (v: CalendarVenue): string =>
  versionOf([
    'venue',
    ...fields(v, 'name slug status description address city country province state stateProvince zip phone website'),
    v.image?.url ?? null,
    ...fields(v, 'showMap showMapLink'),
  ]);

export const organizerVersion = (o: CalendarOrganizer): string =>
  versionOf(['organizer', o.name, o.slug, o.status, o.description, o.phone, o.website, o.email, o.image?.url ?? null]);

export const termVersion = (t: CalendarTerm): string => versionOf(['term', t.name, t.slug, t.description, t.parentId]);
