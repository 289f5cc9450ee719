/**
 * One issuer's signing keys, fetched from its JWKS and held as jose's local key set. The endpoint is
 * asked at most once per cooldown, whether the last attempt succeeded or failed (jose's remote set
 * refetches on every request while the endpoint fails, and reports a non-200 answer like a malformed
 * token): on first use, on a key id it does not hold, and when the keys are older than `MAX_AGE_MS`
 * (so a removed key stops verifying). Keys fetched before keep verifying while it fails; a token
 * they cannot verify then is `JwksUnavailable`, not a bad token.
 */
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';

/** The keys could not be fetched (and none held verifies the token): try again shortly. */
export class JwksUnavailable extends Error {}

/** Keys older than this are fetched again (when the cooldown allows). */
const MAX_AGE_MS = 600_000;
const TIMEOUT_MS = 5_000;

export class IssuerKeys {
  private local?: ReturnType<typeof createLocalJWKSet>;
  private loadedAt = -Infinity;
  private attemptAt = -Infinity;
  private failed = false;
  private pending?: Promise<void>;

  constructor(
    private readonly url: string,
    private readonly cooldownMs: number,
    private readonly now: () => number,
  ) {}

  /** The key for a token's header, as `jwtVerify` asks for it. */
  readonly resolve: JWTVerifyGetKey = async (header, token) => {
    if (!this.local || this.now() - this.loadedAt >= MAX_AGE_MS) await this.refresh();
    if (!this.local) throw new JwksUnavailable();
    try {
      return await this.local(header, token);
    } catch (e) {
      if (!(e instanceof errors.JWKSNoMatchingKey)) throw e;
      await this.refresh();
      if (this.failed) throw new JwksUnavailable();
      return this.local(header, token);
    }
  };

  /** Fetches the keys unless an attempt was made within the cooldown; one fetch at a time. */
  private refresh(): Promise<void> {
    if (this.pending) return this.pending;
    if (this.now() - this.attemptAt < this.cooldownMs) return Promise.resolve();
    this.attemptAt = this.now();
    return (this.pending = this.load().finally(() => (this.pending = undefined)));
  }

  private async load(): Promise<void> {
    try {
      this.local = createLocalJWKSet(await this.fetch());
      this.loadedAt = this.now();
      this.failed = false;
    } catch {
      // Unreachable, an error status, not JSON, not a key set: the keys held (if any) stay.
      this.failed = true;
    }
  }

  private async fetch(): Promise<JSONWebKeySet> {
    const res = await fetch(this.url, {
      redirect: 'manual',
      headers: { accept: 'application/json, application/jwk-set+json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (res.status !== 200) throw new Error(`JWKS answered ${res.status}`);
    return (await res.json()) as JSONWebKeySet;
  }
}
