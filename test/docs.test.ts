/**
 * The documents stay true to the code: every setting a page names exists in the settings schema
 * (a former setting that became a constant is described as one), every relative link leads to a
 * file, the README fits a short read, and run history lives in git rather than in the pages.
 * Reads only files of this repository.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../src/config/settings.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

function markdownUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return markdownUnder(path);
    return e.name.endsWith('.md') ? [path] : [];
  });
}
const PAGES = ['README.md', 'ARCHITECTURE.md', ...markdownUnder('docs')];

/**
 * Prefixes of the gateway's settings, present and past: a token with one of them reads as a setting;
 * so do the one-word names that were settings.
 */
const SETTING_PREFIX =
  /^(ALLOW|AUDIT|AUTH|BREAKER|CACHE|CALENDAR|CORS|CSRF|EMBEDDED|EMULATOR|FAIR|FEDERATION|GATEWAY|GOVERNANCE|GRAPHQL|IDEMPOTENCY|JWKS|JWT|LIVE|LOG|MCP|OIDC|OTEL|PERSISTED|READY|REDIS|RESPONSE|SHUTDOWN|UPSTREAM|WRITE)_|^COMPRESSION$/;

/** Names with a setting's prefix that are not settings: error codes the gateway answers with. */
const ERROR_CODES = [
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'IDEMPOTENCY_KEY_IN_USE',
  'PERSISTED_QUERY_ID_REQUIRED',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'PERSISTED_QUERY_ONLY',
  'UPSTREAM_CONTRACT',
  'UPSTREAM_OUTCOME_UNKNOWN',
  'UPSTREAM_UNAVAILABLE',
];
/** Read by a library the gateway loads, not by the gateway's settings. */
const LIBRARY_VARIABLES = ['OTEL_EXPORTER_OTLP_HEADERS'];

/** UPPER_SNAKE tokens, with `*` as a wildcard part (`CACHE_*`, `GRAPHQL_MAX_*`, `RESPONSE_CACHE*`). */
const TOKEN = /(?<![A-Za-z0-9_])[A-Z][A-Z0-9]*(?:_(?:[A-Z0-9]+|\*))*\*?(?![A-Za-z0-9_])/g;

function unknownSettings(text: string, names: Set<string>): string[] {
  const allowed = new Set([...ERROR_CODES, ...LIBRARY_VARIABLES]);
  const found = [...text.matchAll(TOKEN)].map((m) => m[0]).filter((t) => SETTING_PREFIX.test(t) && !allowed.has(t));
  return found.filter((token) => {
    if (!token.includes('*')) return !names.has(token);
    const pattern = new RegExp(`^${token.replaceAll('*', '[A-Z0-9_]*')}$`);
    return ![...names].some((name) => pattern.test(name));
  });
}

/** Dated run history: "26 Nov 2026", "3 November 2026". */
const DATE = /\b[0-9]{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* 20[0-9]{2}\b/;

/** The performance page's latest table is the one place a run's date belongs. */
function withoutLatestTable(file: string, text: string): string {
  if (file !== 'docs/performance.md') return text;
  return text.replace(/^## Latest table\n[\s\S]*?(?=^## |(?![\s\S]))/m, '');
}

describe('the documents', () => {
  const names = new Set(SETTINGS.map((s) => s.name));

  it('name only settings the schema declares', () => {
    const stale = PAGES.flatMap((file) => unknownSettings(read(file), names).map((t) => `${file}: ${t}`));
    expect(stale).toEqual([]);
  });

  it('flag a removed setting, a wildcard that matches nothing, and not an error code', () => {
    expect(unknownSettings('`UPSTREAM_RAMP_STEP_MS`, `WRITE_LOCK_*`, `CACHE_*`, `COMPRESSION`', names)).toEqual([
      'UPSTREAM_RAMP_STEP_MS',
      'WRITE_LOCK_*',
      'COMPRESSION',
    ]);
    expect(unknownSettings('fails `UPSTREAM_OUTCOME_UNKNOWN`; set `REDIS_URL`', names)).toEqual([]);
  });

  it('allow only error codes the gateway really answers with', () => {
    const sources = sourceTexts('src');
    expect(ERROR_CODES.filter((code) => !sources.some((text) => text.includes(code)))).toEqual([]);
  });

  it('link only to files that exist', () => {
    const broken = PAGES.flatMap((file) =>
      [...read(file).matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => (m[1] ?? '').split('#')[0] ?? '')
        .filter((target) => target !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(target))
        .filter((target) => !existsSync(join(ROOT, dirname(file), decodeURI(target))))
        .map((target) => `${file} -> ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('keep the README within 250 lines', () => {
    expect(read('README.md').trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });

  it('carry no dated run history outside the latest performance table', () => {
    expect(DATE.test('what the changes of 26 Nov 2026 bought')).toBe(true);
    const page = '## Method\nrun 3 November 2026\n## Latest table\n| 26 Nov 2026 |\n';
    expect(withoutLatestTable('docs/performance.md', page)).toBe('## Method\nrun 3 November 2026\n');
    const dated = PAGES.flatMap((file) =>
      withoutLatestTable(file, read(file))
        .split('\n')
        .filter((line) => DATE.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(dated).toEqual([]);
  });
});

/** The text of every TypeScript file under a folder of the repository. */
function sourceTexts(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));
}
