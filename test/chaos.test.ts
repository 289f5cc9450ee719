/**
 * The chaos run's failure path: `npm run chaos` with a guarantee broken on purpose must fail naming
 * it. `--break budget` tells the gateways the governance account is three times what the emulator
 * enforces (a margin worse than none); the run, its callers and its checks are the real ones
 * (`--profile quiet`: 20 s without faults; 24 callers, so that demand exceeds the account). The passing run itself is CI's own
 * step (`.ci/run`: `npm run chaos -- --profile ci`).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function chaos(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/chaos.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('npm run chaos', () => {
  it('fails naming the budget when the gateways are told a larger account than the upstream enforces', async () => {
    const { code, stdout, stderr } = await chaos(['--profile', 'quiet', '--break', 'budget', '--callers', '24']);
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/FAILED: invariants? broken: .*\bbudget\b/);
    const report = JSON.parse(stdout);
    expect(report.invariants.budget.ok).toBe(false);
    expect(report.invariants.budget.violations[0]).toMatch(
      /governance requests within \d+ ms from [\d.]+ s, the account allows \d+/,
    );
    // Only what was broken: the other guarantees held through the same run.
    expect(Object.keys(report.invariants).filter((name) => !report.invariants[name].ok)).toEqual(['budget']);
  }, 180_000);
});
