/**
 * relay-compiler over the frontend operations in test/clients/relay/, against schema.graphql, the
 * way a Relay app builds: the sources and a config are copied to a temporary project whose
 * `__generated__` receives the artifacts (never committed: they follow the schema of the day).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RelayBuild {
  /** What the compiler printed (its `[INFO]`, `[WARN]` and `[ERROR]` lines). */
  output: string;
  /** The default export of `__generated__/<name>.graphql.ts`. */
  artifact<T>(name: string): Promise<T>;
}

export async function compileRelay(): Promise<RelayBuild> {
  const project = mkdtempSync(join(tmpdir(), 'relay-clients-'));
  afterAll(() => rmSync(project, { recursive: true, force: true }));
  cpSync(join(ROOT, 'test/clients/relay'), join(project, 'src'), { recursive: true });
  mkdirSync(join(project, '__generated__'));
  const config = {
    src: 'src',
    schema: join(ROOT, 'schema.graphql'),
    language: 'typescript',
    artifactDirectory: '__generated__',
    eagerEsModules: true,
  };
  writeFileSync(join(project, 'relay.config.json'), JSON.stringify(config));
  const compiler = join(ROOT, 'node_modules/.bin/relay-compiler');
  const { stdout, stderr } = await promisify(execFile)(compiler, ['--noWatchman', 'relay.config.json'], {
    cwd: project,
    env: { PATH: process.env.PATH, NO_COLOR: '1' },
  });
  return {
    output: stdout + stderr,
    artifact: async <T>(name: string) =>
      ((await import(join(project, '__generated__', `${name}.graphql.ts`))) as { default: T }).default,
  };
}
