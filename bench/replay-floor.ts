/**
 * The replay's floor: the upstream calls an ideal cache would make for the operations actually sent.
 *
 * Each operation needs upstream resources, each as one request of its own: an event page its event
 * (`GET /events/{id}`, whose answer embeds the venue and organizers the page shows); a list page that
 * page of the events list; a venue (organizer) page the venue (organizer) and its next 3 events; an
 * EventGraph page its page of the events list (which embeds each event's venue and organizers) and
 * the next 3 events of each venue and organizer on it. The ideal cache fetches a resource at the first
 * operation that needs it and keeps it fresh for the freshness bound from then on; the next operation
 * that needs it after that fetches it again. It takes no credit for records that arrived inside other
 * answers (an event inside a list page, a venue inside an event): a gateway that reuses those can go
 * below this floor.
 */
import type { ReplayOp } from './replay-traffic.js';

/** A listed event as the floor needs it: where it is and who organises it. */
export interface ListedEvent {
  id: number;
  venueIds: number[];
  organizerIds: number[];
}

export interface FloorShape {
  /** The listed events in list order. */
  listing: ListedEvent[];
  listPageSize: number;
  graphPageSize: number;
}

export function resourcesOf(op: ReplayOp, shape: FloorShape): string[] {
  switch (op.kind) {
    case 'event':
      return [`event:${op.key}`];
    case 'eventsPage':
      return [`eventsPage:${op.key}`];
    case 'venue':
      return [`venue:${op.key}`, `venueEvents:${op.key}`];
    case 'organizer':
      return [`organizer:${op.key}`, `organizerEvents:${op.key}`];
    case 'eventGraph': {
      const size = shape.graphPageSize;
      const events = shape.listing.slice(op.key * size, (op.key + 1) * size);
      // The EventGraph's `venue` is the event's first venue.
      const venues = events.flatMap((e) => e.venueIds.slice(0, 1).map((v) => `venueEvents:${v}`));
      const organizers = events.flatMap((e) => e.organizerIds.map((o) => `organizerEvents:${o}`));
      return [...new Set([`eventGraphPage:${op.key}`, ...venues, ...organizers])];
    }
  }
}

/** The floor's calls in all and per kind of resource (the part before the colon). */
export function floorCalls(ops: ReplayOp[], shape: FloorShape, freshMs: number) {
  const freshUntil = new Map<string, number>();
  const byResource: Record<string, number> = {};
  let calls = 0;
  for (const op of [...ops].sort((a, b) => a.at - b.at)) {
    for (const resource of resourcesOf(op, shape)) {
      if ((freshUntil.get(resource) ?? -Infinity) > op.at) continue;
      freshUntil.set(resource, op.at + freshMs);
      const kind = resource.slice(0, resource.indexOf(':'));
      byResource[kind] = (byResource[kind] ?? 0) + 1;
      calls++;
    }
  }
  return { calls, byResource };
}
