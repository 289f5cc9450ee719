/**
 * Errors of the upstream layer. They describe what went wrong with an upstream call in terms the
 * GraphQL layer can map to `extensions.code` (see `src/graph/errors.ts`), and never carry a URL, a header
 * or a token: messages are written to be shown to a client as they are.
 */
export type UpstreamName = 'governance' | 'calendar';

export type UpstreamErrorKind =
  /** The upstream rejected the input (400, validation). */
  | 'bad-request'
  /** The record does not exist (404, or the upstream's not-found 400). */
  | 'not-found'
  /** Missing, expired or wrong credentials (401). */
  | 'unauthenticated'
  /** Credentials lack a permission or scope (403). */
  | 'forbidden'
  /** The record is gone for good (410, e.g. an event already in the trash). */
  | 'gone'
  /** The account's rate limit: the call was not sent, or the upstream answered 429. */
  | 'rate-limited'
  /** The per-operation upstream budget is spent. */
  | 'budget-exceeded'
  /** 5xx, a reset socket, a timeout, an unparseable or oversized body. */
  | 'unavailable'
  /**
   * A write that may have reached the upstream without an answer (timeout after send, reset, body
   * cut): it may or may not have been applied. Never retried; the caller should re-read.
   */
  | 'outcome-unknown'
  /** Other writes to the same record held its lock for longer than the wait allows. */
  | 'busy'
  /** The answer's shape broke the contract (a required field missing or of another type). */
  | 'contract';

export interface UpstreamErrorOptions {
  status?: number;
  /** Machine-readable code from the upstream's error body, e.g. `rest_invalid_param`. */
  upstreamCode?: string;
  /** Upstream parameter names the error refers to, when it says. */
  params?: string[];
  /** The graph argument the refusal concerns, when it concerns one (e.g. `input.venueId`). */
  argument?: string;
  /** Seconds after which a retry may succeed. */
  retryAfter?: number;
  /** Scope or capability that was missing, when known. */
  missingScope?: string;
  /**
   * Transport failures only: whether the request may have reached the upstream (it was being
   * written on a connected socket when it failed). False means it certainly was not sent.
   */
  sent?: boolean;
  /** `outcome-unknown` only: the upstream answered 2xx, so the write was applied; only its body was lost. */
  applied?: boolean;
  /** `contract`: the payload field (dotted path) that broke the contract. */
  field?: string;
  /** `unavailable` without a call: the upstream's circuit breaker is open. */
  breaker?: boolean;
  /** The upstream's own words (`sanitizeDetail`), for the request log only: never sent to a client. */
  detail?: string;
  cause?: unknown;
}

export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly status?: number;
  readonly upstreamCode?: string;
  readonly params?: string[];
  /** Set by the adapter that knows which argument the refusal concerns (see `concerning`). */
  argument?: string;
  readonly retryAfter?: number;
  readonly missingScope?: string;
  readonly sent?: boolean;
  readonly applied?: boolean;
  readonly field?: string;
  readonly breaker?: boolean;
  readonly detail?: string;

  constructor(
    readonly upstream: UpstreamName,
    readonly kind: UpstreamErrorKind,
    message: string,
    { cause, ...details }: UpstreamErrorOptions = {},
  ) {
    const frames = withoutFrames();
    super(message, cause === undefined ? undefined : { cause });
    Error.stackTraceLimit = frames;
    Object.assign(this, details);
  }
}

/**
 * Stack capture off for the error about to be constructed; answers the limit to put back right after.
 * These are expected failures, never logged with a stack, but graphql-js copies `originalError.stack`
 * onto every failing field's error, and under `--enable-source-maps` (the production start) that
 * maps each frame: an error with frames cost twenty times one without, on the thread that answers
 * every operation. graph/errors.ts builds its GraphQL errors without frames for the same reason.
 */
export function withoutFrames(): number {
  const frames = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return frames;
}

export const isUpstreamError = (e: unknown): e is UpstreamError => e instanceof UpstreamError;

/** One wording for an upstream's 5xx (or any status it should not have answered), on both upstreams. */
export function upstreamFailed(upstream: UpstreamName, status: number, upstreamCode?: string): UpstreamError {
  const message = `The ${upstream} service failed (HTTP ${status}); try again later.`;
  return new UpstreamError(upstream, 'unavailable', message, { status, upstreamCode });
}

