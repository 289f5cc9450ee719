/**
 * What an upstream call is worth to the estimate: page sizes, assumed list sizes, the known extra
 * costs of some fields and which upstream serves which type. Read by the operation estimate
 * (`http/plugins/operation-cost.ts`) and by the `@cost`/`@listSize` directives the subgraph SDL
 * carries for routers (`graph/cost-directives.ts`), so both count the same calls.
 */
import type { UpstreamName } from './errors.js';
import { UPSTREAM_PAGE_SIZE } from './pages.js';

export interface CostModel {
  /** Largest page an upstream returns (both upstreams: `UPSTREAM_PAGE_SIZE`). */
  upstreamPageSize: number;
  /** Items assumed for `first`/`last` when neither is given (the connections' default page). */
  defaultPageSize: number;
  /** Largest `first`/`last` the gateway accepts: a larger one is refused as BAD_USER_INPUT before any call. */
  maxPageSize: number;
  /** Items assumed in a plain (not paginated) list, for what is below it. */
  assumedListSize: number;
  /**
   * Known calls of a field, per item, by `Type.field`; on a root field they replace its one call (0:
   * none). Upper bounds: a write's reads before it (a slug to an id, a version check, the record a
   * delete payload returns) are counted whether or not the arguments ask for them.
   */
  fieldCosts: Record<string, FieldCost>;
  /**
   * Filters the gateway completes itself (the upstream cannot), by `Type.field`: with one of `args`
   * given, a page reads upstream pages of `upstreamPageSize` until it is full, the list ends, or it
   * has read `filterScanPages` of them: the pages its items need plus `extraPages` to skip the rows
   * the filter drops. The estimate counts all of them.
   */
  gatewayFilters: Record<string, { args: string[]; extraPages: number }>;
  /** Which upstream serves a type, by name prefix; the first match wins, else `defaultUpstream`. */
  typeUpstreams: { prefix: string; upstream: UpstreamName }[];
  defaultUpstream: UpstreamName;
}

export interface FieldCost {
  upstream: UpstreamName;
  calls: number;
  /** Free when the selection below asks for these fields only (what the parent already holds). */
  freeBelow?: readonly string[];
  /**
   * One more call for each of these members of the `input` argument that is given: a list the write
   * resolves first (an event's categories and tags, read as one page of each taxonomy's terms).
   */
  perInput?: readonly string[];
}

/** Writes by their reads before the write: `calls` in all, on `upstream`. */
const writes = (upstream: UpstreamName, calls: number, fields: string[]) =>
  Object.fromEntries(fields.map((f) => [`Mutation.${f}`, { upstream, calls }]));

const TERMS = ['categories', 'tags'];

/** The fields a link end answers from the link itself (entity.ts, link-end.ts); `entity` is priced on its own. */
const LINK_END_FREE = [
  '__typename',
  'id',
  'databaseId',
  'name',
  'type',
  'kind',
  'typeName',
  'typeDisplayName',
  'deleted',
  'options',
  'entity',
];
const linkEnds = (fields: string[]) =>
  Object.fromEntries(
    fields.map((f) => [`GovernanceLink.${f}`, { upstream: 'governance' as const, calls: 1, freeBelow: LINK_END_FREE }]),
  );
const CALENDAR_RECORDS = ['Event', 'Venue', 'Organizer', 'Category', 'Tag', 'Calendar'];

