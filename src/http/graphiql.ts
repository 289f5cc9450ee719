/**
 * What GraphiQL opens with: one tab per headline traversal (src/operations/), so a newcomer sees the
 * graph at once; `extensions.cost` in each response that used an upstream shows what it cost there and the budget left.
 */
import { print } from 'graphql';
import { EntityGraphDocument, EventGraphDocument } from '../generated/graphql.js';

// The operations default `$first` to 5: GraphiQL drops a default tab's variables from the first tab.
export const graphiqlTabs = [EntityGraphDocument, EventGraphDocument].map((document) => ({ query: print(document) }));
