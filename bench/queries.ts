/**
 * The operations the workloads send. EntityGraph and EventGraph use the acceptance contract's field
 * names and shapes (the public graph); the fan-out ones are plain large lists.
 */
export const ENTITY_GRAPH = /* GraphQL */ `
  query EntityGraph($first: Int!) {
    entities(kind: AI_SYSTEM, first: $first) {
      nodes {
        id
        name
        type {
          name
        }
        links(first: 10) {
          totalCount
          nodes {
            id
            label
            relationshipType {
              id
              name
            }
            source {
              id
              name
            }
            target {
              id
              name
            }
            counterpart {
              id
              name
              typeName
              kind
              deleted
              entity {
                id
                number
                name
                kind
                type {
                  name
                }
                workflowStage {
                  name
                }
              }
            }
          }
        }
      }
    }
  }
`;

export const EVENT_GRAPH = /* GraphQL */ `
  query EventGraph($first: Int!) {
    events(first: $first) {
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
