/**
 * One id per HTTP request, shared by the GraphQL context, the log line, the trace and the
 * `x-request-id` response header. A caller's own `x-request-id` is kept when it looks like an id
 * (so a log line can be matched to the caller's), anything else is replaced: it ends up in logs.
 */
import { randomUUID } from 'node:crypto';

const ids = new WeakMap<Request, string>();
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(request: Request): string {
  let id = ids.get(request);
  if (!id) {
    const given = request.headers.get('x-request-id');
    id = given && SAFE_ID.test(given) ? given : randomUUID();
    ids.set(request, id);
  }
  return id;
}
