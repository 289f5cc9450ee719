import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REQUIRED_NODE_MAJOR, runtimeProblem } from '../src/config/runtime.js';

describe('the supported runtime', () => {
  it('npm test runs on Node 24, the `node` dev dependency, whatever the system Node is', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(REQUIRED_NODE_MAJOR);
    // What a child process started by name gets: npm scripts put node_modules/.bin first on the PATH.
    const child = execFileSync('node', ['--version'], { encoding: 'utf8' }).trim();
    expect(Number(child.slice(1).split('.')[0])).toBeGreaterThanOrEqual(REQUIRED_NODE_MAJOR);
  });

  it('an older Node gets one line naming the version it needs and how npm brings it', () => {
    expect(runtimeProblem('24.0.0')).toBeUndefined();
    const line = runtimeProblem('20.20.2');
    expect(line).toMatch(/Node\.js 24 or newer is required; this is 20\.20\.2/);
    expect(line).toMatch(/`npm ci` installs Node 24/);
    expect(line).not.toMatch(/\n/);
  });

  // /usr/bin/node is the system's; where it is older than 24 (as on the CI machines) the entry must refuse it.
  const system = systemNode();
  it.runIf(system && runtimeProblem(system))('the entries refuse an older system Node with that line', () => {
    const run = () =>
      execFileSync('/usr/bin/node', ['--import', 'tsx', 'src/server.ts', '--help'], {
        encoding: 'utf8',
        stdio: 'pipe',
        env: { ...process.env, NODE_ENV: 'test' },
      });
    expect(run).toThrow(/Node\.js 24 or newer is required; this is 2\d\./);
  });
});

function systemNode(): string | undefined {
  try {
    return execFileSync('/usr/bin/node', ['--version'], { encoding: 'utf8' }).trim().slice(1);
  } catch {
    return undefined;
  }
}
