/**
 * `npm run build`: compiles `src/` to `dist/` (tsc, source maps) and ships the files the server
 * reads at run time: the persisted-operations safelist, the MCP tools' operations, the emulators' example
 * discovery file and the GraphiQL page, precompressed with
 * brotli (quality 11) and gzip. Prints the page's sizes, so the wire size is visible at each build.
 * `--no-precompress` leaves the page out (about 24 s of CPU): the server then renders and compresses
 * it on its first request, as in development (the shutdown test's build, which never asks for it).
 * `--no-check` emits without tsc's type check (the same JavaScript, in a fifth of the time; `npm run
 * typecheck` checks the types): the shutdown test's build again.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { GRAPHIQL_FILES, compressGraphiQLPage, renderGraphiQLPage } from '../src/http/graphiql-page.js';

const root = new URL('../', import.meta.url);
// `npm run build -- DIR` builds into DIR instead of dist/ (the shutdown test builds a copy of its own).
const args = process.argv.slice(2);
const precompress = !args.includes('--no-precompress');
const check = !args.includes('--no-check');
const out = args.find((arg) => !arg.startsWith('--'));
const dist = out ? pathToFileURL(`${resolve(out)}/`) : new URL('dist/', root);
rmSync(dist, { recursive: true, force: true });

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(
  process.execPath,
  [tsc, '-p', 'tsconfig.build.json', '--outDir', fileURLToPath(dist), ...(check ? [] : ['--noCheck'])],
  {
    cwd: root,
    stdio: 'inherit',
  },
);

mkdirSync(new URL('generated/', dist), { recursive: true });
copyFileSync(
  new URL('src/generated/persisted-documents.json', root),
  new URL('generated/persisted-documents.json', dist),
);
cpSync(new URL('src/mcp/tools/', root), new URL('mcp/tools/', dist), { recursive: true });
// The embedded emulators' discovery file (the shipped example of GOVERNANCE_DISCOVERY_FILE).
copyFileSync(
  new URL('src/emulators/governance/discovery.example.json', root),
  new URL('emulators/governance/discovery.example.json', dist),
);

if (precompress) {
  const graphiqlDir = new URL('http/graphiql/', dist);
  mkdirSync(graphiqlDir, { recursive: true });
  const page = compressGraphiQLPage(await renderGraphiQLPage(), true);
  writeFileSync(new URL(GRAPHIQL_FILES.identity, graphiqlDir), page.identity);
  writeFileSync(new URL(GRAPHIQL_FILES.br, graphiqlDir), page.br);
  writeFileSync(new URL(GRAPHIQL_FILES.gzip, graphiqlDir), page.gzip);
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(2)} MB`;
  console.log(
    `GraphiQL page: ${mb(page.identity.length)} raw, ${mb(page.br.length)} brotli, ${mb(page.gzip.length)} gzip`,
  );
}
console.log(`built ${fileURLToPath(dist)} (start with: npm run start:prod)`);
