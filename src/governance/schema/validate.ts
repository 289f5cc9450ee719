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
import { upstreamIdOf } from '../../core/global-id.js';
import { badInput } from '../../graph/errors.js';
import { UPSTREAM_PAGE_SIZE } from '../../core/pages.js';
import { resolveFilteredConnection } from '../../graph/filtered-paging.js';
import { defaultCostModel, filterScanPages } from '../../core/cost-model.js';
import type { PageRequest } from '../client.js';
import type { GovernanceScope } from '../service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The types whose global ids an argument naming a record (an entity, a link's end) takes. */
export const RECORD_IDS = ['Entity', 'EntitySummary', 'GovernanceLinkedRecord'] as const;
/** … naming a link type: a relationship type's id is its links' `linkTypeId`. */
export const LINK_TYPE_IDS = ['RelationshipType', 'GovernanceLinkType', 'KnownRelationshipType'] as const;

/** … naming an organization, and a selected option. */
export const ORGANIZATION_IDS = ['GovernanceOrganization'] as const;
export const OPTION_IDS = ['AttributeValue', 'AttributeOption', 'KnownAttributeOption'] as const;

/**
 * Governance ids are uuids, given as such or inside the global id of one of `types`: anything else
 * is refused with the argument's name.
 */
export function uuidArg(value: string | number, argument: string, types: readonly string[]): string {
  const text = upstreamIdOf(value, argument, types, (t) => UUID.test(t), 'a uuid');
  if (!UUID.test(text)) throw badInput(`"${argument}" must be a uuid (got "${text.slice(0, 60)}").`, argument);
  return text.toLowerCase();
}

/** A link's uuid, given as such or in a link's global id (which holds `<uuid>:<link type uuid>`). */
export function linkIdArg(value: string | number, argument: string): string {
  return uuidArg(
    upstreamIdOf(value, argument, ['GovernanceLink'], (t) => UUID.test(t), 'a uuid').split(':')[0]!,
    argument,
    [],
  );
}

/** The uuid a global id holds, for `node`; '' when it holds none (graph/node-ids.ts refuses it). */
export const uuidKey = (key: string): string => (UUID.test(key) ? key.toLowerCase() : '');

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
