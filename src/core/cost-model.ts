/**
 * What an upstream call is worth to the estimate: page sizes, assumed list sizes, the known extra
 * costs of some fields and which upstream serves which type. Read by the operation estimate
 * (`http/plugins/operation-cost.ts`) and by the `@cost`/`@listSize` directives the subgraph SDL
 * carries for routers (`graph/cost-directives.ts`), so both count the same calls.
 */
import type { UpstreamName } from './errors.js';

export interface CostModel {
  /** Largest page an upstream returns (both upstreams: 50). */
  upstreamPageSize: number;
  /** Items assumed for `first`/`last` when neither is given (the connections' default page). */
  defaultPageSize: number;
  /** Largest `first`/`last` the gateway accepts: a larger one is refused as BAD_USER_INPUT before any call. */
  maxPageSize: number;
  /** Items assumed in a plain (not paginated) list, for what is below it. */
  assumedListSize: number;
  /** Known calls of a field, per item, by `Type.field`; on a root field they replace its one call (0: none). */
  fieldCosts: Record<string, { upstream: UpstreamName; calls: number }>;
  /** Which upstream serves a type, by name prefix; the first match wins, else `defaultUpstream`. */
  typeUpstreams: { prefix: string; upstream: UpstreamName }[];
  defaultUpstream: UpstreamName;
}

export const defaultCostModel: CostModel = {
  upstreamPageSize: 50,
  defaultPageSize: 20,
  maxPageSize: 500,
  // Plain lists are short embedded ones (an event's organizers, categories); what lies below them
  // rarely costs calls, and the execution-time budget still catches a longer list.
  assumedListSize: 3,
  fieldCosts: {
    // One record read per item (DataLoader shares repeats; the estimate does not count on that).
    'EntitySummary.entity': { upstream: 'governance', calls: 1 },
    'GovernanceLinkEnd.entity': { upstream: 'governance', calls: 1 },
    'Category.parent': { upstream: 'calendar', calls: 1 },
    // Read from the gateway's own counters: a root field that calls no upstream.
    'Query.budget': { upstream: 'governance', calls: 0 },
  },
  typeUpstreams: ['Event', 'Venue', 'Organizer', 'Category', 'Tag', 'Calendar'].map((prefix) => ({
    prefix,
    upstream: 'calendar' as const,
  })),
  defaultUpstream: 'governance',
};
