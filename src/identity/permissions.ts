/**
 * From a token's claims to permissions. With no mapping, a permission's own name in the `scope`
 * claim (space-separated) or the `permissions` claim grants it, so common IdP setups work
 * unconfigured. With a mapping (AUTH_PERMISSIONS_FILE), only the mapping grants: for each claim
 * named in it (a dotted path such as `realm_access.roles` reaches into objects), each value listed
 * grants its permissions.
 *
 *   { "roles": { "gov-editor": ["governance:read", "governance:write"] }, "scope": { "admin": ["*"] } }
 */
import { readFileSync } from 'node:fs';
import { isPermission, PERMISSIONS, type Permission } from './principal.js';

/** Claim name → claim value → the permissions it grants. */
export type PermissionMap = Record<string, Record<string, readonly Permission[]>>;

/** A list of permission names, or `*` for all; unknown names are returned apart, to be reported. */
export function parsePermissions(names: readonly string[]): { permissions: Permission[]; unknown: string[] } {
  if (names.includes('*')) return { permissions: [...PERMISSIONS], unknown: [] };
  const unknown = names.filter((n) => !isPermission(n));
  return { permissions: names.filter(isPermission), unknown };
}

/** Reads and checks a mapping file; problems name the file and what is wrong in it. */
export function loadPermissionMap(file: string, problems: string[]): PermissionMap | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    problems.push(
      `AUTH_PERMISSIONS_FILE ${file} could not be read as JSON (${e instanceof Error ? e.message : String(e)}).`,
    );
    return undefined;
  }
  const map: PermissionMap = {};
  for (const [claim, values] of Object.entries(isObject(raw) ? raw : {})) {
    map[claim] = {};
    for (const [value, names] of Object.entries(isObject(values) ? values : {})) {
      const { permissions, unknown } = parsePermissions(Array.isArray(names) ? names.map(String) : []);
      if (unknown.length > 0)
        problems.push(`AUTH_PERMISSIONS_FILE ${claim}.${value}: unknown permissions ${unknown.join(', ')}.`);
      map[claim][value] = permissions;
    }
  }
  if (!isObject(raw) || Object.keys(map).length === 0)
    problems.push(
      `AUTH_PERMISSIONS_FILE ${file} must be an object: { "<claim>": { "<value>": ["<permission>", …] } }.`,
    );
  return map;
}

export function permissionsFromClaims(claims: Record<string, unknown>, map?: PermissionMap): Set<Permission> {
  const granted = new Set<Permission>();
  if (!map) {
    for (const v of [...valuesOf(claims.scope), ...valuesOf(claims.permissions)]) if (isPermission(v)) granted.add(v);
    return granted;
  }
  for (const [claim, byValue] of Object.entries(map))
    for (const v of valuesOf(claimAt(claims, claim))) for (const p of byValue[v] ?? []) granted.add(p);
  return granted;
}

function claimAt(claims: Record<string, unknown>, path: string): unknown {
  let at: unknown = claims;
  for (const part of path.split('.')) at = isObject(at) ? at[part] : undefined;
  return at;
}

/** A space-separated string (OAuth `scope`) or a list of strings. */
function valuesOf(claim: unknown): string[] {
  if (typeof claim === 'string') return claim.split(' ').filter(Boolean);
  return Array.isArray(claim) ? claim.filter((v): v is string => typeof v === 'string') : [];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
