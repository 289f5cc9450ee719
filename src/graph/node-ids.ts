/**
 * The checks `node(id:)` and `nodes(ids:)` make before any upstream call: each id is the global id
 * of a type that implements `Node`, and what it holds is an upstream id of that type (each type's
 * `parse`, in graph/node.ts, turns a malformed one into ''). Anything else is BAD_USER_INPUT.
 */
import { isObjectType, type GraphQLResolveInfo } from 'graphql';
import { badInput } from './errors.js';

export const ID_HELP =
  "A globally unique, opaque id: no other object of any type has it. Pass it to `node(id:)` or to any argument that takes an id; the upstream's own id is `databaseId`.";
export const NODE_HELP =
  'A record by its global id (`id` of an Entity, EntityType, GovernanceLink, Event, Venue, Organizer, Category or Tag), read as the lookup of its type reads it (the same loaders, the same upstream calls, the same permission).';

/** Most ids one `nodes` call takes. */
export const MAX_NODE_IDS = 100;

export function checkNodeIds(
  ids: readonly { typename: string; id: string }[],
  argument: string,
  info: GraphQLResolveInfo,
): void {
  if (ids.length > MAX_NODE_IDS) throw badInput(`"${argument}" takes at most ${MAX_NODE_IDS} ids.`, argument);
  ids.forEach((global, i) => {
    const at = argument === 'ids' ? `ids[${i}]` : argument;
    const type = global.typename ? info.schema.getType(global.typename) : undefined;
    if (!isObjectType(type) || !type.getInterfaces().some((face) => face.name === 'Node'))
      throw badInput(`"${at}" is not the global id of a record (read \`id\` from an answer).`, at);
    if (!global.id) throw badInput(`"${at}" is not a well-formed ${global.typename} id.`, at);
  });
}
