/**
 * `events` of a venue, organizer, category or tag: the events filter plus that record under its wire
 * name. The filter may not name other records of the same kind: the record itself replaces them.
 * One traversal asks for the same list many times (a venue's events under each of its 20 events):
 * the loader shares the upstream page, and the request's memo shares the connection built on it.
 */
import type { ObjectRef } from '@pothos/core';
import { builder, type Types } from '../../graph/builder.js';
import { badInput } from '../../graph/errors.js';
import { listKeyOf, type ConnectionArgs } from '../../graph/paging.js';
import { eventsQuery, excludedIds, type EventFilterInput } from '../inputs.js';
import type { CalendarEvent } from '../model.js';
import type { CalendarScope } from '../service.js';
import { EventFilter } from './event-filter.js';
import { pagedConnection } from './paged.js';
import { EventConnection, EventRef } from './refs.js';

/** Each kind of record: its query parameter upstream, and the filter field its events fix. */
const KINDS = {
  venue: { wire: 'venue', filter: 'venues' },
  organizer: { wire: 'organizer', filter: 'organizers' },
  category: { wire: 'categories', filter: 'categories' },
  tag: { wire: 'tags', filter: 'tags' },
} as const;

type Kind = keyof typeof KINDS;
type EventsArgs = ConnectionArgs & { filter?: EventFilterInput | null };

/** Declares `<record>.events`; `where` says how the events relate to it, e.g. `at this venue`. */
export function recordEventsField(ref: ObjectRef<Types, { id: number }>, kind: Kind, where: string) {
  builder.objectField(ref, 'events', (t) =>
    t.connection(
      {
        type: EventRef,
        description: `Events ${where}, in start order (the upstream's default window unless the filter gives dates).`,
        args: {
          filter: t.arg({
            type: EventFilter,
            description: `Further conditions on the events; not \`${KINDS[kind].filter}\`, which this ${kind} decides.`,
          }),
        },
        resolve: (record, args, { calendar }) => eventsOf(calendar, args, kind, record.id),
      },
      EventConnection,
    ),
  );
}

function eventsOf(scope: CalendarScope, args: EventsArgs, kind: Kind, id: number) {
  const { wire, filter } = KINDS[kind];
  const key = `${wire}:${id}:${JSON.stringify(args)}`;
  const known = scope.loaders.connections.get(key) as ReturnType<typeof pagedConnection<CalendarEvent>> | undefined;
  if (known) return known;
  if (args.filter?.[filter]?.length)
    throw badInput(
      `"filter.${filter}" cannot be used here: the events are already those of this record.`,
      `filter.${filter}`,
    );
  const query = { ...eventsQuery(args.filter), [wire]: [id] };
  const connection = pagedConnection(
    scope,
    args,
    listKeyOf(`${wire}:${id}:events`, { filter: query }),
    scope.loaders.events,
    query,
    excludedIds(args.filter),
  );
  scope.loaders.connections.set(key, connection);
  return connection;
}
