/**
 * Record ids in the graph: `id` is the global id (core/global-id.ts), `databaseId` the upstream's
 * own. `recordNode` makes a type a Relay `Node` that `node`/`nodes` read through the same loaders
 * as its lookup; `recordIds` gives a type that cannot be read by id (a user, a stage) the same two
 * fields, so no two objects of different types share an `id` either; `valueIds` gives them to a
 * value the upstream may know no id of (an option of a picker), known then by what it holds.
 */
import { createHash } from 'node:crypto';
import type { ObjectRef } from '@pothos/core';
import { encodeGlobalId } from '../core/global-id.js';
import type { Permission } from '../identity/principal.js';
import { demand } from './auth.js';
import { builder, type Types } from './builder.js';
import type { Context } from './context.js';
import { ID_HELP } from './node-ids.js';

type Fields<Shape> = PothosSchemaTypes.ObjectFieldBuilder<Types, Shape>;
type Loaded<T> = readonly (T | null | undefined | Error)[];

export const DATABASE_ID_HELP = (what: string) =>
  `${what}: what the upstream and other subgraphs know the record by. Every argument that takes an id takes it too.`;

/** A record type as a `Node`: its global id holds `key` (the upstream id, or what a read needs). */
export function recordNode<T extends object>(
  ref: ObjectRef<Types, T>,
  o: {
    permission: Permission;
    key: (record: T) => string | number;
    databaseId: (record: T) => string | number;
    /** The upstream id a global id holds, as `load` takes it; '' when it is malformed. */
    parse: (key: string) => string;
    load: (keys: string[], ctx: Context) => Promise<Loaded<T>>;
    /** What `databaseId` is, e.g. "The record's uuid". */
    what: string;
  },
): void {
  builder.nodeRef(ref, {
    id: { description: ID_HELP, resolve: o.key, parse: (key: string) => o.parse(key) },
    loadMany: (keys: string[], ctx: Context) => {
      demand(ctx, o.permission, 'node');
      return o.load(keys, ctx);
    },
  } as never);
  builder.objectField(ref, 'databaseId', (t) =>
    t.id({ nullable: false, description: DATABASE_ID_HELP(o.what), resolve: o.databaseId }),
  );
}

/** `id` (global, of `type`) and `databaseId` of a type that has no lookup by id. */
export function recordIds<T>(t: Fields<T>, type: string, databaseId: (record: T) => string | number, what: string) {
  return {
    id: t.id({ nullable: false, description: ID_HELP, resolve: (r) => encodeGlobalId(type, databaseId(r)) }),
    databaseId: t.id({ nullable: false, description: DATABASE_ID_HELP(what), resolve: databaseId }),
  };
}

/** A value's id from what it holds: two equal values are one object (a normalized cache keeps one). */
export const contentId = (type: string, value: unknown): string =>
  encodeGlobalId(type, `v:${createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 22)}`);

/** `id` (global, of `type`: from the upstream id when there is one, else from the value) and `databaseId` (nullable). */
export function valueIds<T>(
  t: Fields<T>,
  type: string,
  databaseId: (value: T) => string | null | undefined,
  what: string,
) {
  return {
    id: t.id({
      nullable: false,
      description: ID_HELP,
      resolve: (v) => {
        const own = databaseId(v);
        return own ? encodeGlobalId(type, own) : contentId(type, v);
      },
    }),
    databaseId: t.id({
      description: `${what}; null while the gateway does not know it.`,
      resolve: (v) => databaseId(v) ?? null,
    }),
  };
}
