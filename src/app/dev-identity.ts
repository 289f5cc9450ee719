/**
 * `npm start` with the embedded emulators and no issuer configured also runs the development
 * issuer (identity/dev-issuer.ts) and trusts it, so the permission model is visible at once: the
 * sample callers' tokens are printed and offered in GraphiQL, and a reader is refused a delete.
 * In development its key and port are kept in the OS cache directory, one file per checkout,
 * so those tokens (and GraphiQL's saved tabs) still verify after a restart; under NODE_ENV=test
 * (and in production) nothing is kept, so a test's gateway leaves no file behind.
 */
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config/config.js';
import { DEV_AUDIENCE, DevIssuer, SAMPLE_CALLERS } from '../identity/dev-issuer.js';

export interface DevIdentity {
  config: Config;
  /** Tokens by sample caller name. */
  tokens: Record<string, string>;
  close(): Promise<void>;
}

export async function startDevIdentity(config: Config, log: (line: string) => void): Promise<DevIdentity> {
  const keyFile = config.env === 'development' ? keyFileOf() : undefined;
  const issuer = await DevIssuer.start({ keyFile, log });
  const tokens: Record<string, string> = {};
  for (const name of Object.keys(SAMPLE_CALLERS)) tokens[name] = await issuer.tokenFor(name);
  const kept = keyFile ? `, key kept in ${keyFile}` : '';
  log(`development issuer: ${issuer.issuer} (audience ${DEV_AUDIENCE}${kept}); sample callers' tokens, valid 12 h:`);
  for (const [name, token] of Object.entries(tokens))
    log(`  ${name.padEnd(6)} ${SAMPLE_CALLERS[name]?.permissions.join(' ')}\n         Authorization: Bearer ${token}`);
  const issuers = [
    ...config.auth.issuers,
    { issuer: issuer.issuer, audience: [DEV_AUDIENCE], jwksUrl: issuer.jwksUrl },
  ];
  return { config: { ...config, auth: { ...config.auth, issuers } }, tokens, close: () => issuer.close() };
}

/** The start-up line saying who may call without a token. */
export function anonymousLine(config: Config): string | undefined {
  const { anonymous } = config.auth;
  if (anonymous.length === 0) return undefined;
  const what = anonymous.includes('*') ? 'every permission' : anonymous.join(', ');
  return `AUTH_ANONYMOUS=${anonymous.join(',')}: callers without a token hold ${what} (set AUTH_ANONYMOUS=none to require one).`;
}

/**
 * `~/.cache/governance-calendar-gateway/dev-issuer-<checkout>.json`: outside the repository, and one
 * per checkout, so two checkouts never share a port.
 */
function keyFileOf(): string {
  const checkout = createHash('sha256')
    .update(fileURLToPath(new URL('../../', import.meta.url)))
    .digest('hex')
    .slice(0, 12);
  return join(homedir(), '.cache', 'governance-calendar-gateway', `dev-issuer-${checkout}.json`);
}
