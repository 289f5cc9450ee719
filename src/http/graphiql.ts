/** What GraphiQL opens with: the two headline traversals, so a newcomer sees the graph at once. */
export const defaultGraphiQLQuery = /* GraphQL */ `
  # Entity -> links -> counterpart, and event -> venue -> organizer, each in one query.
  # extensions.cost in the response shows what each cost upstream and the account budget left.

  query EntityGraph {
    entities(kind: AI_SYSTEM, first: 5) {
      totalCount
      nodes {
        id
        name
        type {
          name
        }
        links(first: 5) {
          nodes {
            label
            counterpart {
              name
              kind
              entity {
                number
                name
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

  query EventGraph {
    events(first: 5) {
      nodes {
        title
        startDate
        venue {
          name
          city
          events(first: 3) {
            nodes {
              title
            }
          }
        }
        organizers {
          name
          email
        }
      }
    }
  }
`;
