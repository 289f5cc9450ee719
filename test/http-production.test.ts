/**
 * Operator basics over HTTP: compressed answers (brotli/gzip, SSE flushed per event and still
 * decodable), the GraphiQL page precompressed with cache headers and 304 revalidation, CORS closed
 * unless listed, and the gateway's own request id.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseEncoding } from '../src/http/compression.js';
import { startStack } from './support/stack.js';
import { apiCalls } from './support/governance.js';

const BIG = '{ entities(first: 50) { nodes { id name } } }';

describe('compression', () => {
  it('picks br or gzip from Accept-Encoding, honouring q=0', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding(null)).toBeUndefined();
  });

  it('compresses JSON answers with brotli or gzip, identical once decoded', async () => {
    const stack = await startStack();
    const post = (enc?: string) =>
      stack.gateway.yoga.fetch('http://gw/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(enc ? { 'accept-encoding': enc } : {}) },
        body: JSON.stringify({ query: BIG }),
      });
    const plain = await (await post()).text();
    const br = await post('br');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toContain('accept-encoding');
    const brBytes = Buffer.from(await br.arrayBuffer());
    const gz = await post('gzip');
    const gzBytes = Buffer.from(await gz.arrayBuffer());
    const strip = (t: string) => JSON.parse(t).data;
    expect(strip(brotliDecompressSync(brBytes).toString())).toEqual(strip(plain));
    expect(strip(gunzipSync(gzBytes).toString())).toEqual(strip(plain));
    expect(brBytes.length).toBeLessThan(plain.length / 2);
  });

  it('leaves an SSE answer an uncompressed stream of events (Yoga marks it content-encoding: none)', async () => {
    const stack = await startStack();
    const res = await stack.gateway.yoga.fetch('http://gw/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'accept-encoding': 'gzip, br' },
      body: JSON.stringify({ query: BIG }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    // Yoga sets `none` so that no proxy buffers the stream to compress it; the gateway respects it.
    expect(res.headers.get('content-encoding')).toBe('none');
    const text = await res.text();
    expect(text).toMatch(/event: next\ndata: \{"data":\{"entities"/);
    expect(text).toContain('event: complete');
  });
});

describe('GraphiQL page', () => {
  it('goes over the wire precompressed under 2 MB, with an ETag, cache headers and 304', async () => {
    const stack = await startStack();
    const get = (headers: Record<string, string>) =>
      stack.gateway.yoga.fetch('http://gw/graphql', { headers: { accept: 'text/html', ...headers } });
    const br = await get({ 'accept-encoding': 'br' });
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const wire = Buffer.from(await br.arrayBuffer());
    expect(wire.length).toBeLessThan(2 * 1024 * 1024);
    expect(brotliDecompressSync(wire).toString()).toContain('<div id="root">');
    const etag = br.headers.get('etag')!;
    const again = await get({ 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
  }, 60_000);
});

describe('CORS and request ids', () => {
  it('is closed in production unless CORS_ORIGINS lists the origin', async () => {
    const closed = await startStack({ env: { NODE_ENV: 'production', AUTH_ANONYMOUS: '*' } });
    const pre = async (s: typeof closed) =>
      fetch(await s.listen(), {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
    const refused = await pre(closed);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const open = await startStack({
      env: { NODE_ENV: 'production', AUTH_ANONYMOUS: '*', CORS_ORIGINS: 'https://app.example' },
    });
    expect((await pre(open)).headers.get('access-control-allow-origin')).toBe('https://app.example');
  });

  it("answers with its own request id, not the caller's", async () => {
    const stack = await startStack();
    const res = await stack.query('{ __typename }', {}, { 'x-request-id': 'client-chosen' });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends its request id upstream with every call of the operation, so both sides can be matched', async () => {
    const stack = await startStack();
    stack.clearRequests();
    const res = await stack.query('{ entities(first: 2) { nodes { id } } events(first: 2) { nodes { id } } }');
    expect(res.errors).toBeUndefined();
    const id = res.headers.get('x-request-id');
    // The token request is not the operation's own: one token serves every operation until it expires.
    const seen = [...apiCalls(stack), ...stack.calendar.control.requests().requests];
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(new Set(seen.map((r) => r.requestId))).toEqual(new Set([id]));
  });
});
