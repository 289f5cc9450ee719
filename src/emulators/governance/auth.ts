/**
 * OAuth2 client credentials as the platform does it: `POST /api/access/v1/oauth/token` (multipart or
 * url-encoded form; client id and secret in the form or as HTTP Basic), opaque bearer tokens that
 * carry every scope of their credential, 401 for a missing/unknown/expired token, 403 for a token
 * without one of the scopes the operation lists.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { Env } from '../kit/control.js';
import type { GovernanceScope, TokenResponse } from '../../governance/wire.js';
import { ApiError } from './errors.js';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** The emulator's built-in credentials, one per scope. */
export const DEFAULT_CLIENTS = {
  full: { clientId: 'gateway', clientSecret: 'gateway-secret', scope: 'AI_GOVERNANCE' },
  read: { clientId: 'reader', clientSecret: 'reader-secret', scope: 'AI_GOVERNANCE_READ' },
  write: { clientId: 'writer', clientSecret: 'writer-secret', scope: 'AI_GOVERNANCE_WRITE' },
} as const satisfies Record<string, ClientCredentials & { scope: GovernanceScope }>;

const FULL: GovernanceScope = 'AI_GOVERNANCE';
const READ: GovernanceScope = 'AI_GOVERNANCE_READ';
const WRITE: GovernanceScope = 'AI_GOVERNANCE_WRITE';

/** Scopes each operation lists (any one suffices), per the contract's scope table. */
export const SCOPES = {
  write: [FULL, WRITE],
  read: [FULL, READ, WRITE],
  /** links/pages: WRITE is not listed. */
  related: [FULL, READ],
  /** Deletes need the full scope. */
  delete: [FULL],
} as const satisfies Record<string, readonly GovernanceScope[]>;

interface IssuedToken {
  clientId: string;
  scopes: GovernanceScope[];
  expiresAt: number;
}

export interface AuthOptions {
  tokenTtlSeconds: number;
  tenantGuid: () => string;
  orgGroupGuid: () => string;
}

export function createAuth(options: AuthOptions) {
  const clients = Object.values(DEFAULT_CLIENTS);
  const tokens = new Map<string, IssuedToken>();

  const tokenError = (c: Context<Env>, status: 400 | 401, error: string, description: string) =>
    c.json({ error, error_description: description }, status);

  const issue = async (c: Context<Env>) => {
    let form: Record<string, unknown> = {};
    try {
      form = await c.req.parseBody();
    } catch {
      return tokenError(c, 400, 'invalid_request', 'The request body could not be read as a form');
    }
    const field = (name: string) => (typeof form[name] === 'string' ? form[name] : undefined);
    let clientId = field('client_id');
    let clientSecret = field('client_secret');
    const basic = /^Basic\s+(.+)$/i.exec(c.req.header('authorization') ?? '');
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0) {
        clientId = decodeURIComponent(decoded.slice(0, colon));
        clientSecret = decodeURIComponent(decoded.slice(colon + 1));
      }
    }
    if (field('grant_type') !== 'client_credentials')
      return tokenError(c, 400, 'unsupported_grant_type', 'Only client_credentials is supported');
    const client = clients.find((x) => x.clientId === clientId && x.clientSecret === clientSecret);
    if (!client) return tokenError(c, 401, 'invalid_client', 'Bad client credentials');

    const accessToken = randomBytes(32).toString('base64url');
    const ttl = options.tokenTtlSeconds;
    tokens.set(accessToken, { clientId: client.clientId, scopes: [client.scope], expiresAt: Date.now() + ttl * 1000 });
    const tenantGuid = options.tenantGuid();
    const body: TokenResponse = {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: Math.max(1, Math.round(ttl)),
      scope: 'read',
      tenantId: 1042,
      tenantGuid,
      orgGroupId: 1,
      orgGroupGuid: options.orgGroupGuid(),
      email: `${tenantGuid.replace(/-/g, '')}@api.onetrust.com`,
      user_name: `${tenantGuid.replace(/-/g, '')}@api.onetrust.com`,
      languageId: 1,
      role: 'Api Key User',
      'ot-scopes': client.scope,
      guid: randomUUID(),
      sessionId: randomUUID(),
      jti: randomUUID(),
    };
    return c.json(body, 200, { 'cache-control': 'no-store' });
  };

  /** Route middleware: a valid bearer token holding one of `scopes`. */
  const requireScopes =
    (scopes: readonly GovernanceScope[]): MiddlewareHandler<Env> =>
    async (_c, next) => {
      const match = /^Bearer\s+(\S+)$/i.exec(_c.req.header('authorization') ?? '');
      const token = match ? tokens.get(match[1]!) : undefined;
      if (!token) throw new ApiError(401, 'UNAUTHORIZED', 'Full authentication is required to access this resource');
      if (token.expiresAt <= Date.now()) {
        tokens.delete(match![1]!);
        throw new ApiError(401, 'UNAUTHORIZED', 'Access token expired');
      }
      if (!token.scopes.some((s) => scopes.includes(s)))
        throw new ApiError(403, 'FORBIDDEN', 'Insufficient scope for this resource');
      await next();
    };

  return { issue, requireScopes };
}
