/**
 * A tiny OpenID issuer for development and tests: one signing key pair (ES256), its JWKS and the
 * discovery document served on a real socket, and tokens for a few sample callers. `npm start`
 * runs it beside the embedded emulators and prints the tokens; tests sign the tokens they need
 * (expired, wrong audience, another key …) and rotate the key. Never used in production.
 *
 * With a `keyFile`, the key and the port are kept there (mode 0600) and reused by the next start,
 * so tokens signed before a restart (GraphiQL's saved tabs) still verify: same key, same issuer URL.
 * If that port is taken, the issuer listens on another and says so; the file keeps the first one.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import { PERMISSIONS, type Permission } from './principal.js';
import { ownJson } from '../core/records.js';

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

export interface DevIssuerOptions {
  port?: number;
  host?: string;
  /** Where the key and port are kept between starts. */
  keyFile?: string;
  /** Told when the kept port is taken (the tokens of earlier starts then no longer verify). */
  log?: (line: string) => void;
}

/** What a key file holds. */
interface Kept {
  port: number;
  privateJwk: JWK;
}

export class DevIssuer {
  private key!: Key;
  private generation = 0;

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
  ) {}

  static async start({ port = 0, host = '127.0.0.1', keyFile, log }: DevIssuerOptions = {}): Promise<DevIssuer> {
    const kept = keyFile ? readKept(keyFile) : undefined;
    // Requests arrive only once listening, after `self` is set.
    const server = createServer((req, res) => self.answer(req.url, res));
    let listening = await listen(server, kept?.port ?? port, host);
    if (!listening && kept) {
      log?.(`development issuer: port ${kept.port} is taken; tokens of earlier starts will not verify`);
      listening = await listen(server, port, host);
    }
    if (!listening) throw new Error(`development issuer: cannot listen on ${host}:${port}`);
    const { port: bound } = server.address() as AddressInfo;
    const self = new DevIssuer(server, `http://${host}:${bound}`);
    const privateJwk = kept?.privateJwk ?? (keyFile ? await newPrivateJwk() : undefined);
    if (privateJwk) await self.use(privateJwk);
    else await self.rotate();
    if (keyFile && privateJwk && !kept) writeKept(keyFile, { port: bound, privateJwk });
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

  /** Signs with a kept private key; its kid is its thumbprint, the same on every start. */
  private async use(privateJwk: JWK): Promise<void> {
    const { d: _private, ...publicJwk } = privateJwk;
    const kid = await calculateJwkThumbprint(publicJwk);
    const privateKey = (await importJWK(privateJwk, 'ES256')) as CryptoKey;
    this.key = { kid, privateKey, jwk: { ...publicJwk, kid, alg: 'ES256', use: 'sig' } };
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

/** A new ES256 private key, as a JWK (to be kept). */
async function newPrivateJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return exportJWK(privateKey);
}

/** Listens; false when the port is taken. */
function listen(server: Server, port: number, host: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => (e.code === 'EADDRINUSE' ? resolve(false) : reject(e));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(true);
    });
  });
}

/** The key file's content, or undefined when there is none (or it is not one). */
function readKept(file: string): Kept | undefined {
  try {
    const kept = ownJson<Partial<Kept>>(readFileSync(file, 'utf8'));
    return Number.isInteger(kept.port) && kept.privateJwk?.d ? (kept as Kept) : undefined;
  } catch {
    return undefined;
  }
}

/** Written whole (a sibling file renamed over it), readable by its owner only. */
function writeKept(file: string, kept: Kept): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(kept), { mode: 0o600 });
  renameSync(partial, file);
}
