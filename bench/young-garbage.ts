/**
 * Workload 13, the measured side (a process of its own, compiled and started with the production
 * flags like the gateway): a request's data must die young. Once a page has been turned into a
 * connection, or a response read off the wire, nothing V8's young-generation collector treats as a
 * root may still reach it. Three shapes did: an object literal with getters per connection; closures
 * per exchange; and finished jobs and in-flight entries that still held their promise while a
 * long-lived Set or Map had them in a backing store it had discarded (V8 leaves those in the old
 * generation, entries and all, until a full collection). Each kept every response of a cold run alive
 * for young collections. The figure is what pairs of young collections promote, against what the loop
 * allocated. How much V8 promotes is V8's business and moves with its versions and flags, so this is
 * a bench line, not a unit test.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { UpstreamLimiter } from '../src/core/concurrency-cap.js';
import { HttpTransport } from '../src/core/http.js';
import { resolveOffsetConnection } from '../src/graph/paging.js';
import { announceReady, serveParent } from './ipc.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;
const oldSpaceUsed = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;
const MB = 1024 * 1024;

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

/** About 100 KB of objects and strings, like a page of 50 calendar events. */
const page = () => ({
  items: Array.from({ length: 50 }, (_, i) => ({ id: i, description: `${'x'.repeat(2000)}${i}` })),
  total: 500,
});

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`young garbage: ${what}`);
}

/** Connections built over pages, with edges and page info read as the resolvers read them (~40 MB). */
const connections = () =>
  promotedBy(async () => {
    const connection = await resolveOffsetConnection({
      args: { first: 50 },
      listKey: 'events',
      maxPageSize: 500,
      upstreamMaxSize: 50,
      firstPageIndex: 1,
      fetchPage: () => Promise.resolve(page()),
    });
    check(typeof connection.edges[49]!.cursor === 'string' && connection.pageInfo.hasNextPage, 'a connection');
  }, 400);

/**
 * Pages handed back by a long-lived upstream scheduler (~30 MB): its Set of running jobs is in the
 * old generation, as in a gateway that has served a while, so V8 gives it old backing stores as it
 * grows and shrinks. Small pages, so few young collections run inside the loop (one that does can
 * promote whatever happens to be alive then, whatever the code).
 */
function scheduler(): Promise<number> {
  const limiter = new UpstreamLimiter({ upstream: 'calendar', maxConcurrent: 64 });
  const smallPage = () => ({
    items: Array.from({ length: 10 }, (_, i) => ({ id: i, text: `${'x'.repeat(1000)}${i}` })),
  });
  return promotedBy(async () => {
    const pages = await Promise.all(
      Array.from({ length: 48 }, () => limiter.schedule('list', () => Promise.resolve(smallPage()))),
    );
    check(pages.length === 48, 'a page is missing');
  }, 60);
}

/** Responses read off the wire by the transport under a caller's signal (~20 MB each). */
async function transport(): Promise<{ signalPerExchange: number; sharedSignal: number }> {
  const body = JSON.stringify(page());
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const http = new HttpTransport({
    upstream: 'calendar',
    timeouts: { connectMs: 5_000, headersMs: 5_000, bodyMs: 5_000 },
    maxBodyBytes: 10 * MB,
  });
  const readWith = (signal: () => AbortSignal) =>
    promotedBy(async () => {
      const res = await http.send({
        method: 'GET',
        origin,
        path: '/events',
        signal: signal(),
        deadline: Date.now() + 10_000,
      });
      check((res.body as { total: number }).total === 500, 'a response');
    }, 200);
  try {
    const operation = new AbortController();
    return {
      signalPerExchange: await readWith(() => new AbortController().signal),
      sharedSignal: await readWith(() => operation.signal),
    };
  } finally {
    await http.close();
    server.close();
  }
}

serveParent({
  measure: async () => {
    const mb = (bytes: number) => Math.round((bytes / MB) * 100) / 100;
    const connectionsMb = mb(await connections());
    const schedulerMb = mb(await scheduler());
    const wire = await transport();
    return {
      connectionsMb,
      schedulerMb,
      transportSignalPerExchangeMb: mb(wire.signalPerExchange),
      transportSharedSignalMb: mb(wire.sharedSignal),
    };
  },
});

announceReady('ipc:young-garbage');
