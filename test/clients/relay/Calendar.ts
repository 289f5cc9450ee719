import { graphql } from 'relay-runtime';

/** Every calendar record type at once, inline (no fragments), so a read is plain data. */
export const calendarQuery = graphql`
  query CalendarQuery($first: Int!) {
    events(first: $first) {
      edges {
        node {
          id
          title
          startDate
          venue {
            id
            name
            city
          }
          organizers {
            id
            name
          }
          categories {
            id
            name
            slug
          }
          tags {
            id
            name
            slug
          }
          image {
            id
            url
          }
        }
      }
    }
    categories(first: 50) {
      nodes {
        id
        name
        slug
      }
    }
    tags(first: 50) {
      nodes {
        id
        name
        slug
      }
    }
    venues(first: 20) {
      nodes {
        id
        name
        city
      }
    }
    organizers(first: 20) {
      nodes {
        id
        name
      }
    }
  }
`;
