/**
 * HTTP caching of queries sent by GET (persisted or allowed): `Cache-Control` derived from the
 * freshness of the upstream answers the query used (the shortest remaining resource TTL), always
 * `private` with `Vary: Authorization, Cost-Detail` because every answer depends on the caller's
 * credential and its cost extension on `Cost-Detail` (short or full form), and an `ETag` over the
 * caller's partition (permissions and upstream credential) and the data, so `If-None-Match` gets a
 * bodiless 304.
 * Never on mutations (Yoga refuses them over GET anyway, and POST is never touched), nor on
 * streamed (@defer/@stream) answers or answers with errors.
 */
import { createHash } from 'node:crypto';
import { getOperationAST, OperationTypeNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../graph/context.js';
import { canonicalJson } from '../../core/canonical-json.js';
import { executionOf } from './hook-args.js';
import { isRecord } from '../../core/records.js';

interface Policy {
  /** Seconds the answer stays fresh; null: revalidate every time. */
  maxAge: number | null;
  errors: boolean;
  /** The caller's cache partition (see app/context.ts). */
  partition: string;
}

/**
 * The tag covers the caller's partition and the answer's `data`, not its `extensions`: those report what
 * this one request cost (calls, cache hits; the short or full form `Cost-Detail` asks for), which differs
 * between two requests for the same data. `Vary` keeps the two forms apart in a cache: a 304 refreshes
 * the stored copy of the form asked for.
 * Keys are sorted first: the executor orders an object's keys by when its fields resolved (and the
 * compiled executor by the selection), so the same data may come in another order.
 */
function etagOf(credential: string, body: string): string {
  let content = body;
  try {
    const answer: unknown = JSON.parse(body);
    content = canonicalJson((isRecord(answer) ? answer.data : undefined) ?? null);
  } catch {
    // Not JSON after all: the whole body is the content.
  }
  return `"${createHash('sha256').update(credential).update('\n').update(content).digest('base64url').slice(0, 32)}"`;
}

/** `If-None-Match` holds the tag (weak comparison, as RFC 9110 wants for it), or `*`. */
export function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

/** `defaultMaxAgeSeconds`: the max-age of an answer that read nothing upstream (discovery, introspection), the cache TTL. */
export function useHttpCaching(options: { defaultMaxAgeSeconds: number }): Plugin<Context> {
  const policies = new WeakMap<Request, Policy>();
  return {
    onExecute({ args }) {
      const { contextValue: context, document, operationName } = executionOf(args);
      const request = context.request;
      if (!request || request.method !== 'GET') return;
      const operation = getOperationAST(document, operationName);
      if (operation?.operation !== OperationTypeNode.QUERY) return;
      return {
        onExecuteDone({ result }) {
          if (!('data' in result) && !('errors' in result)) return; // streamed: no caching
          const fresh = context.usage.freshForSeconds();
          const maxAge =
            fresh === null ? null : fresh === Number.POSITIVE_INFINITY ? options.defaultMaxAgeSeconds : fresh;
          const partition = context.cachePartition;
          policies.set(request, { maxAge, errors: Boolean(result.errors?.length), partition });
        },
      };
    },
    async onResponse({ request, response, setResponse, fetchAPI }) {
      const policy = policies.get(request);
      if (!policy || request.method !== 'GET' || response.status !== 200) return;
      const type = response.headers.get('content-type') ?? '';
      if (!/json/.test(type)) return;
      // Node's Headers (lower-cased names): a copy through whatwg-node's keeps Yoga's `Content-Type`
      // as written, and its Response then adds a second, `text/plain` one for a string body.
      const headers = new Headers(response.headers);
      headers.append('vary', 'Authorization, Cost-Detail');
      if (policy.errors) {
        headers.set('cache-control', 'private, no-store');
        setResponse(new fetchAPI.Response(response.body, { status: response.status, headers }));
        return;
      }
      const body = await response.text();
      const etag = etagOf(policy.partition, body);
      headers.set('etag', etag);
      headers.set(
        'cache-control',
        policy.maxAge === null || policy.maxAge === 0 ? 'private, no-cache' : `private, max-age=${policy.maxAge}`,
      );
      if (matchesEtag(request.headers.get('if-none-match'), etag)) {
        headers.delete('content-length');
        headers.delete('content-type');
        setResponse(new fetchAPI.Response(null, { status: 304, headers }));
        return;
      }
      setResponse(new fetchAPI.Response(body, { status: 200, headers }));
    },
  };
}
