/**
 * `npm run check:prod` (CI step "production image"): no Docker engine runs here, so this runs the
 * Dockerfile's steps as plain commands in a clean copy of the repository (the files git tracks,
 * as a fresh clone has them): the build stage's install and build, the runtime stage's production
 * install (`npm ci --omit=dev`) with `dist/` copied over, then the image's CMD, started exactly as
 * written, with NODE_ENV=production against emulators. It queries both upstreams through it,
 * measures the GraphiQL page on the wire, checks that tsx/typescript are absent, sends SIGTERM
 * and expects exit 0. Any failure exits 1 with the reason.
 */
import { execFileSync, execSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { startCalendarEmulator } from '../src/emulators/calendar/index.js';
import { startGovernanceEmulator } from '../src/emulators/governance/index.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const fail = (why: string): never => {
  console.error(`check:prod FAILED: ${why}`);
  process.exit(1);
};

interface Stage {
  name: string;
  dir: string;
  env: Record<string, string>;
  cmd?: string[];
}

/** The Dockerfile's instructions, continuation lines joined. */
function instructions(): { op: string; args: string }[] {
  const text = readFileSync(join(repo, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [op, ...rest] = l.split(/\s+/);
      return { op: op!.toUpperCase(), args: rest.join(' ') };
    });
}

const work = mkdtempSync(join(tmpdir(), 'gateway-prod-'));
const clean = join(work, 'clone');
// A clean copy: what git tracks (plus uncommitted edits of tracked and new files), nothing else.
const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: repo, encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);
for (const f of files) {
  if (!existsSync(join(repo, f))) continue;
  mkdirSync(dirname(join(clean, f)), { recursive: true });
  cpSync(join(repo, f), join(clean, f));
}

const stages = new Map<string, Stage>();
let stage: Stage | undefined;
const started = Date.now();
for (const { op, args } of instructions()) {
  switch (op) {
    case 'FROM': {
      const name = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? `stage${stages.size}`;
      if (!/^node:24(-slim)?\b/.test(args)) fail(`stage ${name} is not based on node:24-slim (${args})`);
      stage = { name, dir: join(work, name), env: {} };
      mkdirSync(stage.dir, { recursive: true });
      stages.set(name, stage);
      break;
    }
    case 'WORKDIR':
    case 'EXPOSE':
    case 'USER':
    case 'STOPSIGNAL':
    case 'HEALTHCHECK':
      break;
    case 'ENV':
      for (const m of args.matchAll(/(\w+)=(\S+)/g)) stage!.env[m[1]!] = m[2]!;
      break;
    case 'COPY': {
      const parts = args.split(/\s+/);
      const from = parts[0]!.startsWith('--from=') ? stages.get(parts.shift()!.slice(7)) : undefined;
      const dest = parts.pop()!;
      for (const src of parts) {
        const source = from ? join(from.dir, src.replace(/^\/app\/?/, '')) : join(clean, src);
        const target =
          dest.endsWith('/') || dest === '.' || dest === './'
            ? join(stage!.dir, dest, src.split('/').pop()!)
            : join(stage!.dir, dest);
        cpSync(source, target, { recursive: true });
      }
      break;
    }
    case 'RUN':
      console.log(`[${stage!.name}] RUN ${args}`);
      try {
        execSync(args, { cwd: stage!.dir, stdio: 'inherit', env: { ...process.env, ...stage!.env } });
      } catch {
        fail(`RUN ${args} failed in stage ${stage!.name}`);
      }
      break;
    case 'CMD':
      stage!.cmd = JSON.parse(args) as string[];
      break;
    default:
      fail(`unsupported Dockerfile instruction ${op}`);
  }
}
const runtime = stage!;
if (!runtime.cmd) fail('the last stage has no CMD');
if (runtime.env.NODE_ENV !== 'production') fail('the runtime stage does not set NODE_ENV=production');
for (const dev of ['tsx', 'typescript', 'vitest'])
  if (existsSync(join(runtime.dir, 'node_modules', dev))) fail(`dev dependency ${dev} is in the runtime stage`);
