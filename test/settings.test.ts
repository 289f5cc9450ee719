/**
 * The settings schema is the single source of truth: `.env.example`, `--help` and `docs/settings.md`
 * list every setting, production checklist first; no code in src/ reads the environment around it;
 * every declared setting is used by the code and set by name in a test; production refuses to start
 * on fake data or without an explicit rate profile; a `.env` file fills in, never overrides.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../src/config/config.js';
import { withEnvFile } from '../src/config/env-file.js';
import { renderEnvExample, renderHelp, renderSettingsDoc } from '../src/config/help.js';
import { readSettings, SETTINGS } from '../src/config/settings.js';
import { problemsOf } from './support/config.js';

const root = new URL('../', import.meta.url);
const read = (f: string) => readFileSync(new URL(f, root), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}
const srcDir = new URL('src/', root).pathname;
const testDir = new URL('test/', root).pathname;
const SCHEMA_FILE = join(srcDir, 'config/settings.ts');
/** Reads the `.env` file; it takes the environment as a parameter and never touches `process.env`. */
const ENV_FILE_READER = join(srcDir, 'config/env-file.ts');
const help = (...args: string[]) =>
  execFileSync(process.execPath, ['--import', 'tsx', 'src/server.ts', '--help', ...args], {
    cwd: root,
    encoding: 'utf8',
  });

/** Settings that no other test sets: set here, and read back from the config. */
const READ_HERE: Record<string, [value: string, read: (c: Config) => unknown, expected: unknown]> = {
  METRICS: ['false', (c) => c.observability.metrics, false],
  READY_REQUIRES: ['upstreams,redis', (c) => [...c.observability.readyRequires].sort(), ['redis', 'upstreams']],
  EMBEDDED_EMULATORS: ['false', (c) => c.embeddedEmulators, false],
  SHUTDOWN_DRAIN_MS: ['1234', (c) => c.http.drainMs, 1234],
  CACHE_MAX_BYTES: ['2048', (c) => [c.cache.maxBytes, c.cache.answers.maxBytes], [2048, 1024]],
};

describe('settings schema', () => {
  it('.env.example and docs/settings.md are what the schema generates (npm run env:example)', () => {
    expect(read('.env.example')).toBe(renderEnvExample());
    expect(read('docs/settings.md')).toBe(renderSettingsDoc());
  });

  it('--help shows the production checklist first, then the common settings; --help all every setting', () => {
    const short = help();
    const all = help('all');
    expect(short).toBe(renderHelp());
    expect(all).toBe(renderHelp(true));
    const at = (text: string, name: string) => text.indexOf(`  ${name}  `);
    const tier = (t: string) => SETTINGS.filter((s) => s.tier === t).map((s) => s.name);
    const lastProduction = Math.max(...tier('production').map((n) => at(short, n)));
    expect(short.indexOf('Production checklist')).toBeLessThan(short.indexOf('Common settings'));
    for (const name of tier('production')) expect(at(short, name), name).toBeGreaterThan(0);
    for (const name of tier('common')) expect(at(short, name), name).toBeGreaterThan(lastProduction);
    for (const name of tier('advanced')) expect(at(short, name), name).toBe(-1);
    expect(short).toContain('--help all');
    const env = read('.env.example');
    const doc = read('docs/settings.md');
    const missing = SETTINGS.filter(
      (s) => !env.includes(`# ${s.name}=`) || at(all, s.name) < 0 || !doc.includes(`| \`${s.name}\``),
    ).map((s) => s.name);
    expect(missing).toEqual([]);
    // .env.example starts with the production checklist too.
    expect(env.indexOf('# NODE_ENV=')).toBeLessThan(env.indexOf('# PORT='));
  });

  it('at most 60 settings, at most 11 on the production checklist, secrets marked, each described', () => {
    // A new setting must be one an operator would change; anything else is a constant where it is used.
    expect(SETTINGS.length).toBeLessThanOrEqual(60);
    // AUTH_ISSUERS and AUTH_API_KEYS are one choice: either will do.
    expect(SETTINGS.filter((s) => s.tier === 'production').length).toBeLessThanOrEqual(11);
    for (const secret of ['GOVERNANCE_CLIENT_SECRET', 'CALENDAR_APP_PASSWORD', 'REDIS_URL', 'FEDERATION_SECRET'])
      expect(SETTINGS.find((s) => s.name === secret)?.secret).toBe(true);
    for (const s of SETTINGS) expect(s.description.length, s.name).toBeGreaterThan(10);
  });

  it('every setting is set by name in a test', () => {
    const tests = sources(testDir)
      .filter((f) => !f.endsWith('settings.test.ts'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const untested = SETTINGS.filter((s) => !READ_HERE[s.name] && !new RegExp(`\\b${s.name}\\b`).test(tests));
    expect(untested.map((s) => s.name)).toEqual([]);
    for (const [name, [value, get, expected]] of Object.entries(READ_HERE))
      expect(get(loadConfig({ [name]: value })), name).toEqual(expected);
  });

  it('no code in src/ reads the environment except through the schema', () => {
    const offenders = sources(srcDir)
      .filter((f) => f !== SCHEMA_FILE && f !== ENV_FILE_READER)
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${f.slice(srcDir.length)}:${i + 1}` }))
          .filter(
            ({ line }) => /process\.env|\benv\.[A-Z][A-Z0-9_]+|\benv\[['"`]/.test(line) && !/^\s*(\*|\/\/)/.test(line),
          ),
      )
      .map((o) => o.at);
    expect(offenders).toEqual([]);
  });

  it('every declared setting is used by the code', () => {
    const code = sources(srcDir)
      .filter((f) => f !== SCHEMA_FILE)
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const unused = SETTINGS.filter((s) => !new RegExp(`\\b(s|settings)\\.${s.name}\\b|'${s.name}'`).test(code)).map(
      (s) => s.name,
    );
    expect(unused).toEqual([]);
  });

  it('validates every value and reports one line per problem', () => {
    const { problems } = readSettings({
      PORT: 'x',
      METRICS: 'maybe',
      GATEWAY_OPERATION_DEADLINE_MS: '0',
      CORS_ORIGINS: 'https://a.example',
      GOVERNANCE_CLIENT_SECRET: 'hush',
    });
    expect(problems).toEqual([
      'PORT must be a whole number from 0 to 65535 (got "x").',
      'GATEWAY_OPERATION_DEADLINE_MS must be a whole number from 1 to 3600000 (got "0").',
      'METRICS must be true or false (got "maybe").',
    ]);
  });
});

