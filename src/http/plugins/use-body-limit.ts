/**
 * security.maxRequestBodyBytes, in place of Yoga's own `maxRequestBodySize`, which pipes every body through
 * a counting TransformStream: a stream pipeline, an AbortController and a DOMException per request,
 * about a third of a millisecond of CPU each time. A body sent with a Content-Length is never longer
 * than it (Node's HTTP parser reads exactly that many bytes and takes the rest as the next request),
 * so the header alone decides; a chunked body (or one that also names a Transfer-Encoding) is
 * counted as it is read. The answers are Yoga's:
 * 413 `REQUEST_ENTITY_TOO_LARGE`, 400 for a Content-Length that is not one non-negative integer.
 */
import { createGraphQLError, type Plugin } from 'graphql-yoga';

const CONTENT_LENGTH = /^\d+$/;

const tooLarge = (unread = false) =>
  createGraphQLError('Request body too large', {
    // The rest of a body cut short is never read: the connection cannot carry another request.
    extensions: {
      http: { status: 413, ...(unread ? { headers: { connection: 'close' } } : {}) },
      code: 'REQUEST_ENTITY_TOO_LARGE',
    },
  });

/** Must come after every plugin that registers a request parser: it wraps the one chosen. */
export function useBodyLimit(limit: number): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      const declared = request.headers.get('content-length');
      // With a Transfer-Encoding too (which Node's parser refuses unless run lenient) the length is
      // not what bounds the body: count it.
      if (declared !== null && !request.headers.has('transfer-encoding')) {
        if (!CONTENT_LENGTH.test(declared))
          throw createGraphQLError('Content-Length header is invalid.', {
            extensions: { http: { status: 400 }, code: 'BAD_REQUEST' },
          });
        if (Number(declared) > limit) throw tooLarge();
        return;
      }
      if (!requestParser || !request.body) return;
      const parse = requestParser;
      setRequestParser(async (req) => {
        const body = await readAtMost(req.body!, limit);
        return parse(
          new fetchAPI.Request(req.url, { method: req.method, headers: req.headers, body, signal: req.signal }),
        );
      });
    },
  };
}

/** The whole body, or a 413 as soon as it passes `limit` bytes (the rest is not read). */
async function readAtMost(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    size += next.value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(true);
    }
    chunks.push(next.value);
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}
