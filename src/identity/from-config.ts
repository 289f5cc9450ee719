/** The authenticator of a configuration: permission names and the mapping file checked here. */
import { ConfigError } from '../config/config.js';
import type { AuthConfig } from '../config/auth.js';
import { Authenticator } from './authenticator.js';
import { loadPermissionMap, parsePermissions } from './permissions.js';

export function authenticatorFrom(auth: AuthConfig, forwardUnknown: boolean, now?: () => number): Authenticator {
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
    forwardUnknown,
    jwksCooldownMs: auth.jwksCooldownMs,
    now,
  });
}
