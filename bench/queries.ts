/**
 * The operations the workloads send. EntityGraph and EventGraph are the headline traversals of
 * src/operations/ (the acceptance contract's field names and shapes); the fan-out ones are plain
 * large lists.
 */
import { print } from 'graphql';
import { EntityGraphDocument, EventGraphDocument } from '../src/generated/graphql.js';

export const ENTITY_GRAPH = print(EntityGraphDocument);

export const EVENT_GRAPH = print(EventGraphDocument);

export const FAN_OUT_ENTITIES = /* GraphQL */ `
  query FanOutEntities($first: Int!) {
    entities(first: $first) {
      totalCount
      nodes {
        id
        name
        kind
      }
    }
  }
`;

export const FAN_OUT_EVENTS = /* GraphQL */ `
  query FanOutEvents($first: Int!) {
    events(first: $first) {
      totalCount
      nodes {
        id
        title
        startDate
      }
    }
  }
`;

export const TYPENAME = '{ __typename }';

/** The ids of the top-level list of a result (`entities` or `events`), to compare with the walker's. */
export function topIds(data: unknown): string[] {
  const root = (data ?? {}) as Record<string, { nodes?: { id: string }[] } | undefined>;
  const list = root.entities ?? root.events;
  return (list?.nodes ?? []).map((n) => String(n.id));
}
