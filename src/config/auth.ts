/**
 * Authentication settings (AUTH_*), checked for shape here; permission names are checked where
 * they are known (`src/identity/`), when the gateway is built.
 */
import type { Settings } from './settings.js';

export type AuthConfig = ReturnType<typeof readAuthConfig>;

export function readAuthConfig(s: Settings, production: boolean, problems: string[]) {
  const issuers = (s.AUTH_ISSUERS ?? []).flatMap((entry) => {
    const [issuer, audience, jwksUrl] = entry.split('|').map((p) => p.trim());
    if (issuer && audience && jwksUrl && URL.canParse(jwksUrl))
      return [{ issuer, audience: audience.split(/\s+/), jwksUrl }];
    problems.push(`AUTH_ISSUERS entries look like "issuer|audience|https://idp/jwks.json" (got "${entry}").`);
    return [];
  });
  const apiKeys = (s.AUTH_API_KEYS ?? []).flatMap((entry) => {
    const [name, sha256, permissions] = entry.split('|').map((p) => p.trim());
    if (name && sha256 && /^[0-9a-f]{64}$/i.test(sha256))
      return [{ name, sha256, permissions: (permissions ?? '').split(/\s+/).filter(Boolean) }];
    // The entry is not echoed: a key pasted in place of its hash must not reach a log.
    problems.push(`AUTH_API_KEYS entries look like "name|<64 hex digits of SHA-256>|governance:read calendar:read".`);
    return [];
  });
  const anonymous = s.AUTH_ANONYMOUS ?? (production ? [] : ['*']);
  return {
    /** `audience`: the gateway's names at the issuer (its own name, its /mcp URL …); a token names one. */
    issuers,
    /** Permission names of a caller without credentials (`*` = all); empty: 401. */
    anonymous: anonymous.length === 1 && anonymous[0] === 'none' ? [] : anonymous,
    apiKeys,
    permissionsFile: s.AUTH_PERMISSIONS_FILE,
    // An unknown key id refetches the JWKS at most this often (tests set 0 to see a rotation at once).
    jwksCooldownMs: 30_000,
    /** /metrics answers authenticated callers only (production), else anyone who reaches the port. */
    metricsNeedCredentials: production,
  };
}
