/**
 * The Pothos schema builder and its plugins. No types are defined here: each upstream's folder
 * defines its own, and `schema.ts` lists them.
 */
import SchemaBuilder from '@pothos/core';
import CostDirectivesPlugin from './cost-directives.js';
import DirectivePlugin from '@pothos/plugin-directives';
import FederationPlugin from '@pothos/plugin-federation';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import type { Permission } from '../identity/principal.js';
import { forbidden, scopesOf, type PermissionScopes } from './auth.js';
import type { Context } from './context.js';
import { encodeGlobalId, decodeGlobalId } from '../core/global-id.js';
import { checkNodeIds, ID_HELP, NODE_HELP } from './node-ids.js';
import { DateScalar, DateTimeScalar, JSONObjectScalar, JSONScalar, UUIDScalar } from './scalars.js';

export interface SchemaTypes {
  Context: Context;
  /** Permissions as auth scopes (see auth.ts). */
  AuthScopes: PermissionScopes;
  FederationScopes: Permission;
  Scalars: {
    ID: { Input: string; Output: string | number };
    UUID: { Input: string; Output: string };
    /** Input: the checked string (ISO 8601 with an offset, or a wall clock); see scalars.ts. */
    DateTime: { Input: string; Output: Date | string };
    Date: { Input: string; Output: string };
    JSON: { Input: unknown; Output: unknown };
    JSONObject: { Input: Record<string, unknown>; Output: Record<string, unknown> };
  };
  Connection: { totalCount: number | null };
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
}

/** SchemaTypes with Pothos's defaults filled in: what refs (`ObjectRef<Types, Shape>`) and field builders take. */
export type Types = PothosSchemaTypes.ExtendDefaultTypes<SchemaTypes>;

export const builder = new SchemaBuilder<SchemaTypes>({
  // Scope-auth first, so no other plugin's wrapper runs before the check; federation last: it reads
  // what the others declared (directives carry its @key, @requiresScopes, @cost and @listSize into
  // the SDL). The cost directives (cost-directives.ts) before the directives plugin, which prints them.
  plugins: [ScopeAuthPlugin, RelayPlugin, CostDirectivesPlugin, DirectivePlugin, FederationPlugin],
  scopeAuth: {
    authScopes: scopesOf,
    authorizeOnSubscribe: true,
    unauthorizedError: (_parent, _context, info, result) => forbidden(info, result.failure),
  },
  relay: {
    // Global object ids (core/global-id.ts): base64 of `Type:upstream id`. A string that is not one
    // decodes to an empty type, which `node`/`nodes` refuse as BAD_USER_INPUT (graph/node.ts).
    encodeGlobalID: (type, id) => encodeGlobalId(type, String(id)),
    decodeGlobalID: (text) => {
      const global = decodeGlobalId(text);
      return global ? { typename: global.type, id: global.id } : { typename: '', id: text };
    },
    idFieldOptions: { description: ID_HELP },
    nodeTypeOptions: { description: 'A record the graph can fetch again by its global `id` (`node`, `nodes`).' },
    nodeQueryOptions: {
      description: NODE_HELP,
      args: { id: { description: 'A global id, read from any answer (`id`).' } },
      resolve: (_root, args, _ctx, info, resolve) => {
        checkNodeIds([args.id], 'id', info);
        return resolve(args.id);
      },
    },
    nodesQueryOptions: {
      description: `${NODE_HELP} In the order of \`ids\`, records of any types mixed; null where there is none.`,
      args: { ids: { description: 'Global ids, read from any answers (`id`); at most 100.' } },
      resolve: (_root, args, _ctx, info, resolve) => {
        checkNodeIds(args.ids, 'ids', info);
        return resolve(args.ids);
      },
    },
    nodesOnConnection: { description: 'The items of this page, in order (the same as `edges { node }`).' },
    edgesFieldOptions: { nullable: false, description: 'The items of this page with their cursors, in order.' },
    nodeFieldOptions: { nullable: false, description: 'The item at this position of the list.' },
    cursorFieldOptions: {
      description: 'An opaque cursor for this position; pass it as `after` or `before` to page from here.',
    },
    pageInfoFieldOptions: { description: 'Where this page sits in the whole list, and the cursors to page on.' },
    // Every Relay subgraph defines the same PageInfo: @shareable lets a supergraph resolve it from any of them.
    pageInfoTypeOptions: {
      description: 'Paging information of a connection (Relay cursor connections).',
      shareable: true,
    },
    hasNextPageFieldOptions: { description: 'Whether items follow this page.' },
    hasPreviousPageFieldOptions: { description: 'Whether items precede this page.' },
    startCursorFieldOptions: {
      description: 'The cursor of the first item of this page, or null when the page is empty.',
    },
    endCursorFieldOptions: { description: 'The cursor of the last item of this page, or null when the page is empty.' },
    firstArgOptions: {
      description:
        'Returns the first n items; 20 when neither `first` nor `last` is given. May exceed the upstream page size (the gateway fetches the pages it needs), up to the configured maximum.',
    },
    afterArgOptions: {
      description: 'Returns the items after this cursor (from `endCursor` or an edge `cursor` of the same list).',
    },
    lastArgOptions: {
      description:
        'Returns the last n items (before `before`, or of the whole list), up to the configured maximum; the default page is 20 from the start, see `first`.',
    },
    beforeArgOptions: {
      description: 'Returns the items before this cursor (from `startCursor` or an edge `cursor` of the same list).',
    },
  },
});

builder.addScalarType('UUID', UUIDScalar);
builder.addScalarType('DateTime', DateTimeScalar);
builder.addScalarType('Date', DateScalar);
builder.addScalarType('JSON', JSONScalar);
builder.addScalarType('JSONObject', JSONObjectScalar);

builder.globalConnectionField('totalCount', (t) =>
  t.int({
    description:
      'How many items the whole list holds, across all pages; null where the gateway filters a list itself (the filter says so) and has not read all of it.',
    resolve: (parent) => parent.totalCount,
  }),
);

builder.queryType({ description: 'Reads across the AI governance and calendar upstreams.' });
builder.mutationType({ description: 'Writes to the AI governance and calendar upstreams.' });
builder.subscriptionType({
  description:
    'Live updates over Server-Sent Events: changes made through the gateway (any replica) and changes found by polling the upstreams.',
});
