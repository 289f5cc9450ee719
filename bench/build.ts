/**
 * The measured processes run the JavaScript that ships: `src/` and the bench's child entries
 * compiled by tsc with the production build's settings (tsconfig.build.json), started with plain
 * `node` and the production start's flags. Under tsx they ran esbuild's output instead (with a
 * `__name` call per named function), beside tsx's loader thread, whose own heap collected now and
 * then on the gateway's helper-thread CPU: cold EventGraph took 8.3–9.0 ms of main-thread CPU per
 * run that way, 7.3–7.8 ms compiled.
 *
 * Emitted without type checking (`--noCheck`: the same JavaScript, byte for byte, in a fifth of the
 * time; `npm run typecheck` checks the types). One build per bench process, in a directory of its
 * own under node_modules/.cache (the compiled modules resolve their packages from the project's
 * node_modules; one per process, because a bench may run beside the test suite's tiny one), removed
 * when the process exits or, if it was killed, by the next build.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../', import.meta.url));
/** The bench files that run as processes of their own, and `ipc.ts`, which they import. */
export const CHILD_ENTRIES = [
  'bench/gateway-process.ts',
  'bench/floor-process.ts',
  'bench/emulator-process.ts',
  'bench/bare-yoga.ts',
  'bench/bare-bytes.ts',
  'bench/young-garbage.ts',
  'bench/ipc.ts',
];

let built: Promise<string> | undefined;

/** The directory holding `src/` and `bench/` compiled; built on the first call. */
export function compiledChildren(): Promise<string> {
  built ??= build();
  return built;
}

async function build(): Promise<string> {
  const parent = `${root}node_modules/.cache/bench-build/`;
  // Builds of processes that are gone (a test worker is killed before its exit handlers run).
  for (const pid of existsSync(parent) ? readdirSync(parent) : []) {
    if (!isAlive(Number(pid))) rmSync(parent + pid, { recursive: true, force: true });
  }
  const dir = `${parent}${process.pid}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const up = '../../../../';
  writeFileSync(
    `${dir}tsconfig.json`,
    JSON.stringify({
      extends: `${up}tsconfig.build.json`,
      compilerOptions: { rootDir: up, outDir: 'out' },
      include: [`${up}src`, ...CHILD_ENTRIES.map((f) => up + f)],
    }),
  );
  // Under node_modules, Node would not see the project's package.json: the output says it is ESM itself.
  writeFileSync(`${dir}package.json`, JSON.stringify({ type: 'module' }));
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', `${dir}tsconfig.json`, '--noCheck'], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (e) {
    // tsc reports on stdout.
    const out = (e as { stdout?: string }).stdout ?? '';
    throw new Error(`compiling the bench's processes failed:\n${out || (e as Error).message}`);
  }
  // What the server reads at run time besides its modules (as scripts/build.ts ships it).
  mkdirSync(`${dir}out/src/generated`, { recursive: true });
  copyFileSync(`${root}src/generated/persisted-documents.json`, `${dir}out/src/generated/persisted-documents.json`);
  return `${dir}out/`;
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
