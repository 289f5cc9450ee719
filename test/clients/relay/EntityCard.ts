import { graphql } from 'relay-runtime';

export const entityCard = graphql`
  fragment EntityCard_entity on Entity {
    id
    name
    kind
    version
    organizationId
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
  }
`;
