/**
 * The operations the tests send, by name: the headline ones from src/operations/ (the one copy the
 * bench and GraphiQL use too) and the rest from test/operations/. Each is printed alone (its
 * fragments, if any, appended), as a client would send it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Kind,
  parse,
  print,
  type DefinitionNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from 'graphql';

const DIR = fileURLToPath(new URL('../operations/', import.meta.url));
const DIRS = [fileURLToPath(new URL('../../src/operations/', import.meta.url)), DIR];

function definitions(): readonly DefinitionNode[] {
  return DIRS.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.graphql'))
      .sort()
      .flatMap((f) => parse(readFileSync(join(dir, f), 'utf8')).definitions),
  );
}

let cache: { operations: Map<string, OperationDefinitionNode>; fragments: FragmentDefinitionNode[] } | undefined;
function load() {
  if (!cache) {
    const defs = definitions();
    const operations = new Map<string, OperationDefinitionNode>();
    for (const d of defs) {
      if (d.kind !== Kind.OPERATION_DEFINITION || !d.name) continue;
      if (operations.has(d.name.value))
        throw new Error(`operation ${d.name.value} is defined twice in src/operations and test/operations`);
      operations.set(d.name.value, d);
    }
    cache = {
      operations,
      fragments: defs.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION),
    };
  }
  return cache;
}

/** Names of the operations in one file of test/operations (e.g. `governance`). */
export function operationNames(file: 'governance' | 'calendar'): string[] {
  return parse(readFileSync(join(DIR, `${file}.graphql`), 'utf8')).definitions.flatMap((d) =>
    d.kind === Kind.OPERATION_DEFINITION && d.name ? [d.name.value] : [],
  );
}

/** The text of one operation, ready to send. */
export function operation(name: string): string {
  const { operations, fragments } = load();
  const op = operations.get(name);
  if (!op) throw new Error(`no operation ${name} in src/operations or test/operations`);
  const text = print(op);
  const used = fragments.filter((f) => text.includes(`...${f.name.value}`));
  return [text, ...used.map((f) => print(f))].join('\n\n');
}
