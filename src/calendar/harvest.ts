/**
 * The calendar records an answer holds that may answer a later read by id or slug (see
 * `core/harvest.ts`; the shapes each source carries: docs/upstreams/calendar-records.md). Only
 * complete, published records: an event listed blanked (password-protected: its booleans `null`),
 * a venue or organizer whose name is `[]` (password-protected) or that is not published (a read by
 * id may refuse it) never answers a lookup. Terms are left out: embedded ones have another shape.
 */
import { venueList } from './normalize.js';
import type { WireEvent, WireOrganizer, WireVenue } from './wire.js';

export type RecordKind = 'events' | 'venues' | 'organizers';

export interface HeldRecord {
  kind: RecordKind;
  id: number;
  slug?: string;
  body: object;
}

const FLAGS = ['all_day', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'] as const;

/** A password-protected event as the archive lists it: content withheld, its booleans `null`. */
export const isBlanked = (e: WireEvent): boolean => FLAGS.some((f) => e[f] === null);

function linked(kind: 'venues' | 'organizers', r: WireVenue | WireOrganizer | undefined): HeldRecord[] {
  if (!r || typeof r.id !== 'number' || r.status !== 'publish') return [];
  const name = kind === 'venues' ? (r as WireVenue).venue : (r as WireOrganizer).organizer;
  return typeof name === 'string' ? [{ kind, id: r.id, slug: r.slug, body: r }] : [];
}

function event(e: WireEvent | undefined): HeldRecord[] {
  if (!e || typeof e.id !== 'number' || e.status !== 'publish' || isBlanked(e)) return [];
  return [
    { kind: 'events', id: e.id, slug: e.slug, body: e },
    ...venueList(e.venue).flatMap((v) => linked('venues', v)),
    ...(Array.isArray(e.organizer) ? e.organizer : []).flatMap((o) => linked('organizers', o)),
  ];
}

/** The records in an answer of `kind`: one record (`single`) or an archive page. */
export function heldRecords(kind: string, body: unknown, single: boolean): HeldRecord[] {
  if (kind !== 'events' && kind !== 'venues' && kind !== 'organizers') return [];
  const items = single ? [body] : (body as Record<string, unknown> | null)?.[kind];
  if (!Array.isArray(items)) return [];
  return items.flatMap((item: unknown) =>
    kind === 'events' ? event(item as WireEvent) : linked(kind, item as WireVenue | WireOrganizer),
  );
}
