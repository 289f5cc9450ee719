/**
 * The response cache at the HTTP edge (RESPONSE_CACHE). A repeated query is answered from the raw
 * request, before Yoga parses or validates anything, after the front door, authentication and CSRF
 * prevention (http/front-door.ts, http/authenticate.ts): the key is a hash of the method, the URL,
 * the request body, the caller's partition (its permission set and upstream credential, not its raw
 * token: callers of one role share answers) and the headers an answer depends on (Accept,
 * Content-Type and the federation router's header), so an answer is never served to a caller with
 * other permissions or to a request that would be answered differently. Only requests that ran and
 * succeeded fill the cache (a persisted-only refusal never did). A hit still gets its own request
 * id, its log line and metrics, `extensions.cost` (0 upstream calls, `cached: true`, the budget as
 * of now), the answer's validators and a max-age that counts down. Compressed bytes are kept per
 * entry.
 *
 * Every request is looked up as it is: what kind of operation it holds is Yoga's to find out. A
 * POST's body, read here for the key, goes on to Yoga in a `Request` of its own (`serve`). Only whole
 * successful queries are stored: no errors, no stale reads, no @defer/@stream, no batch, nothing that read no upstream record (introspection, the `budget`
 * field). Entries live in `AnswerCache`, which drops them with the records they read.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import { getOperationAST, OperationTypeNode } from 'graphql';
import type { FetchAPI, Plugin } from 'graphql-yoga';
import { sendNodeResponse } from '@whatwg-node/server';
import type { AnswerCache, CachedAnswer } from '../core/answer-cache.js';
import { COST_DETAIL_HEADER, wantsFullCost } from '../core/cost-report.js';
import type { Context } from '../graph/context.js';
import type { OperationListener } from '../observability/operation-record.js';
import { safeClientRequestId } from '../observability/request-id.js';
import { BROTLI_QUALITY, chooseEncoding, GZIP_LEVEL, MIN_COMPRESS_BYTES } from './compression.js';
import { matchesEtag } from './plugins/use-http-caching.js';
import { executionOf, incomingOf } from './plugins/hook-args.js';
import { pathOf } from '../core/url-path.js';

export interface ResponseCacheOptions {
  cache: AnswerCache;
  graphqlEndpoint: string;
  /** Request bodies up to this size are read for the key; larger or chunked ones go straight through. */
  maxBodyBytes: number;
  /** Headers that change an answer (the federation router's secret). */
  keyHeaders: readonly string[];
  /** Who may share the request's answers (its permissions and upstream credential); see app/context.ts. */
  partition: (req: IncomingMessage) => string;
  /** Changes whenever answers could differ for the same request (schema, settings); computed once, on first use. */
  namespace: () => string;
  /** `extensions.cost` of a hit (0 calls, the budget now; `full`: the request sent `Cost-Detail: full`), or nothing. */
  cost?: (estimate: Record<string, number>, full: boolean) => unknown;
  /** The log line and metrics of a request answered here. */
  listeners: readonly OperationListener[];
}

/** What a request let through carries to the store: its key and the marks of its lookup. */
interface Pending {
  key: string;
  localMark: number;
  sharedMark?: number;
  answer?: Omit<CachedAnswer, 'status' | 'headers' | 'storedAt'>;
}

