/**
 * Opaque record versions for optimistic concurrency: a hash of a record's writable fields. Not the
 * upstream's modification time: WordPress's `modified` has one-second resolution and misses edits
 * made within the same second; the hash changes with every change that matters to an edit form.
 */
import { createHash } from 'node:crypto';
import type { CalendarEvent, CalendarOrganizer, CalendarTerm, CalendarVenue } from '../calendar/model.js';
import type { EntityInformation } from '../governance/wire.js';

export function versionOf(fields: unknown): string {
  return createHash('sha256').update(JSON.stringify(fields)).digest('base64url').slice(0, 22);
}

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

export const entityVersion = (e: EntityInformation): string =>
  versionOf([
    'entity',
    e.name,
    e.orgGroupId ?? null,
    e.entityDetail ?? null,
    e.attributes ?? null,
    e.workflowAndStage?.stageId ?? null,
  ]);
