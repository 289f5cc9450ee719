/**
 * Graceful shutdown of a real gateway process (`node --import tsx src/server.ts`, what `npm start`
 * runs) in front of emulators in this process: SIGTERM during 20 slow writes answers every client
 * over HTTP, reports each applied write as applied, turns /ready to 503 during the drain and exits 0.
 * Past the drain deadline, writes still running are answered OUTCOME_UNKNOWN, never with a dropped
 * socket. SIGTERM to `npm start`, `npm run start:prod` (on a compiled copy) and `npm run emulators`
 * leaves nothing listening on their ports, and a port in use is one line, without a stack.
 *
 * The tests run at once (`describe.concurrent`): each has processes and emulators of its own, and
 * most of their time is spent waiting for processes to start, drain and exit.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { startCalendarEmulator } from '../src/emulators/calendar/index.js';
import { startGovernanceEmulator } from '../src/emulators/governance/index.js';
import { REDIS_URL, requireRedis } from './support/redis.js';
import { until } from './support/wait.js';
import { freePort } from '../scripts/throwaway-redis.js';

/** Processes start and drain slowly on a loaded machine. */
const SLOW = { timeout: 30_000, interval: 20 };

const children: ChildProcess[] = [];
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  children.forEach((c) => c.exitCode === null && c.kill('SIGKILL'));
  await Promise.all(closers.map((c) => c()));
});

async function emulators() {
  const [governance, calendar] = await Promise.all([startGovernanceEmulator(), startCalendarEmulator()]);
  closers.push(
    () => governance.close(),
    () => calendar.close(),
  );
  return { governance, calendar, env: emulatorEnv(governance, calendar) };
}

function start(
  command: string,
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; ready?: RegExp; group?: boolean } = {},
) {
  const readyLine = options.ready ?? /gateway ready: http:\/\/\S+:(\d+)\/graphql/;
  const child = spawn(command, args, {
    cwd: options.cwd,
    // A process group of its own, as a terminal gives `npm start` (Ctrl-C signals the whole group).
    detached: options.group,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = readyLine.exec(out);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`exited with ${code}: ${out}`)));
  });
  ready.catch(() => undefined);
  return { child, ready, exited, output: () => out };
}

type Answer = {
  status: number;
  body: { data?: { createTag?: { id: string; name: string } } | null; errors?: { extensions?: { code?: string } }[] };
};

function createTags(base: string, n: number, prefix: string): Promise<Answer>[] {
  return Array.from({ length: n }, (_, i) =>
    fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation($name: String!) { createTag(input: { name: $name }) { id name } }',
        variables: { name: `${prefix} ${i}` },
      }),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as Answer['body'] })),
  );
}

