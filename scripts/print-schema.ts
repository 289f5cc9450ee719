/**
 * `npm run schema` writes schema.graphql from the code (sorted, so diffs only show real changes);
 * `npm run schema:check` fails when the checked-in file differs from what the code prints.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from '../src/app/schema.js';

const target = fileURLToPath(new URL('../schema.graphql', import.meta.url));
const printed = `${printSchema(lexicographicSortSchema(schema))}\n`;

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // a missing file is stale too
  }
  if (current !== printed) {
    console.error('schema.graphql is stale: run `npm run schema` and commit the result.');
    process.exit(1);
  }
  console.log('schema.graphql is up to date.');
} else {
  writeFileSync(target, printed);
  console.log(`wrote ${target}`);
}
