import { graphql } from 'relay-runtime';

export const entityLinksQuery = graphql`
  query EntityLinksQuery($id: ID!, $first: Int!, $after: String) {
    entity(id: $id) {
      ...EntityLinks_entity @arguments(first: $first, after: $after)
    }
  }
`;

export const entityLinks = graphql`
  fragment EntityLinks_entity on Entity @argumentDefinitions(first: { type: "Int!" }, after: { type: "String" }) {
    id
    name
    links(first: $first, after: $after) @connection(key: "EntityLinks_links") {
      totalCount
      pageInfo {
        endCursor
        hasNextPage
      }
      edges {
        node {
          id
          label
          counterpart {
            id
            name
            typeName
          }
        }
      }
    }
  }
`;
