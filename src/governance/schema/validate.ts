/**
 * Argument checks and the list helper shared by the governance fields. Every check runs before the
 * first upstream call, so a bad argument costs the account nothing.
 */
import {
  listKeyOf,
  resolveOffsetConnection,
  type ConnectionArgs,
  type Connection,
  type OffsetListOptions,
} from '../../graph/paging.js';
import { badInput } from '../../graph/errors.js';
import { UPSTREAM_PAGE_SIZE } from '../../core/pages.js';
import { resolveFilteredConnection } from '../../graph/filtered-paging.js';
import { defaultCostModel, filterScanPages } from '../../core/cost-model.js';
import type { PageRequest } from '../client.js';
import type { GovernanceScope } from '../service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Governance ids are uuids: anything else is refused with the argument's name. */
export function uuidArg(value: string | number, argument: string): string {
  const text = String(value);
  if (!UUID.test(text)) throw badInput(`"${argument}" must be a uuid (got "${text.slice(0, 60)}").`, argument);
  return text.toLowerCase();
}

export function nonEmptyArg(value: string, argument: string, max = 255): string {
  const text = value.trim();
  if (text.length === 0) throw badInput(`"${argument}" must not be empty.`, argument);
  if (text.length > max) throw badInput(`"${argument}" must be at most ${max} characters long.`, argument);
  return text;
}

/** The names and descriptions of a governance list's connection and edge types (the SDL documents them). */
export function connectionTypes(name: string, page: string, edge: string) {
  return [
    {
      name: `${name}Connection`,
      description: page,
      edgesField: { description: 'The items of this page, each with its cursor.' },
    },
    { name: `${name}Edge`, description: edge, nodeField: { description: 'The item itself.' } },
  ] as const;
}

/** A filter the gateway completes itself, where the upstream cannot (`graph/filtered-paging.ts`). */
interface GatewayFilter<T> {
  /** Its entry in the cost model's `gatewayFilters`, which bounds the pages read, so the estimate and the reads agree. */
  costField: string;
  /** The filter's argument, for the refusal of `last`/`before`. */
  argument: string;
  keep: (item: T) => boolean;
}

/**
 * A governance list as a Relay connection, keyed by `field` and its arguments (a missing page is an
 * empty list); with `filter`, read in whole upstream pages of 50 and filtered by the gateway.
 */
export function governanceList<T>(
  scope: GovernanceScope,
  field: string,
  args: ConnectionArgs,
  fetch: (page: PageRequest) => Promise<{ content: T[]; totalElements: number } | null>,
  { defaultPageSize = 20, filter }: { defaultPageSize?: number; filter?: GatewayFilter<T> } = {},
): Promise<Connection<T>> {
  const list: OffsetListOptions<T> = {
    args,
    listKey: listKeyOf(field, { ...args }),
    maxPageSize: scope.maxPageSize,
    defaultPageSize,
    upstreamMaxSize: UPSTREAM_PAGE_SIZE,
    firstPageIndex: 0,
    fetchPage: async (page, size, kind) => {
      const res = await fetch({ page, size, kind });
      return { items: res?.content ?? [], total: res?.totalElements ?? 0 };
    },
  };
  if (!filter) return resolveOffsetConnection(list);
  const { extraPages } = defaultCostModel.gatewayFilters[filter.costField]!;
  return resolveFilteredConnection({
    ...list,
    argument: filter.argument,
    keep: filter.keep,
    maxPages: (items) => filterScanPages(items, extraPages),
  });
}
