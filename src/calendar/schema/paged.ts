/** Calendar lists (`page`/`per_page` upstream) as Relay connections. */
import type DataLoader from 'dataloader';
import { badInput } from '../../graph/errors.js';
import { listKeyOf, resolveOffsetConnection, type ConnectionArgs } from '../../graph/paging.js';
import type { WireQuery } from '../client.js';
import { eventsQuery, type EventFilterInput } from '../inputs.js';
import { UPSTREAM_MAX_PAGE, type Page, type PageKey } from '../loaders.js';
import type { CalendarScope } from '../service.js';

/**
 * A Relay connection over one calendar list: pages of at most 50 (`page` counted from 1), fetched
 * through a per-request loader so identical pages are fetched once. A page past the end is the end
 * of the list; the total then comes from the list's first page.
 */
export function pagedConnection<T>(
  scope: CalendarScope,
  args: ConnectionArgs,
  listKey: string,
  loader: DataLoader<PageKey, Page<T>, string>,
  query: WireQuery,
) {
  return resolveOffsetConnection<T>({
    args,
    listKey,
    maxPageSize: scope.maxPageSize,
    upstreamMaxSize: UPSTREAM_MAX_PAGE,
    firstPageIndex: 1,
    fetchPage: async (page, size, kind) => {
      const got = await loader.load({ query, page, size, kind });
      if (got) return got;
      const first = await loader.load({ query, page: 1, size: 1 });
      return { items: [], total: first?.total ?? 0 };
    },
  });
}

const FILTER_OF = { venue: 'venues', organizer: 'organizers', categories: 'categories', tags: 'tags' } as const;

/**
 * The events of one venue, organizer, category or tag: the filter plus that record under its wire
 * name. The filter may not name other records of the same kind: the record itself replaces them.
 * One traversal asks for the same list many times (a venue's events under each of its 20 events):
 * the loader shares the upstream page, and the request's memo shares the connection built on it.
 */
export function eventsOf(
  scope: CalendarScope,
  args: ConnectionArgs & { filter?: EventFilterInput | null },
  wireKey: keyof typeof FILTER_OF,
  id: number,
): ReturnType<typeof recordEvents> {
  const key = `${wireKey}:${id}:${JSON.stringify(args)}`;
  const known = scope.loaders.connections.get(key) as ReturnType<typeof recordEvents> | undefined;
  if (known) return known;
  const connection = recordEvents(scope, args, wireKey, id);
  scope.loaders.connections.set(key, connection);
  return connection;
}

function recordEvents(
  scope: CalendarScope,
  args: ConnectionArgs & { filter?: EventFilterInput | null },
  wireKey: keyof typeof FILTER_OF,
  id: number,
) {
  const field = FILTER_OF[wireKey];
  if (args.filter?.[field]?.length)
    throw badInput(
      `"filter.${field}" cannot be used here: the events are already those of this record.`,
      `filter.${field}`,
    );
  const query = { ...eventsQuery(args.filter), [wireKey]: [id] };
  return pagedConnection(
    scope,
    args,
    listKeyOf(`${wireKey}:${id}:events`, { filter: query }),
    scope.loaders.events,
    query,
  );
}
