/**
 * The settings schema is the single source of truth: `.env.example`, `--help` and the table in docs/settings.md
 * list every setting; no code in src/ reads the environment around it; every declared setting is
 * used; production refuses to start on fake data.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderEnvExample, renderHelp, renderSettingsTable } from '../src/config/help.js';
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
const SCHEMA_FILE = join(srcDir, 'config/settings.ts');

describe('settings schema', () => {
  it('.env.example and the docs/settings.md table are what the schema generates (npm run env:example)', () => {
    expect(read('.env.example')).toBe(renderEnvExample());
    expect(read('docs/settings.md')).toContain(renderSettingsTable());
  });

  it('.env.example, --help and docs/settings.md list every setting, secrets marked', () => {
    const env = read('.env.example');
    const help = execFileSync(process.execPath, ['--import', 'tsx', 'src/server.ts', '--help'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(help).toBe(renderHelp());
    const readme = read('docs/settings.md');
    const missing = SETTINGS.filter(
      (s) => !env.includes(`# ${s.name}=`) || !help.includes(`  ${s.name}  `) || !readme.includes(`| \`${s.name}\``),
    ).map((s) => s.name);
    expect(missing).toEqual([]);
    expect(SETTINGS.length).toBeGreaterThanOrEqual(60);
    for (const secret of ['GOVERNANCE_CLIENT_SECRET', 'CALENDAR_APP_PASSWORD', 'REDIS_URL'])
      expect(SETTINGS.find((s) => s.name === secret)?.secret).toBe(true);
    for (const s of SETTINGS) expect(s.description.length, s.name).toBeGreaterThan(10);
  });

  it('no code in src/ reads the environment except through the schema', () => {
    const offenders = sources(srcDir)
      .filter((f) => f !== SCHEMA_FILE)
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
      READY_TIMEOUT_MS: '0',
      CORS_ORIGINS: 'https://a.example',
      GOVERNANCE_CLIENT_SECRET: 'hush',
    });
    expect(problems).toEqual([
      'PORT must be a whole number from 0 to 65535 (got "x").',
      'METRICS must be true or false (got "maybe").',
      'READY_TIMEOUT_MS must be a whole number from 1 to 60000 (got "0").',
    ]);
  });
});

describe('production is explicit', () => {
  it('refuses NODE_ENV=production without upstreams, naming every missing setting in one line', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(
      'missing: GOVERNANCE_URL, GOVERNANCE_CLIENT_ID, GOVERNANCE_CLIENT_SECRET, CALENDAR_URL, CALENDAR_USER, CALENDAR_APP_PASSWORD',
    );
    expect(problems[0]).toContain('EMBEDDED_EMULATORS=true');
    expect(problemsOf({ NODE_ENV: 'production', EMBEDDED_EMULATORS: 'true' })).toEqual([]);
    expect(
      problemsOf({
        NODE_ENV: 'production',
        GOVERNANCE_URL: 'https://t.example',
        GOVERNANCE_AUTH_MODE: 'forward',
        CALENDAR_URL: 'https://c.example/wp-json/calendar/events/v1',
        CALENDAR_AUTH_MODE: 'forward',
      }),
    ).toEqual([]);
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
    expect(out).not.toMatch(/^\s+at /m);
    expect(out).not.toContain('embedded governance emulator');
  });

  it('CORS is closed in production and open in development unless CORS_ORIGINS says otherwise', async () => {
    const { loadConfig } = await import('../src/config/config.js');
    const prodEnv = { NODE_ENV: 'production', EMBEDDED_EMULATORS: 'true' };
    expect(loadConfig(prodEnv).http.corsOrigins).toEqual([]);
    expect(
      loadConfig({ ...prodEnv, CORS_ORIGINS: 'https://app.example, https://admin.example' }).http.corsOrigins,
    ).toEqual(['https://app.example', 'https://admin.example']);
    expect(loadConfig({}).http.corsOrigins).toEqual(['*']);
    expect(loadConfig({}).emulatorFaultRoutes).toBe(false);
  });
});
