/**
 * The newcomer's path: `npm start` with nothing configured serves GraphiQL on embedded emulators and
 * answers a query through each, with sample callers of a development issuer whose reader is refused a
 * delete, and whose tokens still verify after a restart; bad configuration exits with clear lines and
 * no stack trace.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const children: ChildProcess[] = [];
// Each start keeps its development key under a home directory of its own, not the user's.
const caches = mkdtempSync(join(tmpdir(), 'dev-issuer-'));
afterAll(() => {
  children.forEach((c) => c.kill('SIGTERM'));
  rmSync(caches, { recursive: true, force: true });
});

function startServer(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  ready: Promise<string>;
} {
  const home = join(caches, String(children.length));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', HOME: home, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /gateway ready: (http:\/\/\S+\/graphql)/.exec(out);
      if (m) resolve(m[1]!);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  ready.catch(() => undefined); // a test that expects the exit awaits the exit instead
  return { child, output: () => out, ready };
}

describe('npm start', () => {
  it('serves offline GraphiQL and answers through both embedded emulators', async () => {
    const { ready, output } = startServer({});
    const url = (await ready).replace('localhost', '127.0.0.1');
    expect(output()).toMatch(/embedded governance emulator: http:\/\/127\.0\.0\.1:\d+/);
    expect(output()).toMatch(/embedded calendar emulator: +http:\/\/127\.0\.0\.1:\d+\/wp-json\/calendar\/events\/v1/);

    const page = await fetch(url, { headers: { accept: 'text/html' } });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<div id="root">');
    // Everything is inlined: no script or stylesheet is fetched from anywhere.
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="https?:\/\//);

    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ entityTypes(first: 1) { totalCount } events(first: 1) { totalCount } }' }),
    });
    const body = (await res.json()) as {
      data: { entityTypes: { totalCount: number }; events: { totalCount: number } };
      extensions: { cost: Record<string, { actual: number }> };
    };
    expect(body.data.entityTypes.totalCount).toBeGreaterThanOrEqual(4);
    expect(body.data.events.totalCount).toBeGreaterThan(0);
    expect(body.extensions.cost.governance!.actual).toBeGreaterThan(0);
    expect(body.extensions.cost.calendar!.actual).toBeGreaterThan(0);

    // The development issuer's sample callers: their tokens are printed and offered in GraphiQL, and
    // the reader is refused a delete, naming the permission.
    expect(output()).toMatch(/AUTH_ANONYMOUS=\*: callers without a token hold every permission/);
    const reader = /^ {2}reader .*\n\s+Authorization: Bearer (\S+)/m.exec(output())?.[1];
    expect(reader).toBeTruthy();
    expect(html).toContain(reader);
    const refused = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${reader}` },
      body: JSON.stringify({
        query: 'mutation { deleteEntity(id: "00000000-0000-4000-8000-000000000000") { deletedId } }',
      }),
    });
    const denied = (await refused.json()) as { errors: { extensions: { code: string; permission: string } }[] };
    expect(denied.errors[0]!.extensions).toMatchObject({ code: 'FORBIDDEN', permission: 'governance:delete' });
  });

  it("keeps the sample callers' tokens valid across a restart: the development key and port are kept", async () => {
    const home = join(caches, 'restart');
    const viewer = async (url: string, token: string) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: '{ viewer { id permissions } }' }),
      });
      return {
        status: res.status,
        body: (await res.json()) as { data?: { viewer: { id: string } }; errors?: unknown },
      };
    };
    const first = startServer({ HOME: home });
    const url = (await first.ready).replace('localhost', '127.0.0.1');
    const reader = /^ {2}reader .*\n\s+Authorization: Bearer (\S+)/m.exec(first.output())![1]!;
    const before = await viewer(url, reader);
    expect(before.body.data?.viewer.id).toMatch(/\|reader$/);
    first.child.kill('SIGTERM');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = startServer({ HOME: home });
    const again = (await second.ready).replace('localhost', '127.0.0.1');
    const after = await viewer(again, reader);
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body).toEqual(before.body);
    // One file, readable by its owner only, in ~/.cache.
    const [file] = readdirSync(join(home, '.cache', 'governance-calendar-gateway'));
    const keyFile = join(home, '.cache', 'governance-calendar-gateway', file!);
    expect(first.output()).toContain(`key kept in ${keyFile}`);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  });

  it('refuses bad configuration with one line per problem and no stack trace', async () => {
    const { child, output } = startServer({
      PORT: 'eighty',
      GOVERNANCE_URL: 'ftp://tenant',
      GOVERNANCE_CLIENT_SECRET: 'do-not-print-me',
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    const text = output();
    expect(text).toContain('PORT must be a whole number');
    expect(text).toContain('GOVERNANCE_URL must be a http or https URL');
    expect(text).not.toContain('do-not-print-me');
    expect(text).not.toMatch(/^\s+at /m);
  });
});

describe('unreachable upstreams', () => {
  it('are named with their cause at start and on a failed call, without URL or credentials', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    const { ready, output } = startServer({
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      UPSTREAM_RETRIES: '0',
      GOVERNANCE_URL: 'http://governance.invalid',
      GOVERNANCE_CLIENT_ID: 'id',
      GOVERNANCE_CLIENT_SECRET: 'very-secret',
      CALENDAR_URL: `http://127.0.0.1:${closed}/wp-json/tribe/events/v1`,
      CALENDAR_USER: 'editor',
      CALENDAR_APP_PASSWORD: 'app-password-secret',
    });
    const url = (await ready).replace('localhost', '127.0.0.1');
    await vi.waitFor(() => expect(output()).toMatch(/^upstream calendar: /m), { timeout: 15_000 });
    await vi.waitFor(() => expect(output()).toMatch(/^upstream governance: /m), { timeout: 15_000 });
    expect(output()).toMatch(/^upstream calendar: does not answer \(refused\)$/m);
    expect(output()).toMatch(/^upstream governance: does not answer \(dns\)$/m);

    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ events(first: 1) { totalCount } }' }),
    });
    const body = (await res.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]!.extensions.code).toBe('UPSTREAM_UNAVAILABLE');
    await vi.waitFor(() => expect(output()).toMatch(/"msg":"upstream call failed".*"cause":"refused"/), {
      timeout: 10_000,
    });
    expect(output()).not.toMatch(new RegExp(`127\\.0\\.0\\.1:${closed}|governance\\.invalid|secret`));
  }, 60_000);
});
