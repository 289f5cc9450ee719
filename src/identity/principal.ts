/**
 * Who is calling the gateway, and what they may do. Authentication (at the HTTP edge) turns a
 * request's credentials into a `Principal`; every entry point (GraphQL over HTTP, subscriptions,
 * persisted operations, /mcp) reads it with `principalOf` and checks permissions with
 * `missingPermission`. No GraphQL and no HTTP framework here.
 */

/**
 * Everything a caller can be granted. Queries need `:read`, mutations `:write`, deletes `:delete`;
 * `metrics:read` is for /metrics (production), acting on neither upstream.
 */
export const PERMISSIONS = [
  'governance:read',
  'governance:write',
  'governance:delete',
  'governance:workflow',
  'calendar:read',
  'calendar:write',
  'metrics:read',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export interface Principal {
  /** Stable and non-secret: `${issuer}|${subject}` for a token, `key:<name>` for an API key, `anonymous`. */
  id: string;
  kind: 'user' | 'service' | 'apikey' | 'anonymous';
  subject?: string;
  issuer?: string;
  /** The token's `client_id` / `azp`, when it has one. */
  clientId?: string;
  /** An agent acting for the subject (the token's `agent` claim or the API key's name), when known. */
  agent?: string;
  /** When the credential expires (a token's `exp`, epoch ms): a live stream ends then. */
  expiresAt?: number;
  permissions: ReadonlySet<Permission>;
}

/** The permissions that act on one upstream (`governance:*`, `calendar:*`). */
export function permissionsOn(upstream: 'governance' | 'calendar'): Permission[] {
  return PERMISSIONS.filter((p) => p.startsWith(`${upstream}:`));
}

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/** The anonymous caller with the permissions of `AUTH_ANONYMOUS`. */
export function anonymous(permissions: Iterable<Permission>): Principal {
  return { id: 'anonymous', kind: 'anonymous', permissions: new Set(permissions) };
}

/** The first of `required` the principal lacks, or undefined when it holds them all. */
export function missingPermission(principal: Principal, required: readonly Permission[]): Permission | undefined {
  return required.find((p) => !principal.permissions.has(p));
}

/**
 * The principal of a request, set once by the authenticating edge. Keyed by the request object
 * (Node's IncomingMessage or a fetch Request), so nothing can be forged through headers.
 */
const principals = new WeakMap<object, Principal>();

export function setPrincipal(request: object, principal: Principal): void {
  principals.set(request, principal);
}

export function principalOf(request: object | undefined): Principal | undefined {
  return request ? principals.get(request) : undefined;
}

const keys = new WeakMap<Principal, string>();

/** The permission set as a stable string: callers with the same permissions may share answers. */
export function permissionKey(principal: Principal | undefined): string {
  if (!principal) return '';
  let key = keys.get(principal);
  if (key === undefined) keys.set(principal, (key = [...principal.permissions].sort().join(' ')));
  return key;
}
