/**
 * `npm run lint` (second half): fails when the files under the given folders (default `src/`) import
 * each other in a cycle. Type-only imports count too: import-x/no-cycle skips them, yet a type cycle
 * still means a type has no clear owner. Prints each cycle as `a.ts → b.ts → a.ts`.
 *
 *   tsx scripts/check-cycles.ts [dir...]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** The project's relative imports of one file (`./x.js` is `./x.ts` under NodeNext), type-only ones included. */
function importsOf(file: string, known: Set<string>): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith('.'))
    .flatMap((spec) => {
      const base = resolve(dirname(file), spec);
      const found = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')].find((p) => known.has(p));
      return found ? [found] : [];
    });
}

/** Tarjan's strongly connected components; every component of more than one file (or a self-import) is a cycle. */
export function findCycles(dirs: string[]): string[][] {
  const files = dirs.flatMap((d) => tsFiles(resolve(d)));
  const known = new Set(files);
  const graph = new Map(files.map((f) => [f, importsOf(f, known)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.reverse());
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return cycles;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dirs = process.argv.slice(2);
  const cycles = findCycles(dirs.length > 0 ? dirs : ['src']);
  for (const c of cycles)
    console.error(`import cycle: ${[...c, c[0]!].map((f) => relative(process.cwd(), f)).join(' → ')}`);
  if (cycles.length > 0) process.exit(1);
  console.log(`no import cycles in ${(dirs.length > 0 ? dirs : ['src']).join(', ')}`);
}
