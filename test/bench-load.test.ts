/**
 * The bench's throughput load side (bench/load.ts) reads answers off the socket without parsing
 * them; these tests hold it to what it claims to check: every answer a 200 of about the checked
 * answer's length that begins with the same bytes, and a first answer that is a whole success.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { throughput } from '../bench/load.js';

const GOOD = JSON.stringify({
  data: { items: Array.from({ length: 2000 }, (_, i) => ({ id: `r${i}`, name: 'Modèle — é' })) },
});
const WITH_ERRORS = JSON.stringify({ errors: [{ message: 'boom' }], data: JSON.parse(GOOD).data });

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server answering the n-th request (from 0) with `answer(n)`: [status, body, chunked?]. */
async function serve(answer: (n: number) => [number, string, boolean?]): Promise<{ url: string; seen: () => number }> {
  let n = 0;
  server = createServer((req, res) => {
    req.resume();
    req.once('end', () => {
      const [status, body, chunked] = answer(n++);
      if (chunked) {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.write(body.slice(0, 10));
        res.end(body.slice(10));
      } else {
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        // Headers and body in separate writes: the body's first bytes may come in a read of their own.
        res.flushHeaders();
        res.end(body);
      }
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, seen: () => n };
}

const options = { concurrency: 4, seconds: 0.3 };

describe('bench load side', () => {
  it('counts every answer, and none as an error when all are the checked answer', async () => {
    const { url, seen } = await serve(() => [200, GOOD]);
    const result = await throughput(url, '{ items { id } }', {}, options);
    expect(result.requests).toBeGreaterThan(10);
    expect(result.errors).toBe(0);
    // The checked first answer is not counted; every other answer the server sent is.
    expect(result.requests).toBe(seen() - 1);
    expect(result.perSecond).toBeGreaterThan(0);
    expect(result.p95Ms).toBeGreaterThanOrEqual(result.p50Ms);
  });

  it('counts answers with errors, other statuses and other lengths as errors', async () => {
    const { url } = await serve((n) =>
      n === 0
        ? [200, GOOD]
        : n % 4 === 1
          ? [200, WITH_ERRORS]
          : n % 4 === 2
            ? [500, GOOD]
            : n % 4 === 3
              ? [200, GOOD.slice(0, -200) + '}}']
              : [200, GOOD],
    );
    const result = await throughput(url, '{ items { id } }', {}, options);
    expect(result.requests).toBeGreaterThan(10);
    // Three answers in four are wrong; connections interleave, so allow for where the window ends.
    expect(result.errors / result.requests).toBeGreaterThan(0.6);
    expect(result.errors).toBeLessThan(result.requests);
  });

  it('stops at an answer without a Content-Length instead of misreading the stream', async () => {
    const { url } = await serve((n) => (n === 0 ? [200, GOOD] : [200, GOOD, true]));
    await expect(throughput(url, '{ items { id } }', {}, options)).rejects.toThrow(/without a Content-Length/);
  });

  it('refuses to measure when the first answer is not a whole success', async () => {
    const { url } = await serve(() => [200, WITH_ERRORS]);
    await expect(throughput(url, '{ items { id } }', {}, options)).rejects.toThrow(/not a whole success/);
  });
});
