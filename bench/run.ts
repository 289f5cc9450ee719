/**
 * `npm run bench [-- --check] [--latency 20] [--runs 30] [--seconds 5] [--concurrency 8] [--only 1,2]
 * [--quick] [--out file.json]`: prints one JSON document on stdout and a short table on stderr; with `--check` the exit
 * code is 1 when a target is missed.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FULL, QUICK, runBench } from './bench.js';
import { table } from './table.js';

const { values } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    latency: { type: 'string' },
    runs: { type: 'string' },
    seconds: { type: 'string' },
    concurrency: { type: 'string' },
    only: { type: 'string' },
    out: { type: 'string' },
  },
});

const int = (name: string, raw: string | undefined, fallback: number, min: number, max: number) => {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) {
    console.error(`--${name} must be a number from ${min} to ${max} (got "${raw}")`);
    process.exit(2);
  }
  return n;
};

const base = values.quick ? QUICK : FULL;
const options = {
  ...base,
  latencyMs: int('latency', values.latency, base.latencyMs, 0, 1000),
  runs: int('runs', values.runs, base.runs, 1, 200),
  throughputSeconds: int('seconds', values.seconds, base.throughputSeconds, 0.1, 60),
  concurrency: int('concurrency', values.concurrency, base.concurrency, 1, 256),
};
const only = values.only ? new Set(values.only.split(',').map((s) => s.trim())) : undefined;

const doc = await runBench(options, only, (line) => console.error(`bench: ${line}`));
const json = `${JSON.stringify(doc, null, 2)}\n`;
process.stdout.write(json);
// `npm run` prints its own banner on stdout; `--out` (or `npm run -s`) gives the bare document.
if (values.out) writeFileSync(values.out, json);
console.error(table(doc));
process.exit(values.check && !doc.passed ? 1 : 0);
