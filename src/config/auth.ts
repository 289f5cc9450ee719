/**
 * Authentication settings (AUTH_*), checked for shape here; permission names are checked where
 * they are known (`src/identity/`), when the gateway is built.
 */
import type { Settings } from './settings.js';

export interface AuthConfig {
  /** `audience`: the gateway's names at the issuer (its own name, its /mcp URL …); a token names one. */
  issuers: { issuer: string; audience: string[]; jwksUrl: string }[];
  /** Permission names of a caller without credentials (`*` = all); empty: 401. */
  anonymous: string[];
  apiKeys: { name: string; sha256: string; permissions: string[] }[];
  permissionsFile?: string;
  jwksCooldownMs: number;
  /** /metrics answers authenticated callers only (production), else anyone who reaches the port. */
  metricsNeedCredentials: boolean;
}

export function readAuthConfig(s: Settings, production: boolean, problems: string[]): AuthConfig {
  const entries = (raw: string | undefined) =>
    (raw ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
  const issuers = entries(s.AUTH_ISSUERS).flatMap((entry) => {
    const [issuer, audience, jwksUrl] = entry.split('|').map((p) => p.trim());
    if (issuer && audience && jwksUrl && URL.canParse(jwksUrl))
      return [{ issuer, audience: audience.split(/\s+/), jwksUrl }];
    problems.push(`AUTH_ISSUERS entries look like "issuer|audience|https://idp/jwks.json" (got "${entry}").`);
    return [];
  });
  const apiKeys = entries(s.AUTH_API_KEYS).flatMap((entry) => {
    const [name, sha256, permissions] = entry.split('|').map((p) => p.trim());
    if (name && sha256 && /^[0-9a-f]{64}$/i.test(sha256))
      return [{ name, sha256, permissions: (permissions ?? '').split(/\s+/).filter(Boolean) }];
    // The entry is not echoed: a key pasted in place of its hash must not reach a log.
    problems.push(`AUTH_API_KEYS entries look like "name|<64 hex digits of SHA-256>|governance:read calendar:read".`);
    return [];
  });
  const anonymous = s.AUTH_ANONYMOUS ?? (production ? [] : ['*']);
  return {
    issuers,
    anonymous: anonymous.length === 1 && anonymous[0] === 'none' ? [] : anonymous,
    apiKeys,
    permissionsFile: s.AUTH_PERMISSIONS_FILE,
    // An unknown key id refetches the JWKS at most this often (tests set 0 to see a rotation at once).
    jwksCooldownMs: 30_000,
    metricsNeedCredentials: production,
  };
}
