/**
 * `npm run schema` writes, from the code (sorted, so diffs only show real changes):
 * - schema.graphql: the schema the endpoint serves;
 * - subgraph.graphql: the federation subgraph SDL a router composes (`_service { sdl }`: the
 *   `@link`, `@key`s and the `@cost`/`@listSize` demand-control directives).
 * `npm run schema:check` fails when a checked-in file differs from what the code prints.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execute, lexicographicSortSchema, parse, printSchema } from 'graphql';
import { schema } from '../src/app/schema.js';

const service = (await execute({ schema, document: parse('{ _service { sdl } }') })) as {
  data?: { _service: { sdl: string } };
};
const files = {
  'schema.graphql': `${printSchema(lexicographicSortSchema(schema))}\n`,
  'subgraph.graphql': `${service.data!._service.sdl.trim()}\n`,
};

let stale = false;
for (const [name, printed] of Object.entries(files)) {
  const target = fileURLToPath(new URL(`../${name}`, import.meta.url));
  if (!process.argv.includes('--check')) {
    writeFileSync(target, printed);
    console.log(`wrote ${target}`);
    continue;
  }
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // a missing file is stale too
  }
  if (current !== printed) {
    console.error(`${name} is stale: run \`npm run schema\` and commit the result.`);
    stale = true;
  }
}
if (stale) process.exit(1);
if (process.argv.includes('--check')) console.log('schema.graphql and subgraph.graphql are up to date.');
