/**
 * Lower bounds, computed from the emulators' own data and independently of the gateway: each walker
 * reads the emulator's REST API the way its GraphQL query reads the graph, and records every upstream
 * resource the query needs that no earlier payload of the same query already holds (an entity that
 * came in full with the search page is not fetched again; a vendor or deleted link end has no entity
 * to fetch). It also records the depth at which each resource is first needed: the critical path is
 * the deepest level, because a level can only start once the level above it has answered.
 *
 * The walkers run with injected latency switched off and their requests are cleared from the logs.
 */
import type { LinksPage, RelatedEntityLink, SpringPage, EntityInformation } from '../src/governance/wire.js';
import type { WireEvent, WireEventsPage, WireVenue } from '../src/calendar/wire.js';

export type UpstreamName = 'governance' | 'calendar';

export interface LowerBound {
  /** Distinct upstream requests the query needs, per upstream. */
  requests: Record<UpstreamName, number>;
  /** Longest chain of requests that must follow one another. */
  depth: number;
  /** Requests needed at each level (level 1 first), per upstream. */
  levels: Record<UpstreamName, number[]>;
  /** The resources themselves (see `resourceKey`), to check the gateway fetched these very ones. */
  resources: Record<UpstreamName, string[]>;
  /** The level each resource is first needed at, keyed `upstream resourceKey` (absent: level 1). */
  levelOf?: Record<string, number>;
  /** Ids the query's top-level list holds, to check the gateway answered the same records. */
  topIds: string[];
}

/** Query parameters that tell one resource from another; sizes, sorts and date windows do not. */
const IDENTIFYING = ['entityTypeName', 'organizer', 'page', 'venue'];
const DEFAULT_PAGE: Record<UpstreamName, number> = { governance: 0, calendar: 1 };

/** `METHOD /path?identifying=params`, the same for a walked resource and a logged request. */
export function resourceKey(
  upstream: UpstreamName,
  method: string,
  path: string,
  query: Record<string, string | number>,
): string {
  const params = new Map<string, string>();
  for (const k of IDENTIFYING) if (query[k] !== undefined && query[k] !== '') params.set(k, String(query[k]));
  // Only lists have pages; a list asked for without `page` gets the upstream's first.
  const list = path === '/entities/search' || path === '/events' || path.endsWith('/links/pages');
  if (list && !params.has('page')) params.set('page', String(DEFAULT_PAGE[upstream]));
  const qs = [...params]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return `${method} ${path}${qs ? `?${qs}` : ''}`;
}

class Needs {
  private readonly seen = new Map<string, number>();
  readonly resources: Record<UpstreamName, string[]> = { governance: [], calendar: [] };
  readonly levels: Record<UpstreamName, number[]> = { governance: [], calendar: [] };

  need(upstream: UpstreamName, resource: string, level: number): void {
    const key = `${upstream} ${resource}`;
    if (this.seen.has(key)) return;
    this.seen.set(key, level);
    this.resources[upstream].push(resource);
    const levels = this.levels[upstream];
    while (levels.length < level) levels.push(0);
    levels[level - 1]!++;
  }

  result(topIds: string[]): LowerBound {
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    return {
      requests: { governance: sum(this.levels.governance), calendar: sum(this.levels.calendar) },
      depth: Math.max(this.levels.governance.length, this.levels.calendar.length),
      levels: this.levels,
      resources: this.resources,
      levelOf: Object.fromEntries(this.seen),
      topIds,
    };
  }
}

export interface GovernanceAccess {
  apiRoot: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
}

const AI_KINDS = new Set(['models', 'datasets', 'aisystems', 'aiagents']);
/** The governance API's largest page. */
const GOVERNANCE_PAGE = 50;
/** The calendar API clamps per_page to 50. */
const CALENDAR_PAGE = 50;

