/**
 * The wire's own clock and cancellation (core/http.ts), against a tiny in-process server that
 * answers as told: a body slower than the header timeout still arrives when the deadline allows it,
 * a stalled body ends at the deadline, and one aborted caller signal ends every exchange it has in
 * flight (through one listener) and none of another caller's.
 */
import { getEventListeners } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamError } from '../src/core/errors.js';
import { HttpTransport } from '../src/core/http.js';
import { until } from './support/wait.js';

type Plan = (res: ServerResponse) => void;
const plans = new Map<string, Plan>();
const held: { path: string; res: ServerResponse }[] = [];
let origin = '';
const server = createServer((req, res) => {
  held.push({ path: req.url ?? '', res });
  plans.get(req.url ?? '')?.(res);
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  plans.set('/slow-body', (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"slow":');
    // Well past the header timeout below; the deadline allows it.
    setTimeout(() => res.end('true}'), 1_500);
  });
  plans.set('/stalled-body', (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"never":');
  });
  plans.set('/hold', () => undefined);
  plans.set('/hold-theirs', () => undefined);
  plans.set('/ok', (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const transport = () =>
  new HttpTransport({
    upstream: 'calendar',
    // A header timeout a loaded machine still meets; the slow body above takes longer than it.
    timeouts: { connectMs: 1_000, headersMs: 1_000, bodyMs: 60_000 },
    maxBodyBytes: 1_000_000,
  });

describe('the wire', () => {
  it('a status in time leaves the body to the deadline alone: a body slower than the header timeout arrives', async () => {
    const t = transport();
    const res = await t.send({ method: 'GET', origin, path: '/slow-body', deadline: Date.now() + 30_000 });
    expect(res).toMatchObject({ status: 200, body: { slow: true } });
    await t.close();
  });

  it('a body that stalls ends at the deadline with a typed timeout', async () => {
    const t = transport();
    const error = await t
      .send({ method: 'GET', origin, path: '/stalled-body', deadline: Date.now() + 1_500 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'unavailable', status: 200 });
    expect((error as Error).message).toMatch(/did not answer in time/);
    await t.close();
  });

  it("an aborted caller signal ends all of that caller's exchanges in flight, and none of another caller's", async () => {
    const t = new HttpTransport({
      upstream: 'calendar',
      timeouts: { connectMs: 1_000, headersMs: 60_000, bodyMs: 60_000 },
      maxBodyBytes: 1_000_000,
    });
    const mine = new AbortController();
    const theirs = new AbortController();
    const before = held.length;
    const done = await t.send({ method: 'GET', origin, path: '/ok', signal: mine.signal });
    expect(done.status).toBe(200);
    const outcomes = [1, 2, 3].map(() =>
      t.send({ method: 'GET', origin, path: '/hold', signal: mine.signal }).catch((e: unknown) => e),
    );
    const other = t.send({ method: 'GET', origin, path: '/hold-theirs', signal: theirs.signal });
    // All four are on the server before the abort (the first exchange's answer was one more).
    await until(() => held.length >= before + 5, 'all four on the server');
    // Three exchanges in flight on one signal, one listener on it.
    expect(getEventListeners(mine.signal, 'abort')).toHaveLength(1);
    mine.abort(new Error('client went away'));
    for (const outcome of await Promise.all(outcomes)) {
      expect(outcome).toBeInstanceOf(UpstreamError);
      expect(outcome).toMatchObject({ kind: 'unavailable' });
    }
    // The other caller's exchange is still open: answer it now.
    const last = held.find((h) => h.path === '/hold-theirs')!.res;
    last.writeHead(200, { 'content-type': 'application/json' });
    last.end('{"theirs":true}');
    expect(await other).toMatchObject({ status: 200, body: { theirs: true } });
    await t.close();
  });
});