describe.concurrent('graceful shutdown', () => {
  it('SIGTERM during 20 slow writes: every client answered, applied writes reported, /ready 503, exit 0', async () => {
    const up = await emulators();
    const gw = start(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      ...up.env,
      CALENDAR_MAX_CONCURRENT: '64',
      LOG_LEVEL: 'warn',
    });
    const base = await gw.ready;
    up.calendar.control.clearRequests();
    up.calendar.control.setLatency({ fixedMs: 3_000 });
    const posts = () =>
      up.calendar.control.requests().requests.filter((r) => r.method === 'POST' && r.path === '/tags');

    const answers = createTags(base, 20, 'Drain');
    await until(() => posts().length === 20, 'all 20 writes to reach the upstream', SLOW);
    gw.child.kill('SIGTERM');

    await until(async () => (await fetch(`${base}/ready`)).status === 503, '/ready to turn 503', SLOW);
    const late = await fetch(`${base}/graphql`, {
      method: 'POST',
      // A browser app on a local dev server (a CORS origin outside production) reads the refusal too.
      headers: { 'content-type': 'application/json', origin: 'http://localhost:5173' },
      body: '{"query":"{ __typename }"}',
    });
    expect(late.status).toBe(503);
    expect(late.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(late.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(late.headers.get('connection')).toBe('close');
    expect(((await late.json()) as Answer['body']).errors?.[0]?.extensions?.code).toBe('SHUTTING_DOWN');

    const settled = await Promise.all(answers);
    expect(await gw.exited).toBe(0);
    // Every client got an HTTP answer with its created tag; the upstream applied exactly those.
    expect(settled.map((a) => a.status)).toEqual(Array(20).fill(200));
    const reported = settled.map((a) => a.body.data?.createTag?.name).sort();
    expect(reported).toEqual(Array.from({ length: 20 }, (_, i) => `Drain ${i}`).sort());
    const applied = posts().filter((r) => r.status === 201);
    expect(applied).toHaveLength(20);
    expect(gw.output()).toMatch(/"msg":"drained; exiting","finished":2\d,"cutOff":\{"writes":0,"reads":0\}/);
  }, 60_000);

  it('past the drain deadline, writes still running are answered OUTCOME_UNKNOWN, then exit 0', async () => {
    const up = await emulators();
    const gw = start(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      ...up.env,
      CALENDAR_MAX_CONCURRENT: '64',
      SHUTDOWN_DRAIN_MS: '200',
      LOG_LEVEL: 'warn',
    });
    const base = await gw.ready;
    up.calendar.control.clearRequests();
    up.calendar.control.setLatency({ fixedMs: 20_000 });
    const answers = createTags(base, 5, 'Cut');
    await until(
      () => up.calendar.control.requests().requests.filter((r) => r.method === 'POST').length === 5,
      'the writes to reach the upstream',
      SLOW,
    );
    const signalled = performance.now();
    gw.child.kill('SIGTERM');
    const settled = await Promise.all(answers);
    expect(await gw.exited).toBe(0);
    // The exit does not wait for the stalled writes (20 s) nor for their request deadline (10 s).
    expect(performance.now() - signalled).toBeLessThan(5_000);
    for (const a of settled) {
      expect(a.status).toBe(503);
      expect(a.body.errors?.[0]?.extensions?.code).toBe('OUTCOME_UNKNOWN');
    }
    up.calendar.control.setLatency({});
  }, 60_000);

  it('a second signal exits at once', async () => {
    const up = await emulators();
    const gw = start(process.execPath, ['--import', 'tsx', 'src/server.ts'], { ...up.env, LOG_LEVEL: 'warn' });
    const base = await gw.ready;
    up.calendar.control.setLatency({ fixedMs: 20_000 });
    const pending = createTags(base, 1, 'Twice')[0]!.catch(() => undefined);
    await until(
      () => up.calendar.control.requests().requests.some((r) => r.method === 'POST'),
      'the write to reach the upstream',
      SLOW,
    );
    // A copy of the same signal right behind it (a process group's) is the same request to stop.
    gw.child.kill('SIGTERM');
    gw.child.kill('SIGTERM');
    await until(() => gw.output().includes('draining'), 'the drain to start', SLOW);
    const draining = performance.now();
    await until(() => performance.now() - draining > 1_100, 'the grace period to pass', SLOW);
    expect(gw.child.exitCode).toBeNull();
    gw.child.kill('SIGTERM');
    expect(await gw.exited).toBe(1);
    expect(gw.output()).toContain('SIGTERM again: exiting at once');
    await pending;
    up.calendar.control.setLatency({});
  }, 60_000);
});

/** True when the port can be bound again: an orphaned server would still hold it. */
function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, host, () => s.close(() => resolve(true)));
  });
}