async function token(access: GovernanceAccess): Promise<string> {
  const form = new FormData();
  form.set('grant_type', 'client_credentials');
  form.set('client_id', access.clientId);
  form.set('client_secret', access.clientSecret);
  const res = await fetch(access.tokenUrl, { method: 'POST', body: form });
  if (!res.ok) throw new Error(`lower bound: token request answered ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`lower bound: ${init.method ?? 'GET'} ${new URL(url).pathname} answered ${res.status}`);
  return (await res.json()) as T;
}

/** Workload 1: AI systems (first n), their links (first `linksFirst`), each counterpart's entity. */
export async function entityGraphBound(access: GovernanceAccess, n: number, linksFirst: number): Promise<LowerBound> {
  const bearer = { authorization: `Bearer ${await token(access)}`, 'content-type': 'application/json' };
  const needs = new Needs();
  const systems: EntityInformation[] = [];
  for (let page = 0; systems.length < n; page++) {
    const size = Math.min(GOVERNANCE_PAGE, n);
    needs.need(
      'governance',
      resourceKey('governance', 'POST', '/entities/search', { entityTypeName: 'aisystems', page }),
      1,
    );
    const body = await json<SpringPage<EntityInformation>>(
      `${access.apiRoot}/entities/search?entityTypeName=aisystems&page=${page}&size=${size}`,
      { method: 'POST', headers: bearer, body: '{}' },
    );
    systems.push(...body.content);
    if (body.last) break;
  }
  const top = systems.slice(0, n);
  // Entities that arrived in full with the search page need no fetch of their own.
  const inPayload = new Set(top.map((e) => e.id));
  const pages = await Promise.all(
    top.map((system) => {
      needs.need(
        'governance',
        resourceKey(
          'governance',
          'POST',
          `/linked-entity-types/entity-types/names/aisystems/entities/${system.id}/links/pages`,
          {},
        ),
        2,
      );
      return json<LinksPage<RelatedEntityLink>>(
        `${access.apiRoot}/linked-entity-types/entity-types/names/aisystems/entities/${system.id}/links/pages?page=0&size=${linksFirst}`,
        { method: 'POST', headers: bearer, body: JSON.stringify({ fullText: '' }) },
      ).then((p) => ({ system, links: p.content }));
    }),
  );
  for (const { system, links } of pages) {
    for (const link of links) {
      const other = link.source.id === system.id ? link.target : link.source;
      if (other.deleted || !AI_KINDS.has(other.entityType.name) || inPayload.has(other.id)) continue;
      needs.need('governance', resourceKey('governance', 'GET', `/entities/${other.id}`, {}), 3);
    }
  }
  return needs.result(top.map((e) => e.id));
}

/**
 * Workload 2: events (first n) with venue and organizers, each one's next `nextFirst` events. Each
 * venue's and organizer's list is a request of its own: the lists share a combined request only
 * once earlier answers told their totals, which a cold operation has not seen
 * (docs/decisions/batched-event-lists.md).
 */
export async function eventGraphBound(calendarApiRoot: string, n: number, _nextFirst: number): Promise<LowerBound> {
  const needs = new Needs();
  const events: WireEvent[] = [];
  for (let page = 1; events.length < n; page++) {
    needs.need('calendar', resourceKey('calendar', 'GET', '/events', { page }), 1);
    const body = await json<WireEventsPage>(
      `${calendarApiRoot}/events?page=${page}&per_page=${Math.min(CALENDAR_PAGE, n)}`,
    );
    events.push(...body.events);
    if (page >= body.total_pages) break;
  }
  const top = events.slice(0, n);
  for (const event of top) {
    // The venue and organizers come embedded in the event; their own event lists do not.
    const venues: WireVenue[] = Array.isArray(event.venue) ? event.venue : [event.venue];
    for (const venue of venues)
      needs.need('calendar', resourceKey('calendar', 'GET', '/events', { venue: venue.id }), 2);
    for (const organizer of event.organizer)
      needs.need('calendar', resourceKey('calendar', 'GET', '/events', { organizer: organizer.id }), 2);
  }
  return needs.result(top.map((e) => String(e.id)));
}

/** Workload 3: one list read in pages that do not depend on one another (depth 1). */
export async function fanOutBound(
  access: GovernanceAccess,
  calendarApiRoot: string,
  entitiesFirst: number,
  eventsFirst: number,
): Promise<LowerBound> {
  const needs = new Needs();
  const bearer = { authorization: `Bearer ${await token(access)}`, 'content-type': 'application/json' };
  const entities = await json<SpringPage<EntityInformation>>(`${access.apiRoot}/entities/search?page=0&size=1`, {
    method: 'POST',
    headers: bearer,
    body: '{}',
  });
  const events = await json<WireEventsPage>(`${calendarApiRoot}/events?page=1&per_page=1`);
  const entityPages = Math.ceil(Math.min(entitiesFirst, entities.totalElements) / GOVERNANCE_PAGE);
  const eventPages = Math.ceil(Math.min(eventsFirst, events.total) / CALENDAR_PAGE);
  for (let p = 0; p < Math.max(1, entityPages); p++)
    needs.need('governance', resourceKey('governance', 'POST', '/entities/search', { page: p }), 1);
  for (let p = 1; p <= Math.max(1, eventPages); p++)
    needs.need('calendar', resourceKey('calendar', 'GET', '/events', { page: p }), 1);
  return needs.result([
    `entities:${Math.min(entitiesFirst, entities.totalElements)}`,
    `events:${Math.min(eventsFirst, events.total)}`,
  ]);
}
