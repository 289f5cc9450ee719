/**
 * `npm run env:example`: writes `.env.example` and `docs/settings.md` from the settings schema.
 * `--check` fails (exit 1) when either is out of date.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { renderEnvExample, renderSettingsDoc } from '../src/config/help.js';

const check = process.argv.includes('--check');
const root = new URL('../', import.meta.url);
const files = [
  { file: new URL('.env.example', root), name: '.env.example', want: renderEnvExample() },
  { file: new URL('docs/settings.md', root), name: 'docs/settings.md', want: renderSettingsDoc() },
];

const current = (file: URL) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return ''; // missing: written below, or reported by --check
  }
};

if (check) {
  const stale = files.filter((f) => current(f.file) !== f.want).map((f) => f.name);
  if (stale.length > 0) {
    console.error(`${stale.join(' and ')} out of date: run npm run env:example`);
    process.exit(1);
  }
} else {
  mkdirSync(new URL('docs/', root), { recursive: true });
  for (const f of files) writeFileSync(f.file, f.want);
}