describe('production is explicit', () => {
  it('refuses NODE_ENV=production without upstreams, naming every missing setting in one line', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    expect(problems).toHaveLength(3);
    expect(problems[2]).toMatch(/^NODE_ENV=production lets no caller in: set AUTH_ISSUERS .*, AUTH_API_KEYS /);
    expect(problems[1]).toContain(
      'missing: GOVERNANCE_URL, GOVERNANCE_CLIENT_ID, GOVERNANCE_CLIENT_SECRET, CALENDAR_URL, CALENDAR_USER, CALENDAR_APP_PASSWORD',
    );
    expect(problems[1]).toContain('EMBEDDED_EMULATORS=true');
    expect(problemsOf({ NODE_ENV: 'production', EMBEDDED_EMULATORS: 'true' })).toEqual([]);
    expect(
      problemsOf({
        NODE_ENV: 'production',
        GOVERNANCE_URL: 'https://t.example',
        GOVERNANCE_AUTH_MODE: 'forward',
        GOVERNANCE_RATE_PROFILE: 'sandbox',
        CALENDAR_URL: 'https://c.example/wp-json/calendar/events/v1',
        CALENDAR_AUTH_MODE: 'forward',
      }),
    ).toEqual([]);
  });

  it("makes the governance account's rate profile an explicit choice in production, not in development", () => {
    const real = {
      NODE_ENV: 'production',
      GOVERNANCE_URL: 'https://t.example',
      GOVERNANCE_CLIENT_ID: 'id',
      GOVERNANCE_CLIENT_SECRET: 'secret',
      CALENDAR_URL: 'https://c.example/wp-json/calendar/events/v1',
      CALENDAR_USER: 'editor',
      CALENDAR_APP_PASSWORD: 'pw',
      AUTH_ANONYMOUS: 'calendar:read',
    };
    expect(problemsOf(real)).toEqual([
      "GOVERNANCE_RATE_PROFILE is required in production: set it to the governance account's tier, production (20,000/min, 200,000/h) or sandbox (5,000/min, 50,000/h).",
    ]);
    const sandbox = loadConfig({ ...real, GOVERNANCE_RATE_PROFILE: 'sandbox' });
    expect(sandbox.governance.rateProfile).toBe('sandbox');
    expect(sandbox.traffic.governance.rules.map((r) => r.limit)).toEqual([5_000, 50_000]);
    // Development and the emulators keep the production tier by default.
    expect(loadConfig({}).governance.rateProfile).toBe('production');
    expect(loadConfig({ ...real, NODE_ENV: 'development' }).governance.rateProfile).toBe('production');
  });

  it('the process exits non-zero with that message and no stack trace', () => {
    let out = '';
    let status = 0;
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
        cwd: root,
        env: { PATH: process.env.PATH, NODE_ENV: 'production', PORT: '0' },
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (e) {
      const err = e as { status: number; stderr: string; stdout: string };
      status = err.status;
      out = err.stderr + err.stdout;
    }
    expect(status).toBe(1);
    expect(out).toContain('missing: GOVERNANCE_URL');
    expect(out).toContain('GOVERNANCE_RATE_PROFILE is required in production');
    expect(out).not.toMatch(/^\s+at /m);
    expect(out).not.toContain('embedded governance emulator');
  });

  it('CORS is closed in production and open to loopback origins in development unless CORS_ORIGINS says otherwise', () => {
    const prodEnv = { NODE_ENV: 'production', EMBEDDED_EMULATORS: 'true' };
    expect(loadConfig(prodEnv).http.corsOrigins).toEqual([]);
    expect(
      loadConfig({ ...prodEnv, CORS_ORIGINS: 'https://app.example, https://admin.example' }).http.corsOrigins,
    ).toEqual(['https://app.example', 'https://admin.example']);
    expect(loadConfig({}).http.corsOrigins).toEqual(['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*']);
    expect(loadConfig({}).emulatorFaultRoutes).toBe(false);
    // Any website could act with the permissions of callers without a token.
    expect(() => loadConfig({ CORS_ORIGINS: '*' })).toThrow(/CORS_ORIGINS=\* lets any website call/);
    expect(loadConfig({ CORS_ORIGINS: '*', AUTH_ANONYMOUS: 'none' }).http.corsOrigins).toEqual(['*']);
  });

  it('listens on loopback outside production, on every address in production', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'production', EMBEDDED_EMULATORS: 'true' }).host).toBe('0.0.0.0');
  });
});

