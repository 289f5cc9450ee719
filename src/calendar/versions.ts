/** The versions of calendar records (`expectedVersion` of the writes): see `src/core/versions.ts`. */
import { versionOf } from '../core/versions.js';
import type { CalendarEvent, CalendarOrganizer, CalendarTerm, CalendarVenue } from './model.js';

const ids = (list: { id: number }[]) => list.map((x) => x.id).sort((a, b) => a - b);

export const eventVersion = (e: CalendarEvent): string =>
  versionOf([
    'event',
    e.title,
    e.description,
    e.excerpt,
    e.slug,
    e.status,
    e.startDate,
    e.endDate,
    e.allDay,
    e.timezone,
    e.cost,
    e.website,
    e.showMap,
    e.showMapLink,
    e.hideFromListings,
    e.sticky,
    e.featured,
    e.image?.url ?? null,
    ids(e.categories),
    ids(e.tags),
    ids(e.venues),
    ids(e.organizers),
  ]);

export const venueVersion = (v: CalendarVenue): string =>
  versionOf([
    'venue',
    v.name,
    v.slug,
    v.status,
    v.description,
    v.address,
    v.city,
    v.country,
    v.province,
    v.state,
    v.stateProvince,
    v.zip,
    v.phone,
    v.website,
    v.image?.url ?? null,
    v.showMap,
    v.showMapLink,
  ]);

export const organizerVersion = (o: CalendarOrganizer): string =>
  versionOf(['organizer', o.name, o.slug, o.status, o.description, o.phone, o.website, o.email, o.image?.url ?? null]);

export const termVersion = (t: CalendarTerm): string => versionOf(['term', t.name, t.slug, t.description, t.parentId]);
