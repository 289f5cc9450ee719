/**
 * The graph as an Apollo Federation v2 subgraph: these types are entities keyed by `id` (the global
 * id) and by `databaseId` (the upstream's own), so other subgraphs can reference and extend them
 * knowing either. A router's `_entities`
 * representations resolve through the request's own DataLoaders, so 100 representations of the
 * same few records cost one upstream read per distinct record, under the same traffic control as
 * any other field. Every key is checked as the root lookups check their ids, before any upstream
 * call: a malformed one is null with BAD_USER_INPUT at its position, an unknown one null.
 */
import { Kind, parse, print, visit, type ArgumentNode, type GraphQLSchema } from 'graphql';
import type { Context } from '../graph/context.js';
import { demand } from '../graph/auth.js';
import { builder } from '../graph/builder.js';
import { recordId } from '../calendar/inputs.js';
import { CategoryRef, EventRef, OrganizerRef, TagRef, VenueRef } from '../calendar/schema/refs.js';
import { EntityRef, EntityTypeRef } from '../governance/schema/refs.js';
import { uuidArg } from '../governance/schema/validate.js';

/** Both keys: the global `id`, and the upstream's own `databaseId` for subgraphs that know only that. */
const keys = [builder.selection<{ id: string }>('id'), builder.selection<{ databaseId: string }>('databaseId')];
type Representation = { id: string } | { databaseId: string };
/** The representation's key and the argument that names it, for its checks. */
const keyOf = (rep: Representation): [string, string] =>
  'id' in rep ? [rep.id, 'id'] : [rep.databaseId, 'databaseId'];

/**
 * One representation's record. Async, so a malformed key fails its own position only: the
 * federation library maps representations synchronously, and a throw there would null them all.
 * (A missing permission, checked before, refuses the whole field once.)
 */
const keyed = async <T>(load: () => T): Promise<Awaited<T>> => await load();

/** A governance record by its uuid, through the request's loader of `Type`. */
const governanceRecord =
  <T>(type: 'Entity' | 'EntityType', loader: (ctx: Context) => { load: (id: string) => Promise<T> }) =>
  (rep: Representation, ctx: Context) => {
    demand(ctx, 'governance:read', '_entities');
    const [key, argument] = keyOf(rep);
    return keyed(() => loader(ctx).load(uuidArg(key, argument, [type])));
  };

builder.asEntity(EntityRef, {
  key: keys,
  resolveReference: governanceRecord('Entity', (ctx) => ctx.governance.loaders.entity),
});
builder.asEntity(EntityTypeRef, {
  key: keys,
  resolveReference: governanceRecord('EntityType', (ctx) => ctx.governance.loaders.entityType),
});

const calendarEntities = [
  [EventRef, 'event'],
  [VenueRef, 'venue'],
  [OrganizerRef, 'organizer'],
  [CategoryRef, 'category'],
  [TagRef, 'tag'],
] as const;
for (const [ref, loader] of calendarEntities) {
  builder.asEntity(ref, {
    key: keys,
    resolveReference: (rep: Representation, ctx) => {
      demand(ctx, 'calendar:read', '_entities');
      const [key, argument] = keyOf(rep);
      // Each loader returns its own record type; the ref it is paired with above expects exactly that.
      return keyed(() => ctx.calendar.loaders[loader].load(recordId(key, argument, loader)));
    },
  });
}

/** What the federation plugin adds without a word: said here, since GraphiQL lists these first. */
const ROUTER_FIELD_HELP: Record<string, string> = {
  _entities:
    'Federation internals, for the federation router only: the records of the given representations (`__typename` and `id` or `databaseId`), in order; null where none exists. Clients query the other fields.',
  _service:
    "Federation internals, for the federation router only: this subgraph's schema as SDL with its federation directives. Clients use introspection.",
};

/**
 * Describes the subgraph fields the federation plugin adds to `Query` (it gives them no description),
 * and lets `_service` answer the SDL in the form the router needs (`sdlRequiresScopes`).
 */
export function describeRouterFields(schema: GraphQLSchema): GraphQLSchema {
  const fields = schema.getQueryType()?.getFields() ?? {};
  for (const [name, description] of Object.entries(ROUTER_FIELD_HELP))
    if (fields[name]) fields[name].description = description;
  const service = fields._service;
  if (service?.resolve) {
    const full = (service.resolve as () => { sdl: string })().sdl;
    const without = withoutRequiresScopes(full);
    service.resolve = (_root, _args, ctx?: Partial<Context>) => ({
      sdl: ctx?.sdlRequiresScopes === false ? without : full,
    });
  }
  return schema;
}

/**
 * The subgraph SDL without `@requiresScopes` (its uses and its import), for `@apollo/gateway`: it
 * refuses a supergraph with that SECURITY feature, since it cannot enforce it. Nothing else changes;
 * the gateway still checks each field's permission itself.
 */
export function withoutRequiresScopes(sdl: string): string {
  const stripped = visit(parse(sdl), {
    Directive: (d) => (d.name.value === 'requiresScopes' ? null : undefined),
    ListValue: (list, _key, parent) =>
      (parent as ArgumentNode | undefined)?.name?.value === 'import'
        ? { ...list, values: list.values.filter((v) => !(v.kind === Kind.STRING && v.value === '@requiresScopes')) }
        : undefined,
  });
  return print(stripped);
}
