/**
 * Response compression: brotli or gzip, whichever the client prefers among those it
 * accepts. Streamed multipart answers (@defer/@stream) are flushed after every chunk so each part
 * reaches the client as soon as it is written; whole answers compress without flushes. Responses
 * that already carry a Content-Encoding pass through: the precompressed GraphiQL page, and SSE,
 * which Yoga marks `none` so that nothing between buffers the stream. Small ones pass too.
 */
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Plugin } from 'graphql-yoga';

const COMPRESSIBLE = /json|text\/|multipart\/mixed|javascript|xml/;
const STREAMING = /text\/event-stream|multipart\/mixed/;
/** Smaller answers go uncompressed: the headers would cost about what compression saves. */
export const MIN_COMPRESS_BYTES = 1024;
/** The levels every compressed answer uses (here and in the response cache). */
export const BROTLI_QUALITY = 4;
export const GZIP_LEVEL = 6;

/** `br` or `gzip` from an Accept-Encoding header (q=0 means refused), or undefined. */
export function chooseEncoding(header: string | null): 'br' | 'gzip' | undefined {
  if (!header) return undefined;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(name!.trim(), qp ? Number(qp.slice(2)) || 0 : 1);
  }
  const of = (name: string) => q.get(name) ?? q.get('*') ?? 0;
  const br = of('br');
  const gzip = of('gzip');
  return br > 0 && br >= gzip ? 'br' : gzip > 0 ? 'gzip' : undefined;
}

export function useCompression(): Plugin {
  return {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- Yoga hands these as plain functions
    onResponse({ request, response, setResponse, fetchAPI }) {
      // The body is looked at last: reading `response.body` turns a string answer into a stream.
      const encoding = chooseEncoding(request.headers.get('accept-encoding'));
      if (!encoding || response.headers.has('content-encoding')) return;
      const type = response.headers.get('content-type') ?? '';
      if (!COMPRESSIBLE.test(type)) return;
      const length = response.headers.get('content-length');
      if (length !== null && Number(length) < MIN_COMPRESS_BYTES) return;
      if (!response.body) return;
      const streaming = STREAMING.test(type);
      const compressor =
        encoding === 'br'
          ? zlib.createBrotliCompress({
              params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY },
              ...(streaming ? { flush: zlib.constants.BROTLI_OPERATION_FLUSH } : {}),
            })
          : zlib.createGzip({ level: GZIP_LEVEL, ...(streaming ? { flush: zlib.constants.Z_SYNC_FLUSH } : {}) });
      // Yoga's bodies are whatwg-node streams, async-iterable like the standard ones.
      const source = Readable.from(response.body as unknown as AsyncIterable<Uint8Array>, { objectMode: false });
      source.on('error', (e) => compressor.destroy(e));
      source.pipe(compressor);
      const headers = new Headers(response.headers);
      headers.set('content-encoding', encoding);
      headers.delete('content-length');
      headers.append('vary', 'accept-encoding');
      // whatwg-node's Response takes a Node stream as its body and pipes it to the socket as chunks come.
      setResponse(
        new fetchAPI.Response(compressor as unknown as BodyInit, {
          status: response.status,
          statusText: response.statusText,
          headers,
        }),
      );
    },
  };
}
