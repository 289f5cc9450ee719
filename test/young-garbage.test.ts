/**
 * A request's data dies young: once a page has been turned into a connection, or a response read
 * off the wire, nothing the young-generation collector treats as a root may still reach it. Three
 * shapes did: an object literal with getters per connection; closures per exchange; and finished
 * jobs and in-flight entries that still held their promise while a long-lived Set or Map had them
 * in a backing store it had discarded (V8 leaves those in the old generation, entries and all,
 * until a full collection). Each kept every response of a cold run alive for young collections.
 * Measured here as what pairs of young collections promote, against the megabytes the loop
 * allocated.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamLimiter } from '../src/core/concurrency-cap.js';
import { HttpTransport } from '../src/core/http.js';
import { resolveOffsetConnection } from '../src/graph/paging.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;
const oldSpaceUsed = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;

/**
 * Bytes that young collections moved to the old generation: what `work` left reachable for them.
 * Counted across explicit pairs of young collections only (the second promotes what survived the
 * first), every few rounds, so full collections the heap happens to run in between change nothing.
 */
async function promotedBy(work: () => Promise<void>, rounds: number, every = 10): Promise<number> {
  gc();
  let promoted = 0;
  for (let i = 1; i <= rounds; i++) {
    await work();
    if (i % every !== 0) continue;
    const before = oldSpaceUsed();
    gc({ type: 'minor' });
    gc({ type: 'minor' });
    promoted += Math.max(0, oldSpaceUsed() - before);
  }
  return promoted;
}

const MB = 1024 * 1024;
/** About 100 KB of objects and strings, like a page of 50 calendar events. */
const page = () => ({
  items: Array.from({ length: 50 }, (_, i) => ({ id: i, description: `${'x'.repeat(2000)}${i}` })),
  total: 500,
});

describe('per-request data is collected by young collections', () => {
  it('connections built over pages (edges and page info read, as the resolvers do)', async () => {
    const promoted = await promotedBy(async () => {
      const connection = await resolveOffsetConnection({
        args: { first: 50 },
        listKey: 'events',
        maxPageSize: 500,
        upstreamMaxSize: 50,
        firstPageIndex: 1,
        fetchPage: () => Promise.resolve(page()),
      });
      expect(connection.edges[49]!.cursor).toBeTypeOf('string');
      expect(connection.pageInfo.hasNextPage).toBe(true);
    }, 400);
    // About 40 MB went through the loop; the literal with getters had 10.5 MB of it promoted.
    expect(promoted).toBeLessThan(2 * MB);
  });

  it('pages handed back by the upstream scheduler (its finished jobs hold nothing)', async () => {
    // Long-lived, as in a gateway that has served a while: its Set of running jobs is in the old
    // generation, so V8 gives it old backing stores as it grows and shrinks, and leaves the
    // entries of the discarded ones there until a full collection.
    const limiter = new UpstreamLimiter({ upstream: 'calendar', maxConcurrent: 64 });
    // Small pages: the loop allocates little, so few young collections run inside it (one that does
    // can promote what happens to be alive then, whatever the code).
    const smallPage = () => ({
      items: Array.from({ length: 10 }, (_, i) => ({ id: i, text: `${'x'.repeat(1000)}${i}` })),
    });
    const promoted = await promotedBy(async () => {
      const pages = await Promise.all(
        Array.from({ length: 48 }, () => limiter.schedule('list', () => Promise.resolve(smallPage()))),
      );
      if (pages.length !== 48) throw new Error('a page is missing'); // not `expect(pages)`: it would keep them
    }, 60);
    // About 30 MB went through the loop; finished jobs that kept their `resolve` had 13–14 MB of it
    // promoted, emptied ones 1.5 MB (up to 4.7 MB after the other tests of this file).
    expect(promoted).toBeLessThan(7 * MB);
  });

  describe('responses read off the wire under a caller signal', () => {
    const body = JSON.stringify(page());
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    let origin = '';
    let transport: HttpTransport;
    beforeAll(async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      transport = new HttpTransport({
        upstream: 'calendar',
        timeouts: { connectMs: 5_000, headersMs: 5_000, bodyMs: 5_000 },
        maxBodyBytes: 10 * MB,
      });
    });
    afterAll(async () => {
      await transport.close();
      server.close();
    });

    // About 20 MB go through each loop; the closures had 21.7 and 21.3 MB of it promoted.
    const operation = new AbortController();
    it.each([
      ['one signal per exchange', () => new AbortController().signal],
      ['one signal shared by an operation’s exchanges', () => operation.signal],
    ])('%s', async (_name, signalOf) => {
      const promoted = await promotedBy(async () => {
        const res = await transport.send({
          method: 'GET',
          origin,
          path: '/events',
          signal: signalOf(),
          deadline: Date.now() + 10_000,
        });
        expect((res.body as { total: number }).total).toBe(500);
      }, 200);
      expect(promoted).toBeLessThan(4 * MB);
    });
  });
});
