/**
 * Idempotent creates. A create carrying a key — the `Idempotency-Key` header (scoped to the
 * mutation field, by its response name, so one operation can create several records) or the
 * field's own `clientMutationId` — answers a retry within the TTL with the first result instead of
 * creating again. The key is scoped to the caller (its principal) and to the upstream credential, so
 * callers never share keys, not even callers the gateway writes for with its one credential.
 *
 * Same key, different input: BAD_USER_INPUT. First attempt still running: CONFLICT. First attempt
 * ended with an unknown outcome: UPSTREAM_OUTCOME_UNKNOWN again (creating again could duplicate).
 * A first attempt that certainly wrote nothing releases the key.
 */
import { createHash } from 'node:crypto';
import type { GraphQLResolveInfo } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import { isUpstreamError, UpstreamError, type UpstreamName } from '../core/errors.js';
import type { IdempotencyStore } from '../core/idempotency.js';
import { badInput, ErrorCode } from './errors.js';

export interface IdempotencyContext {
  store: IdempotencyStore;
  /** The request's `Idempotency-Key` header, when sent. */
  headerKey?: string;
  /** The caller's principal id: a key is the caller's own, even where callers share an upstream credential. */
  caller: string;
}

const KEY = /^[\x21-\x7e]{1,255}$/;

export function checkIdempotencyKey(value: string | null | undefined, argument: string): string | undefined {
  if (value == null) return undefined;
  if (!KEY.test(value))
    throw badInput(`"${argument}" must be 1 to 255 printable ASCII characters without spaces.`, argument);
  return value;
}

export async function idempotentCreate<T>(
  idem: IdempotencyContext | undefined,
  info: GraphQLResolveInfo,
  scope: { upstream: UpstreamName; identity: string },
  input: unknown,
  clientMutationId: string | null | undefined,
  create: () => Promise<T>,
): Promise<T> {
  const own = checkIdempotencyKey(clientMutationId, 'clientMutationId');
  const given = own ?? checkIdempotencyKey(idem?.headerKey, 'Idempotency-Key');
  if (!idem || !given) return create();
  const key = createHash('sha256')
    .update(
      JSON.stringify([
        scope.upstream,
        scope.identity,
        idem.caller,
        own ? `field:${info.fieldName}` : `header:${info.path.key}`,
        given,
      ]),
    )
    .digest('base64url');
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([info.fieldName, input]))
    .digest('base64url');
  const earlier = await idem.store.begin(key, fingerprint);
  if (earlier) {
    if (earlier.fingerprint !== fingerprint) {
      throw badInput(
        'This idempotency key was used for a different request; use a new key for a new request.',
        own ? 'clientMutationId' : undefined,
      );
    }
    if (earlier.state === 'done') return earlier.result as T;
    if (earlier.state === 'pending') {
      throw createGraphQLError('The first request with this idempotency key is still running; retry it in a moment.', {
        extensions: { code: ErrorCode.CONFLICT, reason: 'IDEMPOTENCY_KEY_IN_USE', retryAfter: 1 },
      });
    }
    throw new UpstreamError(
      scope.upstream,
      'outcome-unknown',
      'The first request with this idempotency key ended without an answer, so whether it created the record is unknown; look for the record before creating it with a new key.',
    );
  }
  try {
    const result = await create();
    const copy: unknown = JSON.parse(JSON.stringify(result));
    await idem.store.finish(key, { state: 'done', fingerprint, result: copy });
    return result;
  } catch (e) {
    if (isUpstreamError(e) && e.kind === 'outcome-unknown')
      await idem.store.finish(key, { state: 'unknown', fingerprint });
    else await idem.store.forget(key);
    throw e;
  }
}
