/**
 * One id per HTTP request, made by the gateway itself, shared by the GraphQL context, the log
 * line, the trace, the `x-request-id` response header and the upstream requests. A caller's own
 * `x-request-id` never becomes the gateway's id (a caller could otherwise collide or forge log
 * keys); when it looks like an id it is logged separately as `clientRequestId`, anything else is
 * dropped, since it ends up in logs.
 */
import { randomUUID } from 'node:crypto';

const ids = new WeakMap<Request, string>();
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(request: Request): string {
  let id = ids.get(request);
  if (!id) ids.set(request, (id = randomUUID()));
  return id;
}

/** The caller's `x-request-id`, when it passes validation. */
export function clientRequestIdOf(request: Request): string | undefined {
  return safeClientRequestId(request.headers.get('x-request-id'));
}

export function safeClientRequestId(given: string | null | undefined): string | undefined {
  return given && SAFE_ID.test(given) ? given : undefined;
}
