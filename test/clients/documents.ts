/**
 * The operations a frontend with a normalized cache (urql's graphcache, Apollo's InMemoryCache) sends
 * in test/clients-urql.test.ts and test/clients-apollo.test.ts: a broad read of every record type,
 * both kinds of connection (a Query field and a record's links), and a mutation whose answer updates
 * the cache. Relay's are in ./relay/, in its own dialect.
 */
import { parse } from 'graphql';

const LINK = `
  fragment LinkFull on EntityLink {
    id
    label
    direction
    createdAt
    relationshipType { id name forwardLabel reverseLabel }
    counterpart { id name kind number typeName typeDisplayName entity { id name } }
  }`;

const ENTITY = `
  fragment EntityFull on Entity {
    id
    name
    kind
    number
    version
    displayLabel
    organizationId
    createdAt
    updatedAt
    type { id name displayName kind }
    workflowStage { id name workflowName }
    createdBy { id name email }
    lastModifiedBy { id name }
    attributes { name group values { id value displayLabel valueKey colorCode disabled } }
    links(first: 3) { totalCount edges { cursor node { ...LinkFull } } pageInfo { endCursor hasNextPage } }
  }`;

export const ENTITY_PAGE = parse(`
  query EntityPage($first: Int!, $after: String, $kind: EntityKind) {
    entities(first: $first, after: $after, kind: $kind) {
      totalCount
      edges { cursor node { ...EntityFull } }
      pageInfo { endCursor hasNextPage }
    }
  }
  ${ENTITY}
  ${LINK}`);

export const ENTITY_LINKS = parse(`
  query EntityLinks($id: ID!, $first: Int!, $after: String) {
    entity(id: $id) {
      id
      name
      links(first: $first, after: $after) { edges { cursor node { ...LinkFull } } pageInfo { endCursor hasNextPage } }
    }
  }
  ${LINK}`);

export const CALENDAR = parse(`
  query CalendarPage($first: Int!) {
    events(first: $first) {
      totalCount
      edges {
        cursor
        node {
          id
          title
          startDate
          endDate
          allDay
          version
          postStatus
          venue { id name city country }
          venues { id name }
          organizers { id name email }
          categories { id name slug parent { id name } }
          tags { id name slug }
          image { id url width height sizes { name url } }
          costDetails { values currencySymbol currencyPosition }
          customFields { key label value }
        }
      }
      pageInfo { endCursor hasNextPage }
    }
    categories(first: 50) { nodes { id name slug count parent { id name } } }
    tags(first: 50) { nodes { id name slug count } }
    venues(first: 20) { nodes { id name city } }
    organizers(first: 20) { nodes { id name } }
  }`);

/** Short enough for a GET within urql's URL limit (longer queries go by POST). */
export const EVENT_TITLES = parse(`
  query EventTitles($first: Int!) {
    events(first: $first) { nodes { id title } }
  }`);

export const RENAME_ENTITY = parse(`
  mutation RenameEntity($id: ID!, $name: String!) {
    updateEntity(id: $id, input: { name: $name }) { id name version updatedAt }
  }`);
