/**
 * WordPress error bodies (`{code, message, data: {status, params}}`) → `UpstreamError`. Messages are
 * written by the gateway, not passed through: the upstream's text can name internals, so only its
 * parameter names (translated to the graph's argument names) reach the client. A refusal that
 * concerns one argument names it (`argument`, e.g. `input.venueId`), in the words of `refusals.ts`.
 */
import { UpstreamError, upstreamFailed, type UpstreamErrorKind } from '../core/errors.js';
import type { HttpResponse } from '../core/http.js';
import { calendarRefusal, graphArgument, prefixOf, recordNamedBy, recordOf } from './refusals.js';
import type { WireError } from './wire.js';

function wireError(res: HttpResponse): Partial<WireError> {
  return res.body && typeof res.body === 'object' ? res.body : {};
}

/** `rest_invalid_param` lists params as an object, `rest_missing_callback_param` as an array. */
function paramNames(body: Partial<WireError>): string[] {
  const params = body.data?.params;
  if (!params) return [];
  return Array.isArray(params) ? params.map(String) : Object.keys(params);
}

/** A page past the end of an archive: the end of the list. */
export function isEndOfList(res: HttpResponse): boolean {
  const code = wireError(res).code ?? '';
  return (res.status === 404 && /archive-page-not-found$/.test(code)) || code === 'rest_term_invalid_page_number';
}

export function toUpstreamError(
  res: HttpResponse,
  context: { single?: boolean; operation?: string } = {},
): UpstreamError {
  const body = wireError(res);
  const code = typeof body.code === 'string' ? body.code : undefined;
  const params = paramNames(body);
  const status = res.status;
  const make = (kind: UpstreamErrorKind, message: string, argument?: string, params?: string[]) =>
    new UpstreamError('calendar', kind, message, { status, upstreamCode: code, params, argument });

  if (status >= 500) return upstreamFailed('calendar', status, code);
  if (status === 410) return make('gone', 'The record is already in the trash.');
  if (status === 401)
    return make('unauthenticated', 'The calendar service needs valid credentials for this operation.');
  if (code === 'event-no-longer-available') return make('gone', 'The event is in the trash and no longer available.');
  if (status === 403) {
    if (code === 'event-password-protected')
      return make('forbidden', 'The event is password protected: give its password.', 'password');
    if (code === 'could-not-update-event')
      return make('unavailable', 'The calendar service could not update the event.');
    return make('forbidden', 'The calendar credentials are not allowed to do this.');
  }
  // A single record addressed by a missing id or slug: core answers 400 on the path parameter. The
  // caller knows whether its argument was the id or the slug (see `concerning`).
  const onRecordKey = params.length > 0 && params.every((p) => p === 'id' || p === 'slug');
  if (
    status === 404 ||
    code === 'rest-invalid-event-id' ||
    (context.single && code === 'rest_invalid_param' && onRecordKey)
  ) {
    return make('not-found', `The ${recordOf(context.operation)} does not exist.`);
  }
  const args = params.map((p) => graphArgument(p, context.operation));
  const one = args.length === 1 ? `${prefixOf(context.operation)}${args[0]}` : undefined;
  if (code === 'rest_missing_callback_param')
    return make('bad-request', `Missing required input: ${args.join(', ')}.`, one, args);
  if (code === 'rest_invalid_param') {
    const record = params.length === 1 ? recordNamedBy(params[0]!) : undefined;
    if (record) return make('bad-request', `"${one}" names ${record} that does not exist.`, one, args);
    return make('bad-request', `The calendar service rejected the input: ${args.join(', ')}.`, one, args);
  }
  return (
    calendarRefusal(code, context.operation, make) ??
    make('bad-request', `The calendar service refused the request (HTTP ${status}).`)
  );
}
