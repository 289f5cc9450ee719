/**
 * The GraphiQL page (GRAPHIQL): one self-contained HTML file of several MB (GraphiQL and its
 * editor inlined, so it works offline). `npm run build` precompresses it with brotli at the
 * highest quality (the smallest by far) and gzip, next to the compiled module; a
 * development run without a build compresses it once, faster, on first use. Served with an ETag
 * and cache headers, so a browser downloads it once per gateway version. The renderer's module
 * (the page's whole source) is imported only to render: loaded, it holds tens of MB of heap, in
 * every replica, GraphiQL off or not.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import zlib from 'node:zlib';
import type { Plugin } from 'graphql-yoga';
import { chooseEncoding } from './compression.js';
import { graphiqlTabs } from './graphiql.js';

export interface GraphiQLPage {
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

const PRECOMPRESSED_DIR = new URL('./graphiql/', import.meta.url);
export const GRAPHIQL_FILES = { identity: 'graphiql.html', br: 'graphiql.html.br', gzip: 'graphiql.html.gz' } as const;

/** Sample callers' tokens by name (the development issuer's): each gets a tab sending its token. */
export type CallerPresets = Record<string, string>;

export async function renderGraphiQLPage(callers: CallerPresets = {}): Promise<string> {
  const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
  return renderGraphiQL({
    title: 'Governance & Calendar Gateway',
    defaultTabs: [...graphiqlTabs, ...callerTabs(callers)],
  });
}

/** One tab per sample caller: its token in the headers, a query showing what it may do. */
export function callerTabs(callers: CallerPresets): { query: string; headers: string }[] {
  return Object.entries(callers).map(([name, token]) => ({
    query: `# As the sample caller "${name}": what may it do? Try a mutation here and see what it is refused.
query As_${name} {
  viewer {
    id
    permissions
  }
}
`,
    headers: JSON.stringify({ Authorization: `Bearer ${token}` }, null, 2),
  }));
}

const etagOf = (identity: Buffer) => `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;

/** Compresses the page; `best` is the build's setting (slow: a minute), otherwise fast settings, each encoding on first use. */
export function compressGraphiQLPage(html: string, best: boolean): GraphiQLPage {
  const identity = Buffer.from(html);
  let br: Buffer | undefined;
  let gzip: Buffer | undefined;
  return {
    etag: etagOf(identity),
    identity,
    get br() {
      const { BROTLI_PARAM_QUALITY: quality, BROTLI_PARAM_SIZE_HINT: size, BROTLI_PARAM_MODE: mode } = zlib.constants;
      const params = { [quality]: best ? 11 : 6, [size]: identity.length, [mode]: zlib.constants.BROTLI_MODE_TEXT };
      return (br ??= zlib.brotliCompressSync(identity, { params }));
    },
    get gzip() {
      return (gzip ??= zlib.gzipSync(identity, { level: best ? 9 : 6 }));
    },
  };
}

let cached: Promise<GraphiQLPage> | undefined;
/**
 * The precompressed files of the build when present, else rendered and compressed here once; with
 * sample callers (development), always rendered here, their tokens in the page.
 */
export function loadGraphiQLPage(callers?: CallerPresets): Promise<GraphiQLPage> {
  return (cached ??= (async () => {
    const at = (file: keyof typeof GRAPHIQL_FILES) => new URL(GRAPHIQL_FILES[file], PRECOMPRESSED_DIR);
    if (callers) return compressGraphiQLPage(await renderGraphiQLPage(callers), false);
    if (existsSync(at('br'))) {
      const identity = readFileSync(at('identity'));
      return { etag: etagOf(identity), identity, br: readFileSync(at('br')), gzip: readFileSync(at('gzip')) };
    }
    return compressGraphiQLPage(await renderGraphiQLPage(), false);
  })().catch((error: unknown) => {
    cached = undefined; // the next request tries again
    throw error;
  }));
}

/** A browser asking for GraphiQL's page (it holds no data: authentication lets it through). */
export function isGraphiQLPage(
  method: string | undefined,
  pathname: string,
  accept: string | null | undefined,
  endpoint: string,
) {
  return (
    method === 'GET' && (pathname === endpoint || pathname === `${endpoint}/`) && (accept ?? '').includes('text/html')
  );
}

/** Serves the page at GET /graphql to browsers (Accept: text/html), before Yoga sees the request. */
export function useGraphiQLPage(endpoint: string, callers?: CallerPresets): Plugin {
  return {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- Yoga hands these as plain functions
    async onRequest({ request, url, endResponse }) {
      if (!isGraphiQLPage(request.method, url.pathname, request.headers.get('accept'), endpoint)) return;
      const page = await loadGraphiQLPage(callers);
      const headers: Record<string, string> = {
        'content-type': 'text/html; charset=utf-8',
        etag: page.etag,
        // Revalidated after an hour; the ETag changes with the gateway version.
        'cache-control': 'public, max-age=3600',
        vary: 'accept, accept-encoding',
      };
      if (request.headers.get('if-none-match') === page.etag)
        return endResponse(new Response(null, { status: 304, headers }));
      const encoding = chooseEncoding(request.headers.get('accept-encoding'));
      const body = encoding ? page[encoding] : page.identity;
      if (encoding) headers['content-encoding'] = encoding;
      headers['content-length'] = String(body.length);
      endResponse(new Response(new Uint8Array(body), { status: 200, headers }));
    },
  };
}
