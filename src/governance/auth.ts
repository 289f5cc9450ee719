/**
 * Credentials for the governance upstream. Two modes:
 * - `configured`: OAuth2 client credentials. One token per gateway process, fetched from the token
 *   endpoint with a multipart form, cached until shortly before it expires, fetched by one caller at a
 *   time (single-flight) and fetched again once when the upstream answers 401.
 * - `forward`: the caller's own `Authorization: Bearer` header is passed through untouched.
 * Tokens and secrets never leave this file except in the `Authorization` header of an upstream call;
 * error messages name neither them nor the token URL.
 */
import { createHash } from 'node:crypto';
import { FormData as UndiciFormData } from 'undici';
import type { Config } from '../config/config.js';
import { UpstreamError, type UpstreamErrorKind } from '../core/errors.js';
import type { Upstream } from '../core/upstream-pipeline.js';
import type { UsageTracker } from '../core/usage.js';
import type { TokenResponse } from './wire.js';

/** One caller's credential as the REST client uses it. */
export interface GovernanceCredential {
  /** Non-secret identity: partitions the shared response cache. */
  readonly identity: string;
  /** The `Authorization` header value for the next call. */
  authorization(usage: UsageTracker): Promise<string>;
  /** After a 401 with `rejected`: true when a different credential is now available for one retry. */
  renew(rejected: string, usage: UsageTracker): Promise<boolean>;
}

interface CachedToken {
  header: string;
  /** Epoch ms after which the token is no longer used. */
  renewAt: number;
}

/** Lifetime assumed when the token endpoint sends no `expires_in` (as other clients of the platform do). */
const DEFAULT_LIFETIME_S = 3600;

export class GovernanceAuth {
  private token?: CachedToken;
  private pending?: Promise<CachedToken>;
  private readonly clientCredential?: GovernanceCredential;

  constructor(
    private readonly config: Config,
    private readonly upstream: Upstream,
  ) {
    const { clientId } = config.governance;
    if (config.governance.authMode === 'configured') {
      this.clientCredential = {
        identity: `client:${clientId ?? 'none'}`,
        authorization: async (usage) => (await this.currentToken(usage)).header,
        renew: async (rejected, usage) => {
          if (this.token?.header === rejected) this.token = undefined;
          const next = await this.currentToken(usage, true);
          return next.header !== rejected;
        },
      };
    }
  }

  /**
   * Calls an operation makes before its first governance read: a token read (1) while the gateway
   * uses its own credentials and holds no valid token; a forwarded credential is the caller's (0).
   */
  setupCalls(): number {
    if (!this.clientCredential) return 0;
    return this.token && Date.now() < this.token.renewAt ? 0 : 1;
  }

  /** The credential for one incoming request (its headers matter only in `forward` mode). */
  credentialFor(headers: Headers): GovernanceCredential {
    if (this.clientCredential) return this.clientCredential;
    const header = headers.get('authorization') ?? '';
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    if (!bearer) {
      return {
        identity: 'anonymous',
        authorization: () =>
          Promise.reject(
            new UpstreamError(
              'governance',
              'unauthenticated',
              'This gateway forwards your credentials to the governance service: send an `Authorization: Bearer` header.',
            ),
          ),
        renew: () => Promise.resolve(false),
      };
    }
    const value = `Bearer ${bearer}`;
    return {
      identity: `bearer:${createHash('sha256').update(bearer).digest('hex')}`,
      authorization: () => Promise.resolve(value),
      // The caller's token is theirs to renew.
      renew: () => Promise.resolve(false),
    };
  }

  /** `repeat`: asked for because the upstream refused the last token (the read is a retry's). */
  private currentToken(usage: UsageTracker, repeat = false): Promise<CachedToken> {
    if (this.token && Date.now() < this.token.renewAt) return Promise.resolve(this.token);
    return (this.pending ??= this.fetchToken(usage, repeat)
      .then((token) => (this.token = token))
      .finally(() => (this.pending = undefined)));
  }

  private async fetchToken(usage: UsageTracker, repeat: boolean): Promise<CachedToken> {
    const { tokenUrl, clientId, clientSecret } = this.config.governance;
    const missing = 'The gateway has no governance client credentials configured.';
    if (!tokenUrl || !clientId || !clientSecret) throw new UpstreamError('governance', 'unauthenticated', missing);
    // undici's own FormData: Node's global one belongs to its bundled undici and is not encoded by this one.
    const form = new UndiciFormData();
    form.set('grant_type', 'client_credentials');
    form.set('client_id', clientId);
    form.set('client_secret', clientSecret);
    const started = Date.now();
    // Through the upstream pipeline: the token request counts in the caller's usage and against the
    // account's budget like any other. Not cached, not shared: a form body with the secret.
    const res = await this.upstream.call(
      {
        method: 'POST',
        path: '',
        url: tokenUrl,
        body: form as unknown as FormData,
        idempotent: false,
        kind: 'token',
        operation: 'auth.token',
        repeat,
      },
      { identity: `client:${clientId}`, usage },
    );
    const fail = (kind: UpstreamErrorKind, message: string) =>
      new UpstreamError('governance', kind, message, { status: res.status });
    if (res.status === 400 || res.status === 401 || res.status === 403)
      throw fail('unauthenticated', "The governance service refused the gateway's client credentials.");
    if (res.status === 429) throw fail('rate-limited', 'The governance token service is rate limiting the gateway.');
    const body = res.body as Partial<TokenResponse> | undefined;
    if (res.status < 200 || res.status >= 300 || typeof body?.access_token !== 'string')
      throw fail('unavailable', 'The governance token service did not issue a token.');
    const lifetimeMs =
      (typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : DEFAULT_LIFETIME_S) * 1000;
    // Renew a minute early (a tenth of the lifetime for short-lived tokens) so no call carries a token that expires in flight.
    const margin = Math.min(60_000, lifetimeMs / 10);
    return { header: `Bearer ${body.access_token}`, renewAt: started + lifetimeMs - margin };
  }
}
