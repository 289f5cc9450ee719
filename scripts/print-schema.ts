/**
 * `npm run schema` writes schema.graphql, the schema the endpoint serves, from the code (sorted, so
 * diffs only show real changes); `npm run schema:check` fails when the checked-in file differs.
 * `npm run -s schema -- --subgraph` prints the federation subgraph SDL a router composes instead
 * (`_service { sdl }`: the `@link`, `@key`s, `@requiresScopes` and the `@cost`/`@listSize` directives)
 * on stdout; with `--without-requires-scopes` the form for `@apollo/gateway` (what `_service` answers
 * under FEDERATION_REQUIRES_SCOPES=false). It is not checked in, since it repeats schema.graphql.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execute, lexicographicSortSchema, parse, printSchema } from 'graphql';
import { schema } from '../src/app/schema.js';

if (process.argv.includes('--subgraph')) {
  const contextValue = { sdlRequiresScopes: !process.argv.includes('--without-requires-scopes') };
  const service = (await execute({ schema, document: parse('{ _service { sdl } }'), contextValue })) as {
    data?: { _service: { sdl: string } };
  };
  process.stdout.write(`${service.data!._service.sdl.trim()}\n`);
  process.exit(0);
}

const printed = `${printSchema(lexicographicSortSchema(schema))}\n`;
const target = fileURLToPath(new URL('../schema.graphql', import.meta.url));
if (!process.argv.includes('--check')) {
  writeFileSync(target, printed);
  console.log(`wrote ${target}`);
} else if (readFileSync(target, 'utf8') !== printed) {
  console.error('schema.graphql is stale: run `npm run schema` and commit the result.');
  process.exit(1);
} else console.log('schema.graphql is up to date.');
