import { graphql } from 'relay-runtime';

/** Its updater puts the new record first in `EntityList_entities` (test/clients-relay.test.ts). */
export const createEntity = graphql`
  mutation CreateEntityMutation($input: CreateEntityInput!) {
    createEntity(input: $input) {
      id
      ...EntityCard_entity
    }
  }
`;
