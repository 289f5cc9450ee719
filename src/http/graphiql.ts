/**
 * What GraphiQL opens with: one tab per headline traversal (src/operations/), so a newcomer sees the
 * graph at once; `extensions.cost` in each response shows what it cost upstream and the budget left.
 */
import { print } from 'graphql';
import { EntityGraphDocument, EventGraphDocument } from '../generated/graphql.js';

export const graphiqlTabs = [EntityGraphDocument, EventGraphDocument].map((document) => ({
  query: print(document),
  variables: JSON.stringify({ first: 5 }, null, 2),
}));