describe('a .env file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dotenv-'));
  const file = join(dir, '.env');
  writeFileSync(
    file,
    '# development\nPORT=4321\nLOG_LEVEL=debug\nCACHE_TTL_MS="5000"\nGOVERNANCE_RATE_PROFILE=bogus\n',
  );

  it('fills in what the environment does not set, never overrides it, and is read in development only', () => {
    const env = withEnvFile({ GOVERNANCE_RATE_PROFILE: 'sandbox', CACHE_TTL_MS: '' }, file);
    const config = loadConfig(env);
    expect(config.port).toBe(4321);
    expect(config.logLevel).toBe('debug');
    expect(loadConfig(withEnvFile({ LOG_LEVEL: 'error', GOVERNANCE_RATE_PROFILE: 'sandbox' }, file)).logLevel).toBe(
      'error',
    );
    expect(config.governance.rateProfile).toBe('sandbox');
    // Set in the environment, even empty: the file does not fill it in.
    expect(config.cache.ttlMs).toBe(30_000);
    expect(withEnvFile({ NODE_ENV: 'development' }, file).PORT).toBe('4321');
    // Production and test runs read no file.
    expect(withEnvFile({ NODE_ENV: 'production' }, file)).toEqual({ NODE_ENV: 'production' });
    expect(withEnvFile({ NODE_ENV: 'test' }, file)).toEqual({ NODE_ENV: 'test' });
    expect(withEnvFile({}, join(dir, 'none.env'))).toEqual({});
  });

  it('the server reads the .env of its working directory at start-up', () => {
    const tsx = new URL('node_modules/tsx/dist/loader.mjs', root).href;
    const server = new URL('src/server.ts', root).pathname;
    let out = '';
    try {
      execFileSync(process.execPath, ['--import', tsx, server], {
        cwd: dir,
        env: { PATH: process.env.PATH },
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (e) {
      const err = e as { stderr: string; stdout: string };
      out = err.stderr + err.stdout;
    }
    // The bad value in the file stops the start: the file was read.
    expect(out).toContain('GOVERNANCE_RATE_PROFILE must be one of production, sandbox (got "bogus").');
  });
});
