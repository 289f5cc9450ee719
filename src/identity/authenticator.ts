/**
 * Authentication: turns the `Authorization` header into a Principal, or a reason for refusing it.
 * JWTs are verified with `jose` against the JWKS of the issuer they name (one of the configured
 * issuers; fetched at most once per cooldown, failed or not: issuer-keys.ts), with the
 * issuer's audience, asymmetric algorithms only (never `none`, never HMAC keyed with a public key)
 * and exp/nbf within a small clock skew. Anything else after `Bearer` is an API key, compared by
 * its SHA-256 hash (configuration holds only hashes). A verified token is remembered by its hash
 * until it expires, so repeated requests verify nothing: the lookup is synchronous.
 *
 * When an upstream is read with the caller's own credential (`*_AUTH_MODE=forward`), a credential
 * that is neither a token of a configured issuer nor a known API key is that upstream's: it is
 * forwarded and the upstream decides. It holds only the permissions of the upstream(s) that judge
 * it themselves, never one on an upstream the gateway signs for with its own credential.
 */
import { createHash } from 'node:crypto';
import { decodeJwt, errors, jwtVerify, type JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import { IssuerKeys, JwksUnavailable } from './issuer-keys.js';
import { permissionsFromClaims, type PermissionMap } from './permissions.js';
import { anonymous, type Permission, type Principal } from './principal.js';

export interface IssuerConfig {
  issuer: string;
  /** The gateway's name(s) at this issuer: a token must be for one of them. */
  audience: string | string[];
  jwksUrl: string;
}

export interface ApiKeyConfig {
  name: string;
  sha256: string;
  permissions: readonly Permission[];
}

export interface AuthenticatorOptions {
  issuers: readonly IssuerConfig[];
  apiKeys?: readonly ApiKeyConfig[];
  /** What a request without credentials may do; empty → it is refused (401). */
  anonymous: readonly Permission[];
  permissionMap?: PermissionMap;
  /**
   * What a credential the gateway cannot verify may do: the permissions of the upstreams that judge
   * it themselves (forward mode). Empty or absent: it is refused.
   */
  forwarded?: readonly Permission[];
  /** Shortest time between two JWKS fetches of one issuer (an unknown `kid` refetches). */
  jwksCooldownMs?: number;
  now?: () => number;
}

/** Why credentials were refused; a bounded set, used as a metric label. */
export const FAILURES = [
  'missing',
  'malformed',
  'expired',
  'not-yet-valid',
  'unknown-issuer',
  'wrong-audience',
  'algorithm',
  'unknown-key',
  'signature',
  'unknown-api-key',
  'jwks-unavailable',
] as const;
export type AuthFailure = (typeof FAILURES)[number];

/**
 * A principal, or why the credentials were refused. `forwarded`: the credential is not the gateway's
 * (why not, as a failure) and was let through for the upstream to judge (forward mode).
 */
export type AuthResult =
  | { principal: Principal; failure?: undefined; forwarded?: AuthFailure }
  | { failure: AuthFailure; forwarded?: undefined };

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const BEARER = /^bearer +(\S+)\s*$/i;
/** exp and nbf are checked with this much slack (seconds): the issuer's clock and ours differ a little. */
const CLOCK_SKEW_S = 30;

interface Remembered {
  principal: Principal;
  expiresAt: number;
}

export class Authenticator {
  private readonly anonymous?: Principal;
  private readonly issuers: Map<string, { config: IssuerConfig; keys: IssuerKeys }>;
  private readonly apiKeys: Map<string, Principal>;
  private readonly remembered = new LRUCache<string, Remembered>({ max: 10_000 });
  private readonly now: () => number;

  constructor(private readonly options: AuthenticatorOptions) {
    this.now = options.now ?? Date.now;
    if (options.anonymous.length > 0) this.anonymous = anonymous(options.anonymous);
    this.issuers = new Map(
      options.issuers.map((config) => [
        config.issuer,
        { config, keys: new IssuerKeys(config.jwksUrl, options.jwksCooldownMs ?? 30_000, this.now) },
      ]),
    );
    this.apiKeys = new Map(
      (options.apiKeys ?? []).map((k) => [
        k.sha256.toLowerCase(),
        { id: `key:${k.name}`, kind: 'apikey', agent: k.name, permissions: new Set(k.permissions) },
      ]),
    );
  }

  /** Synchronous when the credential was seen before (or there is none). */
  authenticate(authorization: string | null | undefined): AuthResult | Promise<AuthResult> {
    if (!authorization) return this.anonymous ? { principal: this.anonymous } : { failure: 'missing' };
    const token = BEARER.exec(authorization)?.[1];
    if (!token) return this.unknown(authorization, 'malformed');
    const digest = createHash('sha256').update(token).digest();
    const seen = this.remembered.get(digest.toString('base64url'));
    if (seen && seen.expiresAt > this.now()) return { principal: seen.principal };
    if (token.split('.').length !== 3) {
      const principal = this.apiKeys.get(digest.toString('hex'));
      return principal ? { principal } : this.unknown(authorization, 'unknown-api-key');
    }
    let issuer: string | undefined;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      return this.unknown(authorization, 'malformed');
    }
    const entry = issuer === undefined ? undefined : this.issuers.get(issuer);
    if (!entry) return this.unknown(authorization, 'unknown-issuer');
    return this.verify(token, digest.toString('base64url'), entry);
  }

  /** A credential that is not the gateway's: refused, or the upstream's to judge (forward mode). */
  private unknown(authorization: string, failure: AuthFailure): AuthResult {
    const permissions = this.options.forwarded ?? [];
    if (permissions.length === 0) return { failure };
    const hash = createHash('sha256').update(authorization).digest('base64url').slice(0, 22);
    return {
      principal: { id: `forwarded:${hash}`, kind: 'user', permissions: new Set(permissions) },
      forwarded: failure,
    };
  }

  private async verify(
    token: string,
    hash: string,
    entry: { config: IssuerConfig; keys: IssuerKeys },
  ): Promise<AuthResult> {
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, entry.keys.resolve, {
        issuer: entry.config.issuer,
        audience: entry.config.audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_SKEW_S,
        currentDate: new Date(this.now()),
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (e) {
      return { failure: reasonOf(e) };
    }
    const principal = this.principalOf(claims, entry.config.issuer);
    this.remembered.set(hash, { principal, expiresAt: claims.exp! * 1000 });
    return { principal };
  }

  private principalOf(claims: JWTPayload, issuer: string): Principal {
    const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
    const clientId = text(claims.client_id) ?? text(claims.azp);
    const act = claims.act as { sub?: unknown } | undefined;
    return {
      id: `${issuer}|${claims.sub}`,
      kind: clientId !== undefined && clientId === claims.sub ? 'service' : 'user',
      subject: claims.sub,
      issuer,
      clientId,
      agent: text(claims.agent) ?? text(act?.sub),
      expiresAt: claims.exp! * 1000,
      permissions: permissionsFromClaims(claims, this.options.permissionMap),
    };
  }
}

const CLAIM_FAILURES: Record<string, AuthFailure> = {
  aud: 'wrong-audience',
  nbf: 'not-yet-valid',
  iss: 'unknown-issuer',
};

function reasonOf(e: unknown): AuthFailure {
  if (e instanceof errors.JWTExpired) return 'expired';
  if (e instanceof errors.JWTClaimValidationFailed) return CLAIM_FAILURES[e.claim] ?? 'malformed';
  if (e instanceof errors.JOSEAlgNotAllowed) return 'algorithm';
  if (e instanceof errors.JWKSNoMatchingKey) return 'unknown-key';
  if (e instanceof errors.JWSSignatureVerificationFailed) return 'signature';
  if (e instanceof JwksUnavailable || !(e instanceof errors.JOSEError)) return 'jwks-unavailable';
  return 'malformed';
}