/** Headers of the miss not replayed: the hit sets its own. */
const NOT_REPLAYED = new Set([
  'content-length',
  'content-encoding',
  'x-request-id',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);
const JSON_ANSWER = /^application\/(graphql-response\+)?json\b/i;

/** Where a request goes past the cache; `body`: the POST body the cache has read. */
export type Serve = (req: IncomingMessage, res: ServerResponse, body?: Body) => void;
type Body = Buffer<ArrayBuffer>;

interface Bodies {
  /** The extensions these bytes end with. */
  tail: string;
  identity?: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

export class ResponseCacheEdge {
  private readonly pending = new WeakMap<IncomingMessage, Pending>();
  private namespace?: string;
  /**
   * The bytes last sent for an entry, per encoding, valid while its extensions read the same: a
   * storm of hits encodes (and compresses) an answer once, not per request.
   */
  private readonly bodies = new WeakMap<CachedAnswer, Bodies>();

  constructor(private readonly options: ResponseCacheOptions) {}

  /** Wraps the gateway's request listener: answers hits, lets everything else through. */
  wrap(serve: Serve): RequestListener {
    return (req, res) => {
      const method = req.method;
      if ((method !== 'GET' && method !== 'POST') || !this.onEndpoint(req.url)) return serve(req, res);
      if (method === 'GET') return void this.handle(req, res, serve, undefined);
      const length = Number(req.headers['content-length']);
      if (!(length > 0 && length <= this.options.maxBodyBytes)) return serve(req, res);
      const chunks: Buffer[] = [];
      // A client gone mid-body: nothing to answer (the socket is closed), and nothing to crash on.
      req.once('error', () => undefined);
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.once('end', () => void this.handle(req, res, serve, Buffer.concat(chunks)));
    };
  }

  private onEndpoint(url: string | undefined): boolean {
    return url !== undefined && pathOf(url) === this.options.graphqlEndpoint;
  }

  private keyOf(req: IncomingMessage, body: Buffer | undefined): string {
    const h = req.headers;
    this.namespace ??= this.options.namespace();
    const parts = [this.namespace, req.method ?? '', req.url ?? '', this.options.partition(req), h.accept ?? ''];
    parts.push(h['content-type'] ?? '', ...this.options.keyHeaders.map((name) => String(h[name] ?? '')));
    const hash = createHash('sha256').update(parts.join('\0'));
    if (body) hash.update('\0').update(body);
    return hash.digest('base64url');
  }

  private async handle(req: IncomingMessage, res: ServerResponse, serve: Serve, body: Body | undefined): Promise<void> {
    const startedAt = performance.now();
    const key = this.keyOf(req, body);
    // The client asks for a fresh answer (a reload): run it, and keep it for the next asker (in this
    // replica: the Redis tier needs the mark of a lookup); `no-store`: keep nothing either.
    const asked = `${header(req, 'cache-control') ?? ''},${header(req, 'pragma') ?? ''}`;
    if (asked.includes('no-store')) return serve(req, res, body);
    if (asked.includes('no-cache')) {
      this.pending.set(req, { key, localMark: this.options.cache.mark() });
      return serve(req, res, body);
    }
    const hit = this.options.cache.local(key);
    if (hit) return this.serve(req, res, hit, 'memory', startedAt);
    let found;
    try {
      found = await this.options.cache.lookup(key);
    } catch {
      return serve(req, res, body);
    }
    if (found.hit) return this.serve(req, res, found.hit, found.tier, startedAt);
    this.pending.set(req, { key, localMark: found.localMark, sharedMark: found.sharedMark });
    serve(req, res, body);
  }

  private serve(
    req: IncomingMessage,
    res: ServerResponse,
    answer: CachedAnswer,
    tier: 'memory' | 'redis',
    startedAt: number,
  ): void {
    const now = Date.now();
    const requestId = randomUUID();
    const headers: Record<string, string | number> = { ...answer.headers, 'x-request-id': requestId };
    headers.age = Math.max(0, Math.floor((now - answer.storedAt) / 1000));
    headers['x-cache'] = 'HIT';
    const policy = answer.headers['cache-control'];
    if (policy?.startsWith('private, max-age='))
      headers['cache-control'] = `private, max-age=${Math.max(0, Math.floor((answer.freshUntil - now) / 1000))}`;
    let status = answer.status;
    const etag = answer.headers.etag;
    if (req.method === 'GET' && etag && matchesEtag(header(req, 'if-none-match'), etag)) {
      status = 304;
      delete headers['content-type'];
      res.writeHead(304, headers).end();
    } else {
      const cost = this.options.cost?.(answer.estimate, wantsFullCost(header(req, COST_DETAIL_HEADER)));
      const tail = cost === undefined ? '}' : `,"extensions":{"cost":${JSON.stringify(cost)}}}`;
      const encoding =
        answer.head.length + tail.length >= MIN_COMPRESS_BYTES
          ? chooseEncoding(header(req, 'accept-encoding'))
          : undefined;
      if (encoding) {
        headers['content-encoding'] = encoding;
        headers.vary = varyWith(answer.headers.vary, 'Accept-Encoding');
      }
      const bytes = this.bytesOf(answer, tail, encoding ?? 'identity');
      headers['content-length'] = bytes.length;
      res.writeHead(status, headers).end(bytes);
    }
    const record = {
      requestId,
      clientRequestId: safeClientRequestId(header(req, 'x-request-id')),
      startedAt,
      operationName: answer.operation,
      operationType: 'query' as const,
      errorCodes: [],
      upstreamErrors: [],
      status,
      durationMs: performance.now() - startedAt,
      responseCache: tier,
    };
    for (const l of this.options.listeners) l.end?.(record);
  }

  private bytesOf(answer: CachedAnswer, tail: string, encoding: keyof Omit<Bodies, 'tail'>): Buffer {
    let memo = this.bodies.get(answer);
    if (!memo || memo.tail !== tail) this.bodies.set(answer, (memo = { tail }));
    const text = () => answer.head + tail;
    return (memo[encoding] ??=
      encoding === 'br'
        ? zlib.brotliCompressSync(text(), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } })
        : encoding === 'gzip'
          ? zlib.gzipSync(text(), { level: GZIP_LEVEL })
          : Buffer.from(text()));
  }

  /** Stores the answers of the requests `wrap` let through, when they are whole successful queries. */
  plugin(): Plugin<Context> {
    return {
      // A batch (an array of operations, even of one) is answered as an array: not stored.
      onRequestParse: ({ serverContext }) => {
        const req = incomingOf(serverContext);
        if (!req || !this.pending.has(req)) return;
        return {
          onRequestParseDone: ({ requestParserResult }) => {
            if (Array.isArray(requestParserResult)) this.pending.delete(req);
          },
        };
      },
      onExecute: ({ args }) => {
        const { contextValue: context, document, operationName } = executionOf(args);
        const pending = context.req && this.pending.get(context.req);
        if (!pending) return;
        const operation = getOperationAST(document, operationName);
        if (operation?.operation !== OperationTypeNode.QUERY) return;
        return {
          onExecuteDone: ({ result }) => {
            if (!('data' in result) && !('errors' in result)) return; // @defer/@stream: not stored
            if (result.errors?.length || !result.data) return;
            const usage = context.usage;
            const freshUntil = usage.freshUntil;
            if (usage.stale || freshUntil === null || freshUntil === Number.POSITIVE_INFINITY) return;
            pending.answer = {
              head: JSON.stringify({ data: result.data }).slice(0, -1),
              estimate: { ...usage.estimate },
              freshUntil,
              tags: [...usage.tags],
              operation: operation.name?.value,
            };
          },
        };
      },
      onResponse: ({ response, serverContext }) => {
        const req = incomingOf(serverContext);
        const pending = req && this.pending.get(req);
        if (!pending) return;
        this.pending.delete(req);
        if (!pending.answer || response.status !== 200) return;
        // A whole JSON answer only: the same query answered as a stream (SSE, multipart) is another format.
        if (!JSON_ANSWER.test(response.headers.get('content-type') ?? '')) return;
        const headers: Record<string, string> = {};
        // Names lower-cased: whatwg-node's Headers hand them over as they were written.
        response.headers.forEach((value, name) => {
          const lower = name.toLowerCase();
          if (!NOT_REPLAYED.has(lower)) headers[lower] = value;
        });
        this.options.cache.store(
          pending.key,
          { ...pending.answer, status: 200, headers, storedAt: Date.now() },
          pending,
        );
      },
    };
  }
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
}

function varyWith(vary: string | undefined, name: string): string {
  if (!vary) return name;
  return vary.toLowerCase().includes(name.toLowerCase()) ? vary : `${vary}, ${name}`;
}

/**
 * Hands Yoga a request whose body the cache has read, as a `Request` of its own (what Yoga's Node
 * adapter builds from a socket), and writes its answer: aborted when the client goes away.
 */
export function serveWithBody(
  yoga: { fetch: (request: Request, context: object) => Response | Promise<Response>; fetchAPI: FetchAPI },
  req: IncomingMessage,
  res: ServerResponse,
  body: Body,
): Promise<void> {
  const abort = new AbortController();
  res.once('close', () => res.writableFinished || abort.abort());
  const headers = new yoga.fetchAPI.Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    headers.append(req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '');
  const request = new yoga.fetchAPI.Request(`http://${req.headers.host ?? 'localhost'}${req.url}`, {
    method: req.method,
    headers,
    body,
    signal: abort.signal,
  });
  return Promise.resolve(yoga.fetch(request, { req, res }))
    .then((response) => sendNodeResponse(response, res, req, true))
    .catch(() => void res.destroy()); // the client went away mid-answer
}
