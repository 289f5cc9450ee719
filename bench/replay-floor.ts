/**
 * The replay's floor: the upstream calls an ideal cache would make for the operations actually sent,
 * one that keeps every record and list it has seen fresh for the freshness bound and uses all of it.
 *
 * Each operation needs lists and records. An event page needs its event (`GET /events/{id}`); a list
 * page its page of the events list; a venue (organizer) page the venue (organizer) and its next 3
 * events; an EventGraph page its page of the events list and the next 3 events of each venue and
 * organizer on it (the event's first venue). The ideal cache:
 * - fetches a list when no fresh copy holds it: a smaller page of the events list inside a fresh
 *   larger one is cut from it;
 * - sends the stale venue (organizer) lists of one operation together, packed first-fit into
 *   requests of at most 50 events in all (each list's whole event list, as a combined request
 *   returns it); a list never has to go alone for a password-protected event, whose venue and
 *   organizers the list withholds (optimistic, as a floor should be);
 * - then fetches each record no fresh answer held: every list answer holds its events (but not a
 *   password-protected one, listed with its content withheld) with their venues and organizers, and
 *   an event answer its venue and organizers.
 * A fetched list or record stays fresh for the bound from the operation that fetched it.
 */
import type { ReplayOp } from './replay-traffic.js';

/** A listed event as the floor needs it: where it is, who organises it, and whether it is locked. */
export interface ListedEvent {
  id: number;
  venueIds: number[];
  organizerIds: number[];
  /** Password-protected: listed with its content (venue and organizers too) withheld. */
  locked?: boolean;
}

export interface FloorShape {
  /** The listed events in list order. */
  listing: ListedEvent[];
  listPageSize: number;
  graphPageSize: number;
}

/** The upstream's page cap: what one combined request of several lists can hold. */
const COMBINED = 50;
/** The next events a venue or organizer page shows. */
const NEXT = 3;

type Owner = 'venue' | 'organizer';
const OWNERS: Owner[] = ['venue', 'organizer'];
const listOf = (owner: Owner) => `${owner}Events` as const;

/** What one operation needs: lists first (their answers hold records), then records. */
export function needsOf(op: ReplayOp, shape: FloorShape): { lists: string[]; records: string[] } {
  switch (op.kind) {
    case 'event':
      return { lists: [], records: [`event:${op.key}`] };
    case 'eventsPage':
      return { lists: [`eventsPage:${op.key}`], records: [] };
    case 'venue':
    case 'organizer':
      return { lists: [`${listOf(op.kind)}:${op.key}`], records: [`${op.kind}:${op.key}`] };
    case 'eventGraph': {
      const size = shape.graphPageSize;
      const events = shape.listing.slice(op.key * size, (op.key + 1) * size);
      const venues = events.flatMap((e) => e.venueIds.slice(0, 1).map((v) => `venueEvents:${v}`));
      const organizers = events.flatMap((e) => e.organizerIds.map((o) => `organizerEvents:${o}`));
      return { lists: [...new Set([`eventGraphPage:${op.key}`, ...venues, ...organizers])], records: [] };
    }
  }
}

/** The floor's calls in all and per kind of resource (the part before the colon). */
export function floorCalls(ops: ReplayOp[], shape: FloorShape, freshMs: number) {
  const byOwner = {
    venue: eventsBy(shape.listing, (e) => e.venueIds),
    organizer: eventsBy(shape.listing, (e) => e.organizerIds),
  };
  const freshUntil = new Map<string, number>();
  const byResource: Record<string, number> = {};
  let calls = 0;
  let at = 0;
  const fresh = (r: string) => (freshUntil.get(r) ?? -Infinity) > at;
  const keep = (r: string) => freshUntil.set(r, at + freshMs);
  const call = (kind: string) => {
    byResource[kind] = (byResource[kind] ?? 0) + 1;
    calls++;
  };
  const hold = (events: ListedEvent[]) => {
    for (const e of events) if (!e.locked) holdEvent(e);
  };
  const holdEvent = (e: ListedEvent) => {
    keep(`event:${e.id}`);
    for (const v of e.venueIds) keep(`venue:${v}`);
    for (const o of e.organizerIds) keep(`organizer:${o}`);
  };
  const page = (kind: string, key: number) => {
    const size = kind === 'eventsPage' ? shape.listPageSize : shape.graphPageSize;
    return { from: key * size, to: (key + 1) * size };
  };
  const covered = (kind: string, key: number) => {
    if (kind !== 'eventGraphPage') return false;
    const { from, to } = page(kind, key);
    const outer = Math.floor(from / shape.listPageSize);
    return to <= (outer + 1) * shape.listPageSize && fresh(`eventsPage:${outer}`);
  };

  for (const op of [...ops].sort((a, b) => a.at - b.at)) {
    at = op.at;
    const { lists, records } = needsOf(op, shape);
    const stale = lists.filter((l) => !fresh(l));
    for (const list of stale.filter((l) => l.startsWith('events') || l.startsWith('eventGraph'))) {
      const [kind, key] = split(list);
      if (covered(kind, key)) continue;
      call(kind);
      keep(list);
      const { from, to } = page(kind, key);
      hold(shape.listing.slice(from, to));
    }
    for (const owner of OWNERS) {
      const mine = stale.filter((l) => l.startsWith(listOf(owner))).map((l) => split(l)[1]);
      for (const pack of packs(mine, byOwner[owner])) {
        call(listOf(owner));
        for (const id of pack) {
          keep(`${listOf(owner)}:${id}`);
          const events = byOwner[owner].get(id) ?? [];
          hold(pack.length > 1 ? events : events.slice(0, NEXT));
        }
      }
    }
    for (const record of records.filter((r) => !fresh(r))) {
      const [kind, id] = split(record);
      call(kind);
      keep(record);
      const event = kind === 'event' ? shape.listing.find((e) => e.id === id) : undefined;
      if (event) holdEvent(event);
    }
  }
  return { calls, byResource };
}

const split = (resource: string): [string, number] => {
  const i = resource.indexOf(':');
  return [resource.slice(0, i), Number(resource.slice(i + 1))];
};

function eventsBy(listing: ListedEvent[], owners: (e: ListedEvent) => number[]) {
  const out = new Map<number, ListedEvent[]>();
  for (const e of listing) for (const id of owners(e)) out.set(id, [...(out.get(id) ?? []), e]);
  return out;
}

/**
 * The requests that fetch these lists: first-fit packs of at most COMBINED events in all; a list of
 * more than COMBINED events alone.
 */
function packs(ids: number[], events: Map<number, ListedEvent[]>): number[][] {
  const out: { ids: number[]; rows: Set<number> }[] = [];
  const alone: number[][] = [];
  for (const id of ids) {
    const mine = events.get(id) ?? [];
    if (ids.length === 1 || mine.length > COMBINED) {
      alone.push([id]);
      continue;
    }
    const fits = out.find((p) => new Set([...p.rows, ...mine.map((e) => e.id)]).size <= COMBINED);
    if (fits) {
      fits.ids.push(id);
      for (const e of mine) fits.rows.add(e.id);
    } else out.push({ ids: [id], rows: new Set(mine.map((e) => e.id)) });
  }
  return [...out.map((p) => p.ids), ...alone];
}