/** A loopback address of this test's own (all of 127/8 is loopback on Linux). */
const loopback = () =>
  `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;

/**
 * `dist/` built by `npm run build`, in a directory of its own with the real package.json (without
 * blocking this process: the other tests of the file run meanwhile, with their emulators here).
 */
async function compiledCopy(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-dist-'));
  const tsx = createRequire(import.meta.url).resolve('tsx');
  const args = ['--import', tsx, 'scripts/build.ts', join(dir, 'dist'), '--no-precompress', '--no-check'];
  await promisify(execFile)(process.execPath, args);
  copyFileSync('package.json', join(dir, 'package.json'));
  symlinkSync(join(process.cwd(), 'node_modules'), join(dir, 'node_modules'));
  closers.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe.concurrent('signals and slow clients', () => {
  it('Ctrl-C on npm start (SIGINT to its process group, so twice) drains once: the write in flight is answered', async () => {
    const up = await emulators();
    const npm = start('npm', ['start', '--silent'], { ...up.env, LOG_LEVEL: 'warn' }, { group: true });
    const base = await npm.ready;
    up.calendar.control.clearRequests();
    up.calendar.control.setLatency({ fixedMs: 2_000 });
    const answer = createTags(base, 1, 'Group')[0]!;
    await until(
      () => up.calendar.control.requests().requests.some((r) => r.method === 'POST'),
      'the write to reach the upstream',
      SLOW,
    );
    process.kill(-npm.child.pid!, 'SIGINT');
    const { status, body } = await answer;
    expect(status).toBe(200);
    expect(body.data?.createTag?.name).toBe('Group 0');
    await npm.exited;
    expect(npm.output()).toMatch(/"msg":"drained; exiting","finished":1,/);
    expect(npm.output()).not.toContain('exiting at once');
    up.calendar.control.setLatency({});
  }, 60_000);

  it('a body or headers trickled at 1 byte / 3 s lose their socket within seconds, not 300 s', async () => {
    const up = await emulators();
    const gw = start(process.execPath, ['--import', 'tsx', 'src/server.ts'], { ...up.env, LOG_LEVEL: 'warn' });
    const { port } = new URL(await gw.ready);
    const trickle = (head: string, slow: string) =>
      new Promise<{ seconds: number; answer: string }>((resolve) => {
        const started = performance.now();
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(head));
        let answer = '';
        let i = 0;
        const drip = setInterval(() => socket.write(slow[i++ % slow.length]!), 3_000);
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('error', () => undefined);
        socket.once('close', () => {
          clearInterval(drip);
          resolve({ seconds: (performance.now() - started) / 1000, answer });
        });
      });
    const [body, headers] = await Promise.all([
      trickle(
        'POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
        '{"query":"{ __typename }"}',
      ),
      trickle('POST /graphql HTTP/1.1\r\n', 'X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'),
    ]);
    // Node's default would hold both for 300 s; the gateway's limits are 10 s (headers) and 15 s (request).
    expect(body.seconds).toBeLessThan(60);
    expect(headers.seconds).toBeLessThan(60);
    expect(body.answer).toMatch(/^HTTP\/1\.1 408/);
  }, 90_000);
});

describe.concurrent('start lines', () => {
  it('a healthy production start logs no Redis-unreachable warning and no probe status', async () => {
    if (!(await requireRedis())) return;
    const up = await emulators();
    const gw = start(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      ...up.env,
      NODE_ENV: 'production',
      AUTH_ANONYMOUS: 'governance:read',
      REDIS_URL,
    });
    await gw.ready;
    await until(
      () => /upstream calendar:.*\n/.test(gw.output()) && /upstream governance:.*\n/.test(gw.output()),
      'the upstream lines',
      SLOW,
    );
    await until(() => gw.output().includes('redis connected'), 'redis to connect', SLOW);
    expect(gw.output()).toMatch(/upstream governance: answers\n/);
    expect(gw.output()).toMatch(/upstream calendar: answers\n/);
    expect(gw.output()).not.toMatch(/unreachable|HTTP \d{3}/);
    gw.child.kill('SIGTERM');
    expect(await gw.exited).toBe(0);
  }, 60_000);

  it('a production start without its Redis says so once it has tried', async () => {
    const up = await emulators();
    const gw = start(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      ...up.env,
      NODE_ENV: 'production',
      AUTH_ANONYMOUS: 'governance:read',
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    });
    await gw.ready;
    await until(() => gw.output().includes('redis unreachable'), 'the warning', SLOW);
    gw.child.kill('SIGTERM');
    expect(await gw.exited).toBe(0);
  }, 60_000);
});

describe.concurrent('every start script runs the server as the process npm signals', () => {
  it('SIGTERM to npm start leaves no process on the port', async () => {
    const port = await freePort();
    const npm = start('npm', ['start', '--silent'], { PORT: String(port) });
    await npm.ready;
    npm.child.kill('SIGTERM');
    await npm.exited;
    expect(await portIsFree(port)).toBe(true);
  }, 60_000);

  it('SIGTERM to npm run start:prod leaves no process on the port', async () => {
    const cwd = await compiledCopy();
    const up = await emulators();
    const port = await freePort();
    const npm = start('npm', ['run', 'start:prod', '--silent'], { ...up.env, PORT: String(port) }, { cwd });
    await npm.ready;
    npm.child.kill('SIGTERM');
    await npm.exited;
    expect(await portIsFree(port)).toBe(true);
  }, 180_000);

  it('SIGTERM to npm run emulators leaves no process on either port', async () => {
    // Their ports are fixed (4010, 4020): a loopback address of this test's own keeps them apart from others'.
    const host = loopback();
    const npm = start('npm', ['run', 'emulators', '--silent'], { HOST: host }, { ready: /calendar emulator: +http/ });
    await npm.ready;
    npm.child.kill('SIGTERM');
    await npm.exited;
    expect(await portIsFree(4010, host)).toBe(true);
    expect(await portIsFree(4020, host)).toBe(true);
  }, 60_000);

  it('a port in use is one line naming it, without a stack', async () => {
    const taken = createServer();
    const port = await new Promise<number>((resolve) =>
      taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port)),
    );
    closers.push(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const gw = start(process.execPath, ['--import', 'tsx', 'src/server.ts'], { PORT: String(port) });
    expect(await gw.exited).toBe(1);
    const lines = gw.output().trim().split('\n');
    expect(lines.at(-1)).toBe(
      `gateway failed to start: port ${port} is already in use (127.0.0.1:${port}); stop what listens there or set PORT`,
    );
    expect(gw.output()).not.toMatch(/\n\s+at /);

    const host = loopback();
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(4010, host, resolve));
    closers.push(() => new Promise<void>((resolve) => holder.close(() => resolve())));
    const emu = start(process.execPath, ['--import', 'tsx', 'src/emulators/main.ts'], { HOST: host });
    expect(await emu.exited).toBe(1);
    expect(emu.output().trim()).toBe(
      `emulators failed to start: port 4010 on ${host} is already in use; stop what listens there or set HOST`,
    );
  }, 60_000);
});
