/**
 * How the governance client reads an error answer: the platform's `{errors:[{code,title,detail}],
 * traceId}` envelope (or a bare string, or nothing), the not-found 400, the scope table of the
 * contract (to name the missing scope on a 403) and `Retry-After` on a 429 that reached it.
 */
import { sanitizeDetail, UpstreamError, upstreamFailed } from '../core/errors.js';
import type { UpstreamErrorKind, UpstreamErrorOptions } from '../core/errors.js';
import type { HttpResponse } from '../core/http.js';
import { parseRetryAfter } from '../core/retry-after.js';
import { governanceRefusal, type SentRequest } from './refusals.js';
import type { ErrorBody } from './wire.js';

/** Which row of the contract's scope table an operation belongs to. */
export type ScopeGroup = 'read' | 'write' | 'links' | 'delete';

/** Accepted scopes per group (any one suffices); the first is the narrowest one to ask for. */
const ACCEPTED_SCOPES: Record<ScopeGroup, string[]> = {
  read: ['AI_GOVERNANCE_READ', 'AI_GOVERNANCE_WRITE', 'AI_GOVERNANCE'],
  write: ['AI_GOVERNANCE_WRITE', 'AI_GOVERNANCE'],
  links: ['AI_GOVERNANCE_READ', 'AI_GOVERNANCE'],
  delete: ['AI_GOVERNANCE'],
};

const NOT_FOUND_CODE = 'ERROR_ONETRUST_ENTITY_NOT_FOUND';

function firstError(body: unknown): { code?: string; detail?: string } {
  if (typeof body === 'string') return { detail: body };
  const item = (body as Partial<ErrorBody> | undefined)?.errors?.[0];
  if (!item) return {};
  return { code: item.code, detail: item.detail || item.title };
}

export function isNotFound(res: HttpResponse): boolean {
  if (res.status === 404) return true;
  return res.status === 400 && firstError(res.body).code === NOT_FOUND_CODE;
}

/** The argument a refusal concerns, when it is one of the request's inputs (not the record addressed). */
export function refusedArgument(res: HttpResponse, operation: string, request: SentRequest): string | undefined {
  const { code, detail } = firstError(res.body);
  return governanceRefusal(code, detail, operation, request)?.argument;
}

export function statusError(
  res: HttpResponse,
  scopes: ScopeGroup,
  operation: string,
  request: SentRequest = {},
): UpstreamError {
  const { code, detail } = firstError(res.body);
  const status = res.status;
  const fail = (kind: UpstreamErrorKind, message: string, details: Omit<UpstreamErrorOptions, 'status'> = {}) =>
    new UpstreamError('governance', kind, message, { status, ...details });
  // A not-found here is not the record asked for (reads answer that with null) but one the input
  // refers to (an organization, a link end, a schema): the caller's input is wrong.
  if (status === 400 || status === 404 || status === 422) {
    const known = governanceRefusal(code, detail, operation, request);
    const why = detail ? `: ${sanitizeDetail(detail)}` : '.';
    return fail('bad-request', known?.message ?? `The governance service rejected the request${why}`, {
      upstreamCode: code,
      argument: known?.argument,
    });
  }
  if (status === 401) return fail('unauthenticated', 'The governance service did not accept the credentials.');
  if (status === 403) {
    const accepted = ACCEPTED_SCOPES[scopes];
    return fail(
      'forbidden',
      `The governance credentials lack the scope this operation (${operation}) needs: one of ${accepted.join(', ')}.`,
      { missingScope: accepted[0] },
    );
  }
  if (status === 429) {
    // Normally the pipeline pauses and retries a 429 itself; this is the answer once it gave up.
    const retryAfter = Math.max(1, Math.ceil((parseRetryAfter(res.headers['retry-after']) ?? 1000) / 1000));
    return fail('rate-limited', `The governance service is rate limiting this account; retry after ${retryAfter} s.`, {
      retryAfter,
    });
  }
  return upstreamFailed('governance', status, code);
}
