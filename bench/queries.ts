/**
 * The operations the workloads send. EntityGraph and EventGraph are the headline traversals of
 * src/operations/ (the acceptance contract's field names and shapes); the fan-out ones are plain
 * large lists.
 */
import { print } from 'graphql';
import { decodeGlobalId } from '../src/core/global-id.js';
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

/** The upstream id a global id holds (anything else as it is), to compare with the emulators' ids. */
export const upstreamId = (id: unknown): string => decodeGlobalId(String(id))?.id ?? String(id);

/** The upstream ids of the top-level list of a result (`entities` or `events`), to compare with the walker's. */
export function topIds(data: unknown): string[] {
  const root = (data ?? {}) as Record<string, { nodes?: { id: string }[] } | undefined>;
  const list = root.entities ?? root.events;
  return (list?.nodes ?? []).map((n) => upstreamId(n.id));
}

/**
 * The replay's pages (workload 15, replay.ts): what a calendar frontend asks for. An event page: the
 * event with its venue and organizers; a list page: a page of the events list; a venue or organizer
 * page: the record with its next 3 events; an EventGraph page: the EventGraph traversal on a page of 5.
 */
export const REPLAY_EVENT = /* GraphQL */ `
  query ReplayEvent($id: ID!) {
    event(id: $id) {
      id
      title
      startDate
      endDate
      cost
      website
      venue {
        id
        name
        address
        city
        country
      }
      organizers {
        id
        name
        email
      }
    }
  }
`;

export const REPLAY_EVENTS_PAGE = /* GraphQL */ `
  query ReplayEventsPage($first: Int!, $after: String) {
    events(first: $first, after: $after) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        title
        startDate
        venue {
          id
          name
          city
        }
      }
    }
  }
`;

const NEXT_EVENTS = `
        events(first: 3) {
          nodes {
            id
            title
            startDate
          }
        }`;

export const REPLAY_VENUE = /* GraphQL */ `
  query ReplayVenue($id: ID!) {
    venue(id: $id) {
      id
      name
      address
      city
      country
      website${NEXT_EVENTS}
    }
  }
`;

export const REPLAY_ORGANIZER = /* GraphQL */ `
  query ReplayOrganizer($id: ID!) {
    organizer(id: $id) {
      id
      name
      email
      website${NEXT_EVENTS}
    }
  }
`;

export const REPLAY_EVENT_GRAPH = /* GraphQL */ `
  query ReplayEventGraph($first: Int!, $after: String) {
    events(first: $first, after: $after) {
      nodes {
        id
        title
        startDate
        venue {
          id
          name
          city
          country
          events(first: 3) {
            nodes {
              id
              title
            }
          }
        }
        organizers {
          id
          name
          email
          events(first: 3) {
            nodes {
              id
              title
              venue {
                id
                name
              }
            }
          }
        }
      }
    }
  }
`;
