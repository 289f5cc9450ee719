/**
 * `npm run type-debt`: the `as` casts (other than `as const`; `<T>x` too) and non-null assertions
 * (`x!`) in gateway code, per file and in total. Gateway code is `src/` without the emulators and
 * `src/generated/`. test/type-debt.test.ts holds the totals at or below `TYPE_DEBT_CAPS`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * Issue #45 asks for at most 139 casts and 91 non-null assertions. Non-null assertions are there;
 * casts are held where they stand now and lowered as each goes, down to 139.
 */
export const TYPE_DEBT_CAPS = { casts: 166, nonNull: 91 };
export const CAST_TARGET = 139;

export interface FileDebt {
  file: string;
  casts: number;
  nonNull: number;
}

const root = fileURLToPath(new URL('../', import.meta.url));
const notGateway = /^src\/(generated|emulators)\//;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const isAsConst = (node: ts.AssertionExpression) =>
  ts.isTypeReferenceNode(node.type) && node.type.typeName.getText() === 'const';

/** The casts and non-null assertions of one source text. */
export function debtOf(file: string, text: string): FileDebt {
  const debt = { file, casts: 0, nonNull: 0 };
  const visit = (node: ts.Node): void => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !isAsConst(node)) debt.casts++;
    else if (ts.isNonNullExpression(node)) debt.nonNull++;
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
  return debt;
}

/** Every gateway file that has any, most first. */
export function gatewayDebt(): FileDebt[] {
  return sources(join(root, 'src'))
    .map((path) => relative(root, path).replaceAll('\\', '/'))
    .filter((file) => !notGateway.test(file))
    .map((file) => debtOf(file, readFileSync(join(root, file), 'utf8')))
    .filter((d) => d.casts + d.nonNull > 0)
    .sort((a, b) => b.casts + b.nonNull - (a.casts + a.nonNull) || a.file.localeCompare(b.file));
}

export const totalOf = (debts: FileDebt[]) => ({
  casts: debts.reduce((n, d) => n + d.casts, 0),
  nonNull: debts.reduce((n, d) => n + d.nonNull, 0),
});

if (import.meta.main) {
  const debts = gatewayDebt();
  const width = Math.max(...debts.map((d) => d.file.length), 'total'.length);
  console.log(`${'file'.padEnd(width)}  casts  non-null`);
  for (const d of debts)
    console.log(`${d.file.padEnd(width)}  ${String(d.casts).padStart(5)}  ${String(d.nonNull).padStart(8)}`);
  const total = totalOf(debts);
  console.log(`${'total'.padEnd(width)}  ${String(total.casts).padStart(5)}  ${String(total.nonNull).padStart(8)}`);
  console.log(
    `caps: ${TYPE_DEBT_CAPS.casts} casts (target ${CAST_TARGET}), ${TYPE_DEBT_CAPS.nonNull} non-null assertions`,
  );
}