export const shuttingDown = (upstream: UpstreamName): UpstreamError =>
  new UpstreamError(
    upstream,
    'unavailable',
    `The gateway is shutting down; the ${upstream} request was not completed.`,
  );

export const cancelled = (upstream: UpstreamName, details?: UpstreamErrorOptions): UpstreamError =>
  new UpstreamError(upstream, 'unavailable', `The request to the ${upstream} service was cancelled.`, details);

/** A request its own caller cancelled (`cancelled`): no verdict on the upstream. */
export const cancelledByCaller = (e: UpstreamError): boolean => /was cancelled/.test(e.message);

/**
 * A refusal of the record an argument addresses (not found, gone) names that argument, unless it
 * already names one; anything else passes unchanged. For adapters that resolve `id` or `slug` first.
 */
export function concerning(error: unknown, argument: string): unknown {
  if (isUpstreamError(error) && !error.argument && (error.kind === 'not-found' || error.kind === 'gone'))
    error.argument = argument;
  return error;
}

/** Names for a message: quoted, at most `max` of them, then how many more. */
export function quotedList(names: readonly string[], max = 30): string {
  const shown = names.slice(0, max).map((n) => `"${n}"`);
  return names.length > max ? `${shown.join(', ')} and ${names.length - max} more` : shown.join(', ');
}

/**
 * The client's mistake, found by an adapter before any upstream call (`argument` names the offending
 * argument), or a write refused because the record changed since the client read it (`currentVersion`
 * set). Adapters throw this, never a GraphQL error: `src/graph/errors.ts` gives it its
 * `extensions.code` (BAD_USER_INPUT, or CONFLICT with the current version).
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    message: string,
    readonly argument?: string,
    readonly currentVersion?: string,
  ) {
    const frames = withoutFrames();
    super(message);
    Error.stackTraceLimit = frames;
  }
}

export const invalidInput = (message: string, argument?: string): InputError => new InputError(message, argument);

/** The record changed since the client read it (its version differs from `expectedVersion`): nothing was written. */
export const versionConflict = (currentVersion: string, argument = 'expectedVersion'): InputError =>
  new InputError(
    `The record was changed since you read it (its version differs from "${argument}"); nothing was written. Re-read it and apply your change again.`,
    argument,
    currentVersion,
  );

/** Removes anything URL- or token-like from text that came from an upstream, before a client sees it. */
export function sanitizeDetail(text: string, max = 300): string {
  return text
    .replace(/https?:\/\/[^\s"'<>]+/gi, '[url]')
    .replace(/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]')
    .replace(/\beyJ[A-Za-z0-9._-]{10,}/g, '[token]')
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max);
}

/** Why an upstream call failed, in an operator's words, without its URL or credentials. */
export type FailureCause = 'dns' | 'refused' | 'reset' | 'tls' | 'timeout' | 'http-5xx' | 'bad-body' | 'other';

const CAUSE_OF_CODE: [RegExp, FailureCause][] = [
  [/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME)$/, 'dns'],
  [/^ECONNREFUSED$/, 'refused'],
  [/^(ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)$/, 'reset'],
  [/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/, 'tls'],
  [/^(ETIMEDOUT|UND_ERR_(CONNECT|HEADERS|BODY)_TIMEOUT)$/, 'timeout'],
];

/** The cause of an upstream failure: the first error code along the `cause` chain, else a status or message. */
export function failureCause(error: unknown): FailureCause {
  const chain: unknown[] = [];
  for (let e = error; e && chain.length < 6; e = (e as { cause?: unknown }).cause) chain.push(e);
  for (const e of chain) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') for (const [re, cause] of CAUSE_OF_CODE) if (re.test(code)) return cause;
  }
  for (const e of chain.filter(isUpstreamError)) {
    if (/did not answer in time/.test(e.message)) return 'timeout';
    if (e.status !== undefined && e.status >= 500) return 'http-5xx';
    if (/content type|not valid JSON|larger than allowed/.test(e.message)) return 'bad-body';
  }
  return 'other';
}
