/**
 * The composition root of the graph: every type file is listed here, explicitly, then the schema
 * is built once. Import order does not matter to Pothos; it is alphabetical for the reader.
 */
import { builder } from './builder.js';
import '../calendar/schema/index.js';
import '../governance/schema/index.js';
import './federation.js';

// Served as an Apollo Federation v2 subgraph (`_service`, `_entities`); see federation.ts.
export const schema = builder.toSubGraphSchema({ linkUrl: 'https://specs.apollo.dev/federation/v2.6', federationDirectives: ['@key', '@shareable'] });
