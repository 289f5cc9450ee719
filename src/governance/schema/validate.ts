/**
 * Argument checks and the list helper shared by the governance fields. Every check runs before the
 * first upstream call, so a bad argument costs the account nothing.
 */
import {
  listKeyOf,
  resolveOffsetConnection,
  validateConnectionArgs,
  type ConnectionArgs,
  type Connection,
} from '../../graph/paging.js';
import { badInput } from '../../graph/errors.js';
import { resolveFilteredConnection } from '../../graph/filtered-paging.js';
import { defaultCostModel, filterScanPages } from '../../core/cost-model.js';
import { INPUT_LIMITS } from '../../graph/input-limits.js';
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

export function searchArg(value: string | null | undefined, argument = 'search'): string | undefined {
  if (value == null) return undefined;
  if (value.length > INPUT_LIMITS.search)
    throw badInput(`"${argument}" must be at most ${INPUT_LIMITS.search} characters long.`, argument);
  return value;
}

/** The upstream's page size cap on every paged governance operation. */
const UPSTREAM_MAX_PAGE = 50;

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

/**
 * A governance list as a Relay connection, keyed by `field` and its arguments: the paging arguments
 * are checked first, then the pages it needs are fetched (a missing page is an empty list).
 */
export function governanceList<T>(
  scope: GovernanceScope,
  field: string,
  args: ConnectionArgs,
  fetch: (page: PageRequest) => Promise<{ content: T[]; totalElements: number } | null>,
  defaultPageSize = 20,
): Promise<Connection<T>> {
  const listKey = listKeyOf(field, { ...args });
  validateConnectionArgs(args, scope.maxPageSize, listKey);
  return resolveOffsetConnection({
    args,
    listKey,
    maxPageSize: scope.maxPageSize,
    upstreamMaxSize: UPSTREAM_MAX_PAGE,
    firstPageIndex: 0,
    defaultPageSize,
    fetchPage: async (page, size, kind) => {
      const res = await fetch({ page, size, kind });
      return { items: res?.content ?? [], total: res?.totalElements ?? 0 };
    },
  });
}

/**
 * A governance list the gateway filters itself (`graph/filtered-paging.ts`), keyed like
 * `governanceList`: whole upstream pages of 50, at most as many as the cost model's
 * `gatewayFilters` entry for `costField` allows, so the estimate and the reads agree.
 */
export function governanceFilteredList<T>(
  scope: GovernanceScope,
  field: string,
  costField: string,
  args: ConnectionArgs,
  argument: string,
  fetch: (page: PageRequest) => Promise<{ content: T[]; totalElements: number } | null>,
  keep: (item: T) => boolean,
  defaultPageSize = 20,
): Promise<Connection<T>> {
  const { extraPages } = defaultCostModel.gatewayFilters[costField]!;
  return resolveFilteredConnection({
    args,
    listKey: listKeyOf(field, { ...args }),
    maxPageSize: scope.maxPageSize,
    defaultPageSize,
    upstreamMaxSize: UPSTREAM_MAX_PAGE,
    firstPageIndex: 0,
    maxPages: (items) => filterScanPages(items, extraPages),
    argument,
    keep,
    fetchPage: async (page, size, kind) => {
      const res = await fetch({ page, size, kind });
      return { items: res?.content ?? [], total: res?.totalElements ?? 0 };
    },
  });
}
