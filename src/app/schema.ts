/**
 * The composition root of the graph: every type file is listed here, explicitly, then the schema
 * is built once. Import order does not matter to Pothos; it is alphabetical for the reader.
 */
import '../calendar/schema/index.js';
import '../governance/schema/index.js';
import { builder } from '../graph/builder.js';
import '../graph/budget.js';
import { limitInputs } from '../graph/input-limits.js';
import { describeRouterFields } from './federation.js';
import '../graph/viewer.js';

// Served as an Apollo Federation v2 subgraph (`_service`, `_entities`); see federation.ts.
// Every string argument is capped and checked for control characters first (see input-limits.ts).
export const schema = limitInputs(
  describeRouterFields(
    builder.toSubGraphSchema({
      // v2.9: the first version with the demand-control directives (graph/cost-directives.ts).
      linkUrl: 'https://specs.apollo.dev/federation/v2.9',
      federationDirectives: ['@key', '@shareable', '@requiresScopes', '@cost', '@listSize'],
    }),
  ),
);
