/**
 * Argument checks and the list helper shared by the governance fields. Every check runs before the
 * first upstream call, so a bad argument costs the account nothing.
 */
import {
  resolveOffsetConnection,
  validateConnectionArgs,
  type ConnectionArgs,
  type Connection,
  type FetchedPage,
} from '../../graph/paging.js';
import type { PageKind } from '../../core/upstream-pipeline.js';
import { badInput } from '../../graph/errors.js';
import { INPUT_LIMITS } from '../../graph/input-limits.js';
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

export function checkPaging(scope: GovernanceScope, args: ConnectionArgs, listKey: string): void {
  validateConnectionArgs(args, scope.maxPageSize, listKey);
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

export function governanceConnection<T>(
  scope: GovernanceScope,
  args: ConnectionArgs,
  listKey: string,
  fetchPage: (page: number, size: number, kind: PageKind) => Promise<FetchedPage<T>>,
  defaultPageSize = 20,
): Promise<Connection<T>> {
  return resolveOffsetConnection({
    args,
    listKey,
    maxPageSize: scope.maxPageSize,
    upstreamMaxSize: UPSTREAM_MAX_PAGE,
    firstPageIndex: 0,
    defaultPageSize,
    fetchPage,
  });
}
