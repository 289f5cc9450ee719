import { graphql } from 'relay-runtime';

export const entityListQuery = graphql`
  query EntityListQuery($first: Int!, $after: String) {
    ...EntityList_query @arguments(first: $first, after: $after)
  }
`;

export const entityList = graphql`
  fragment EntityList_query on Query
  @refetchable(queryName: "EntityListPaginationQuery")
  @argumentDefinitions(first: { type: "Int!" }, after: { type: "String" }) {
    entities(first: $first, after: $after) @connection(key: "EntityList_entities") {
      totalCount
      pageInfo {
        endCursor
        hasNextPage
      }
      edges {
        node {
          id
          ...EntityCard_entity
        }
      }
    }
  }
`;
