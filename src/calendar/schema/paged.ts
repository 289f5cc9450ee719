/** Calendar lists (`page`/`per_page` upstream) as Relay connections. */
import type DataLoader from 'dataloader';
import { resolveOffsetConnection, type ConnectionArgs } from '../../graph/paging.js';
import type { WireQuery } from '../client.js';
import { UPSTREAM_PAGE_SIZE } from '../../core/pages.js';
import type { Page, PageKey } from '../loaders.js';
import type { CalendarScope } from '../service.js';

/**
 * A Relay connection over one calendar list: pages of at most 50 (`page` counted from 1), fetched
 * through a per-request loader so identical pages are fetched once. A page past the end is the end
 * of the list; the total then comes from the list's first page. Records whose id is in `exclude`
 * are left out by the gateway (the upstream has no such filter).
 */
export function pagedConnection<T extends { id: number }>(
  scope: CalendarScope,
  args: ConnectionArgs,
  listKey: string,
  loader: DataLoader<PageKey, Page<T>, string>,
  query: WireQuery,
  exclude: readonly number[] = [],
) {
  return resolveOffsetConnection<T>({
    args,
    listKey: exclude.length ? `${listKey}:exclude:${exclude.join(',')}` : listKey,
    exclude: exclude.length ? { size: exclude.length, has: (row) => exclude.includes(row.id) } : undefined,
    maxPageSize: scope.maxPageSize,
    upstreamMaxSize: UPSTREAM_PAGE_SIZE,
    firstPageIndex: 1,
    fetchPage: async (page, size, kind) => {
      const got = await loader.load({ query, page, size, kind });
      if (got) return got;
      const first = await loader.load({ query, page: 1, size: 1 });
      return { items: [], total: first?.total ?? 0 };
    },
  });
}
