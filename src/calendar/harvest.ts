/**
 * The calendar records an answer holds that may answer a later read by id or slug (see
 * `core/harvest.ts`). What each source carries, next to the read it would answer (facts §1.2-1.5,
 * the emulator's serialize.ts, calendar-samples/):
 *
 * | source                                   | record            | against `GET /{kind}/{id}`          | kept            |
 * | ---------------------------------------- | ----------------- | ----------------------------------- | --------------- |
 * | `GET /events` item                       | event             | all but `json_ld`                   | yes             |
 * | `GET /events` item, password-protected   | event             | content blanked, booleans `null`    | never           |
 * | event (list, single, write) `venue`      | venue             | all but `json_ld`                   | yes             |
 * | event (list, single, write) `organizer`  | organizers        | all but `json_ld`                   | yes             |
 * | `GET /venues`, `GET /organizers` item    | venue / organizer | all but `json_ld`                   | yes             |
 * | single GET by id / by slug               | the other form    | the same answer                     | yes             |
 * | create / update answer                   | the record        | all but `json_ld`                   | same credential |
 * | venue / organizer, password-protected    | venue / organizer | name `[]`, fields blanked           | never           |
 * | embedded `categories`, `tags`            | term              | another shape (facts §1.6)          | never           |
 *
 * The gateway reads no `json_ld` (test/record-reuse.test.ts). Only published records are kept: a
 * read by id may refuse another status (a draft venue inside a published event, a trashed record).
 * An event write that needed the event's password is not kept (its read by id would be refused).
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

/**
 * The records in an answer of `kind`: one record (`single`) or an archive page; each once (the
 * events of a venue's list all embed that venue).
 */
export function heldRecords(kind: string, body: unknown, single: boolean): HeldRecord[] {
  if (kind !== 'events' && kind !== 'venues' && kind !== 'organizers') return [];
  const items = single ? [body] : (body as Record<string, unknown> | null)?.[kind];
  if (!Array.isArray(items)) return [];
  const held = new Map<string, HeldRecord>();
  for (const item of items as unknown[])
    for (const r of kind === 'events' ? event(item as WireEvent) : linked(kind, item as WireVenue | WireOrganizer))
      if (!held.has(`${r.kind}:${r.id}`)) held.set(`${r.kind}:${r.id}`, r);
  return [...held.values()];
}