const pkg = JSON.parse(readFileSync(join(runtime.dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
// `exec` makes the server the process npm signals; the image runs the same command without npm.
if (pkg.scripts['start:prod']!.replace(/^exec /, '') !== runtime.cmd!.join(' '))
  fail(`CMD (${runtime.cmd!.join(' ')}) is not npm run start:prod (${pkg.scripts['start:prod']})`);
console.log(`install + build: ${((Date.now() - started) / 1000).toFixed(0)} s`);

const CHECK_KEY = randomBytes(24).toString('base64url');

// Start the image's CMD, production profile, against emulators in this process.
const [governance, calendar] = await Promise.all([startGovernanceEmulator(), startCalendarEmulator()]);
const [command, ...args] = runtime.cmd!;
const child = spawn(command === 'node' ? process.execPath : command!, args, {
  cwd: runtime.dir,
  env: {
    PATH: process.env.PATH,
    ...runtime.env,
    ...emulatorEnv(governance, calendar),
    PORT: '0',
    HOST: '127.0.0.1',
    GRAPHIQL: 'true',
    LOG_LEVEL: 'warn',
    // Production refuses callers without credentials: the check calls with an API key (by its hash).
    AUTH_API_KEYS: `check-prod|${createHash('sha256').update(CHECK_KEY).digest('hex')}|*`,
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let out = '';
let stopping = false;
const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
const base = await new Promise<string>((resolve) => {
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    const m = /gateway ready: http:\/\/\S+:(\d+)\/graphql/.exec(out);
    if (m) resolve(`http://127.0.0.1:${m[1]}`);
  });
  void exited.then((code) => stopping || fail(`the production start exited with ${code}: ${out}`));
});

try {
  const health = await fetch(`${base}/health`);
  if (!health.ok) fail(`/health answered ${health.status}`);
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-graphql-csrf': '1', authorization: `Bearer ${CHECK_KEY}` },
    body: JSON.stringify({ query: '{ entityTypes(first: 1) { totalCount } events(first: 1) { totalCount } }' }),
  });
  const body = (await res.json()) as {
    data?: { entityTypes?: { totalCount: number }; events?: { totalCount: number } };
    errors?: unknown;
  };
  if (!(body.data?.entityTypes?.totalCount && body.data.events?.totalCount))
    fail(`query through both upstreams failed: ${JSON.stringify(body)}`);
  // Undici's fetch decodes; read the wire size from a raw request.
  const { request } = await import('undici');
  const page = await request(`${base}/graphql`, { headers: { accept: 'text/html', 'accept-encoding': 'br, gzip' } });
  const wire = Buffer.from(await page.body.arrayBuffer()).length;
  const encoding = page.headers['content-encoding'];
  console.log(
    `GraphiQL page on the wire: ${(wire / 1024 / 1024).toFixed(2)} MB (${String(encoding)}), cache-control: ${String(page.headers['cache-control'])}`,
  );
  if (encoding !== 'br' || wire > 2 * 1024 * 1024) fail('the GraphiQL page is not served brotli-compressed under 2 MB');
  console.log(`served: entityTypes ${body.data!.entityTypes!.totalCount}, events ${body.data!.events!.totalCount}`);
} finally {
  stopping = true;
  child.kill('SIGTERM');
}
const code = await exited;
await Promise.all([governance.close(), calendar.close()]);
if (code !== 0) fail(`exit code after SIGTERM was ${code}`);
rmSync(work, { recursive: true, force: true });
console.log(
  `check:prod ok in ${((Date.now() - started) / 1000).toFixed(0)} s: clean copy, npm ci --omit=dev, ${runtime.cmd!.join(' ')}, queries served, SIGTERM → exit 0`,
);
