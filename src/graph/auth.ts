/**
 * Authorization in the schema: each permission is a Pothos auth scope (`@pothos/plugin-scope-auth`),
 * and a root field states the one it needs with `...requires('governance:write')`, which also prints
 * it into the subgraph SDL as federation's `@requiresScopes`, so routers and clients see the rule.
 * The check runs before the resolver: a refused field makes no upstream call, is null with a
 * FORBIDDEN error naming the permission, and the other fields keep their data.
 */
import type { AuthFailure } from '@pothos/plugin-scope-auth';
import { createGraphQLError } from 'graphql-yoga';
import type { GraphQLResolveInfo } from 'graphql';
import { PERMISSIONS, missingPermission, type Permission } from '../identity/principal.js';
import type { Context } from './context.js';
import { ErrorCode } from './errors.js';
import { recordOf } from '../core/records.js';

export type PermissionScopes = Record<Permission, boolean>;

/** The field needs this permission (checked by scope-auth, printed as `@requiresScopes`). */
export function requires<P extends Permission>(permission: P) {
  return {
    authScopes: { [permission]: true } as { [K in P]: true },
    requiresScopes: [[permission]],
  };
}

/** The scopes a request holds: its principal's permissions. */
export function scopesOf(context: Context): PermissionScopes {
  const held = context.principal.permissions;
  return recordOf(PERMISSIONS, (p) => held.has(p));
}

/** The refusal of a field: FORBIDDEN, naming the permission it needs. */
export function forbidden(info: GraphQLResolveInfo, failure: AuthFailure): Error {
  const permission = firstScope(failure);
  const field = `${info.parentType.name}.${info.fieldName}`;
  return permission
    ? missing(field, permission)
    : createGraphQLError(`${field} is not allowed.`, { extensions: { code: ErrorCode.FORBIDDEN } });
}

function firstScope(failure: AuthFailure): string | undefined {
  if ('scope' in failure) return failure.scope;
  if ('failures' in failure) for (const f of failure.failures) return firstScope(f);
  return undefined;
}

/** For resolvers outside scope-auth's reach (federation's `_entities`): throws FORBIDDEN without the permission. */
export function demand(context: Context, permission: Permission, field: string): void {
  if (missingPermission(context.principal, [permission])) throw missing(field, permission);
}

function missing(field: string, permission: string): Error {
  return createGraphQLError(`${field} needs the permission ${permission}, which you do not have.`, {
    extensions: { code: ErrorCode.FORBIDDEN, permission },
  });
}
