/**
 * The one shape of every delete: `{ deletedId, node }`. `deletedId` is the field Relay's
 * `@deleteRecord` reads; `node` is the record as it was just before the delete (or, for the
 * calendar's trash, as the trash left it). Upstreams whose delete answers no body pay a read for
 * `node`, so resolvers ask `selects(info, 'node')` and read only when a client asked for it.
 */
import type { ObjectRef } from '@pothos/core';
import type { FieldNode, FragmentDefinitionNode, GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import { Kind } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import { encodeGlobalId } from '../core/global-id.js';
import { builder, type Types } from './builder.js';
import { ErrorCode } from './errors.js';

export interface Deleted<T> {
  /** What the record's global id holds (its upstream id, for most). */
  deletedId: string;
  node: T | null;
}

/**
 * The payload type of a delete of `what` (`a record`, `an event`): `deletedId`, named by `idWord`
 * (`uuid`, `id`), and `node`, described by `node`.
 */
export function deletePayload<T>(
  name: string,
  ref: ObjectRef<Types, T>,
  o: { what: string; idWord: string; node: string },
) {
  return builder.objectRef<Deleted<T>>(name).implement({
    description: `The result of deleting ${o.what}.`,
    fields: (t) => ({
      deletedId: t.id({
        nullable: false,
        description: `The id (global, as \`id\`) of the ${o.what.replace(/^an? /, '')} that was deleted, for Relay's \`@deleteRecord\`; its \`databaseId\` is the ${o.idWord}.`,
        resolve: (p) => encodeGlobalId(ref.name, p.deletedId),
      }),
      // Pothos cannot work out a field's result type for a generic T; `ref` is the record's own type.
      node: t.field({ type: ref, description: o.node, resolve: (p) => p.node as never }),
    }),
  });
}

/** Whether the field being resolved selects `name` at its top level (through fragments too). */
export function selects(info: GraphQLResolveInfo, name: string): boolean {
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode | undefined): boolean =>
    !!set?.selections.some((s) => {
      if (s.kind === Kind.FIELD) return s.name.value === name;
      if (s.kind === Kind.INLINE_FRAGMENT) return walk(s.selectionSet);
      if (seen.has(s.name.value)) return false;
      seen.add(s.name.value);
      const fragment: FragmentDefinitionNode | undefined = info.fragments[s.name.value];
      return walk(fragment?.selectionSet);
    });
  return info.fieldNodes.some((f: FieldNode) => walk(f.selectionSet));
}

/** A mutation aimed at a record that does not exist: NOT_FOUND, naming the argument. */
export function notFound(what: string, argument: string) {
  return createGraphQLError(`There is no ${what} with that ${argument}.`, {
    extensions: { code: ErrorCode.NOT_FOUND, argument },
  });
}