export const defaultCostModel: CostModel = {
  upstreamPageSize: UPSTREAM_PAGE_SIZE,
  defaultPageSize: 20,
  maxPageSize: 500,
  // Plain lists are short embedded ones (an event's organizers, categories); what lies below them
  // rarely costs calls, and the execution-time budget still catches a longer list.
  assumedListSize: 3,
  fieldCosts: {
    // One record read per item (DataLoader shares repeats; the estimate does not count on that).
    'EntitySummary.entity': { upstream: 'governance', calls: 1 },
    'GovernanceLinkEnd.entity': { upstream: 'governance', calls: 1 },
    // A link end is an Entity with what the link shows of it; a field beyond that reads the record.
    ...linkEnds(['source', 'target', 'counterpart', 'entity1', 'entity2']),
    // What only the link record holds, read by id for a link an entity's list showed.
    ...Object.fromEntries(
      ['schemaId', 'attributes', 'createdBy', 'lastModifiedBy'].map((f) => [
        `GovernanceLink.${f}`,
        { upstream: 'governance' as const, calls: 1 },
      ]),
    ),
    'Category.parent': { upstream: 'calendar', calls: 1 },
    // Terms by id are read in one batch (`include=`); an unknown id fails it, and each is then read alone.
    'Query.category': { upstream: 'calendar', calls: 2 },
    'Query.tag': { upstream: 'calendar', calls: 2 },
    // The full entity type, read when a field beyond the reference a record embeds is asked for.
    'Entity.type': {
      upstream: 'governance',
      calls: 1,
      freeBelow: ['__typename', 'id', 'databaseId', 'name', 'kind', 'displayName'],
    },
    // The record and its type (for the workflow), then the move.
    ...writes('governance', 3, ['moveEntityToStage']),
    // Each end's record (for its kind), then the link.
    ...writes('governance', 3, ['createLink']),
    // A version check, or the record a delete payload returns, then the write.
    ...writes('governance', 2, ['updateEntity', 'deleteEntity', 'deleteLink']),
    // A slug resolved to an id, the record (for a version check or to merge into), then the write.
    ...writes('calendar', 3, ['updateVenue', 'updateOrganizer']),
    // The terms an event names, checked against the site's before the write (calendar/term-refs.ts).
    'Mutation.createEvent': { upstream: 'calendar', calls: 1, perInput: TERMS },
    'Mutation.updateEvent': { upstream: 'calendar', calls: 3, perInput: TERMS },
    ...writes('calendar', 2, ['deleteEvent', 'deleteVenue', 'deleteOrganizer', 'updateCategory', 'updateTag']),
    // Read from the gateway's own counters: a root field that calls no upstream.
    'Query.budget': { upstream: 'governance', calls: 0 },
    // Who is calling, from the request's own credentials.
    'Query.viewer': { upstream: 'governance', calls: 0 },
    // Served from the discovery registry (configuration and what was seen), never from a call.
    'Query.organizations': { upstream: 'governance', calls: 0 },
    'Query.relationshipTypes': { upstream: 'governance', calls: 0 },
  },
  gatewayFilters: {
    // 200 records a page of 20: the 61 AI systems of the emulated tenant are two pages.
    'Query.entities': { args: ['stage', 'stages'], extraPages: 3 },
    // An entity has a few links; two pages of 50 hold them all for nearly every record.
    'Entity.links': { args: ['counterpartKinds'], extraPages: 1 },
  },
  typeUpstreams: CALENDAR_RECORDS.flatMap((record) => [record, `Delete${record}`]).map((prefix) => ({
    prefix,
    upstream: 'calendar' as const,
  })),
  defaultUpstream: 'governance',
};

/** The filter the gateway completes on a field, when one of its arguments is given (a non-empty list or a value). */
export function gatewayFilterOf(
  field: string,
  args: Record<string, unknown>,
  model: CostModel = defaultCostModel,
): { extraPages: number } | undefined {
  const filter = model.gatewayFilters[field];
  const given = (v: unknown) => v != null && !(Array.isArray(v) && v.length === 0);
  return filter?.args.some((a) => given(args[a])) ? filter : undefined;
}

/** Upstream pages a page of `items` filtered by the gateway may read (see `gatewayFilters`). */
export function filterScanPages(items: number, extraPages: number, model: CostModel = defaultCostModel): number {
  return Math.ceil(Math.max(1, items) / model.upstreamPageSize) + extraPages;
}
