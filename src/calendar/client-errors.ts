/**
 * WordPress error bodies (`{code, message, data: {status, params}}`) → `UpstreamError`. Messages are
 * written here, not passed through: the upstream's text can name internals, so only its parameter
 * names (translated to the graph's argument names) reach the client.
 */
import { UpstreamError, type UpstreamErrorKind } from '../core/errors.js';
import type { HttpResponse } from '../core/http.js';
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

const camel = (name: string): string => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Upstream parameters whose graph argument is not simply their camelCase name. */
const GRAPH_NAMES: Record<string, string> = { event: 'eventId', orderby: 'orderBy', parent: 'parentId' };

/** Where the same parameter is a different argument per operation (a filter of ids, a write's record). */
export type ArgumentNames = Record<string, string>;

/** A page past the end of an archive: the end of the list. */
export function isEndOfList(res: HttpResponse): boolean {
  const code = wireError(res).code ?? '';
  return (res.status === 404 && /archive-page-not-found$/.test(code)) || code === 'rest_term_invalid_page_number';
}

export function toUpstreamError(
  res: HttpResponse,
  context: { single?: boolean; names?: ArgumentNames } = {},
): UpstreamError {
  const body = wireError(res);
  const code = typeof body.code === 'string' ? body.code : undefined;
  const params = paramNames(body);
  const graphName = (p: string) => context.names?.[p] ?? GRAPH_NAMES[p] ?? camel(p);
  const status = res.status;
  const make = (kind: UpstreamErrorKind, message: string, names?: string[]) =>
    new UpstreamError('calendar', kind, message, { status, upstreamCode: code, params: names });

  if (status >= 500) return make('unavailable', 'The calendar service failed to answer; try again later.');
  if (status === 410) return make('gone', 'The record is already in the trash.');
  if (status === 401)
    return make('unauthenticated', 'The calendar service needs valid credentials for this operation.');
  if (code === 'event-no-longer-available') return make('gone', 'The event is in the trash and no longer available.');
  if (status === 403) {
    if (code === 'event-password-protected')
      return make('forbidden', 'The event is password protected: give its password.');
    if (code === 'could-not-update-event')
      return make('unavailable', 'The calendar service could not update the event.');
    return make('forbidden', 'The calendar credentials are not allowed to do this.');
  }
  // A single record addressed by a missing id or slug: core answers 400 on the path parameter.
  const onRecordKey = params.length > 0 && params.every((p) => p === 'id' || p === 'slug');
  if (
    status === 404 ||
    code === 'rest-invalid-event-id' ||
    (context.single && code === 'rest_invalid_param' && onRecordKey)
  ) {
    return make('not-found', 'The calendar record does not exist.');
  }
  if (code === 'rest_missing_callback_param') {
    const names = params.map(graphName);
    return make('bad-request', `Missing required input: ${names.join(', ')}.`, names);
  }
  if (code === 'rest_invalid_param') {
    const names = params.map(graphName);
    return make('bad-request', `The calendar service rejected the input: ${names.join(', ')}.`, names);
  }
  const known: Record<string, string> = {
    'could-not-create-venue': 'The venue could not be created from the data given.',
    'could-not-create-organizer': 'The organizer could not be created from the data given.',
    'invalid-linked-post-id': 'A venue or organizer id given does not exist.',
    'could-not-update-venue': 'The venue could not be updated.',
    'could-not-update-organizer': 'The organizer could not be updated.',
  };
  return make('bad-request', (code && known[code]) ?? `The calendar service refused the request (HTTP ${status}).`);
}
