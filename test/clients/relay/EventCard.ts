import { graphql } from 'relay-runtime';

export const eventCardListQuery = graphql`
  query EventCardListQuery($first: Int!) {
    events(first: $first) {
      edges {
        node {
          ...EventCard_event
        }
      }
    }
  }
`;

export const eventCard = graphql`
  fragment EventCard_event on Event @refetchable(queryName: "EventCardRefetchQuery") {
    id
    title
    startDate
    version
    venue {
      id
      name
    }
    categories {
      id
      name
    }
  }
`;
