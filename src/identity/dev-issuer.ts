/**
 * A tiny OpenID issuer for development and tests: one signing key pair (ES256), its JWKS and the
 * discovery document served on a real socket, and tokens for a few sample callers. `npm start`
 * runs it beside the embedded emulators and prints the tokens; tests sign the tokens they need
 * (expired, wrong audience, another key …) and rotate the key. Never used in production.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { PERMISSIONS, type Permission } from './principal.js';

export const DEV_AUDIENCE = 'governance-calendar-gateway';

/** The sample callers and what their tokens' `scope` grants. */
export const SAMPLE_CALLERS: Record<string, { permissions: Permission[]; claims?: JWTPayload }> = {
  reader: { permissions: ['governance:read', 'calendar:read'] },
  editor: {
    permissions: ['governance:read', 'governance:write', 'governance:workflow', 'calendar:read', 'calendar:write'],
  },
  admin: { permissions: [...PERMISSIONS] },
  // A service client (client-credentials token) acting as an automated agent.
  agent: {
    permissions: ['governance:read', 'governance:write', 'calendar:read'],
    claims: { client_id: 'agent', agent: 'inventory-bot' },
  },
};

interface Key {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

export class DevIssuer {
  private key!: Key;
  private generation = 0;

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
  ) {}

  static async start(port = 0, host = '127.0.0.1'): Promise<DevIssuer> {
    // Requests arrive only once listening, after `self` is set.
    const server = createServer((req, res) => self.answer(req.url, res));
    await new Promise<void>((resolve) => server.listen(port, host, resolve));
    const self = new DevIssuer(server, `http://${host}:${(server.address() as AddressInfo).port}`);
    await self.rotate();
    return self;
  }

  private answer(url: string | undefined, res: ServerResponse): void {
    const body =
      url === '/.well-known/openid-configuration'
        ? { issuer: this.issuer, jwks_uri: this.jwksUrl, id_token_signing_alg_values_supported: ['ES256'] }
        : url === '/jwks.json'
          ? { keys: [this.key.jwk] }
          : undefined;
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? {}));
  }

  get jwksUrl(): string {
    return `${this.issuer}/jwks.json`;
  }

  /** A new signing key; the JWKS then lists only it (tokens signed with the old one no longer verify). */
  async rotate(): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const kid = `dev-${++this.generation}`;
    this.key = { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
  }

  /** The current public key, as served in the JWKS. */
  get publicJwk(): JWK {
    return this.key.jwk;
  }

  /** Signs any claims with the current key; `exp` defaults to an hour from now. */
  async sign(claims: JWTPayload, options: { kid?: string; audience?: string; issuer?: string } = {}): Promise<string> {
    const key = this.key;
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ exp: now + 3600, iat: now, ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: options.kid ?? key.kid, typ: 'JWT' })
      .setIssuer(options.issuer ?? this.issuer)
      .setAudience(options.audience ?? DEV_AUDIENCE)
      .sign(key.privateKey);
  }

  /** A token of a sample caller (see SAMPLE_CALLERS). */
  tokenFor(name: string, ttlSeconds = 12 * 3600): Promise<string> {
    const caller = SAMPLE_CALLERS[name];
    if (!caller) throw new Error(`no sample caller ${name}`);
    return this.sign({
      sub: (caller.claims?.client_id as string | undefined) ?? name,
      scope: caller.permissions.join(' '),
      exp: Math.floor(Date.now() / 1000) + ttlSeconds,
      ...caller.claims,
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
