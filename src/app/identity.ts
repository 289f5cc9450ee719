/**
 * Authentication of a configuration (AUTH_*): permission names and the mapping file checked here,
 * refusals counted by reason.
 */
import { Counter } from 'prom-client';
import type { AuthConfig } from '../config/auth.js';
import { ConfigError, type Config } from '../config/config.js';
import { Authentication } from '../http/authenticate.js';
import { Authenticator } from '../identity/authenticator.js';
import { loadPermissionMap, parsePermissions } from '../identity/permissions.js';
import { permissionsOn, type Permission } from '../identity/principal.js';
import { challengeScope } from '../mcp/endpoint.js';
import type { Observability } from './observability.js';
import { schema } from './schema.js';

/** Who may call (AUTH_*; src/identity/), with refusals counted by reason. */
export function authenticationOf(config: Config, observability: Observability): Authentication {
  const registry = observability.metrics?.registry;
  const failures =
    registry &&
    new Counter({
      name: 'gateway_auth_failures_total',
      help: 'Requests refused by authentication, by reason (missing, expired, unknown-issuer, …).',
      labelNames: ['reason'],
      registers: [registry],
    });
  return new Authentication({
    authenticator: authenticatorFrom(config.auth, forwardedPermissions(config)),
    graphqlEndpoint: '/graphql',
    mcpEndpoint: config.mcp.enabled ? '/mcp' : undefined,
    mcpScope: config.mcp.enabled ? challengeScope(schema, config) : undefined,
    metricsNeedCredentials: config.auth.metricsNeedCredentials,
    csrfPrevention: config.security.csrfPrevention,
    refused: (reason) => failures?.inc({ reason }),
  });
}

/**
 * What a credential the gateway cannot verify may do: act on the upstreams that judge it themselves
 * (forward mode), never on one the gateway signs for with its own credential.
 */
export function forwardedPermissions(config: Pick<Config, 'governance' | 'calendar'>): Permission[] {
  return (['governance', 'calendar'] as const).filter((u) => config[u].authMode === 'forward').flatMap(permissionsOn);
}

export function authenticatorFrom(
  auth: AuthConfig,
  forwarded: readonly Permission[],
  now?: () => number,
): Authenticator {
  const problems: string[] = [];
  const checked = (setting: string, names: readonly string[]) => {
    const { permissions, unknown } = parsePermissions(names);
    if (unknown.length > 0) problems.push(`${setting}: unknown permissions ${unknown.join(', ')}.`);
    return permissions;
  };
  const anonymous = checked('AUTH_ANONYMOUS', auth.anonymous);
  const apiKeys = auth.apiKeys.map((k) => ({ ...k, permissions: checked(`AUTH_API_KEYS ${k.name}`, k.permissions) }));
  const permissionMap = auth.permissionsFile ? loadPermissionMap(auth.permissionsFile, problems) : undefined;
  if (problems.length > 0) throw new ConfigError(problems);
  return new Authenticator({
    issuers: auth.issuers,
    apiKeys,
    anonymous,
    permissionMap,
    forwarded,
    jwksCooldownMs: auth.jwksCooldownMs,
    now,
  });
}
