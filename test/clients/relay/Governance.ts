import { graphql } from 'relay-runtime';

/**
 * Every governance record type at once, inline (no fragments), so a read is plain data: records,
 * their links' ends (other records of the same list), summaries of the same records, their types.
 */
export const governanceQuery = graphql`
  query GovernanceQuery($first: Int!) {
    entities(first: $first) {
      edges {
        node {
          id
          name
          kind
          type {
            id
            name
          }
          workflowStage {
            id
            name
          }
          attributes {
            name
            values {
              id
              value
            }
          }
          links(first: 5) {
            edges {
              node {
                id
                label
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
                }
              }
            }
          }
        }
      }
    }
    entitySummaries(first: 20) {
      nodes {
        id
        name
        displayLabel
      }
    }
    entityTypes(first: 20) {
      nodes {
        id
        name
      }
    }
  }
`;
