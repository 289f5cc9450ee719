/**
 * Property: whatever document and variables a client sends, the gateway answers over HTTP with a
 * well-formed GraphQL response (never a 5xx, never a masked crash), and leaves no unhandled
 * rejection behind. Documents are generated from the schema itself: random root fields (queries
 * and mutations), random selections, and argument values that are sometimes right, sometimes of
 * the wrong type, sometimes hostile strings; passed as literals or as variables.
 */
import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
} from 'graphql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { schema } from '../src/app/schema.js';
import { startStack, type Stack } from './support/stack.js';
import { until } from './support/wait.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 120);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);

type Gen = fc.GeneratorValue;

const hostileStrings = [
  '',
  ' ',
  '../../etc/passwd',
  '%00',
  "' OR 1=1 --",
  '<script>x</script>',
  '\u0000',
  '😀'.repeat(50),
  'x'.repeat(5000),
  '9'.repeat(40),
  '-1',
  '1e309',
  'null',
];
const idLike = ['1', '37', '0', '-5', '2147483648', '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f', 'not-an-id', 'Zm9v'];

/** Any JSON value: for "wrong type" arguments. */
const anyJson = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string(),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);

/** A value for an input type: usually well-typed, sometimes deliberately not. */
function inputValue(g: Gen, type: GraphQLInputType, depth = 0): unknown {
  if (g(fc.integer, { min: 0, max: 9 }) === 0) return g(() => anyJson);
  const nullable = getNullableType(type);
  if (!isNonNullType(type) && g(fc.integer, { min: 0, max: 5 }) === 0) return null;
  if (isListType(nullable)) {
    const n = g(fc.integer, { min: 0, max: 3 });
    return Array.from({ length: n }, () => inputValue(g, nullable.ofType, depth + 1));
  }
  if (isEnumType(nullable)) {
    const names = nullable.getValues().map((v) => v.name);
    return g(fc.constantFrom, ...names, 'NOT_A_VALUE');
  }
  if (isInputObjectType(nullable)) {
    if (depth > 3) return {};
    const out: Record<string, unknown> = {};
    for (const field of Object.values(nullable.getFields())) {
      if (isNonNullType(field.type) || g(fc.boolean)) out[field.name] = inputValue(g, field.type, depth + 1);
    }
    return out;
  }
  switch (getNamedType(nullable).name) {
    case 'Int':
      return g(() => fc.oneof(fc.integer({ min: -5, max: 600 }), fc.integer()));
    case 'Float':
      return g(fc.double, { noNaN: true, noDefaultInfinity: true });
    case 'Boolean':
      return g(fc.boolean);
    case 'ID':
    case 'UUID':
      return g(() => fc.oneof(fc.constantFrom(...idLike), fc.uuid(), fc.string({ maxLength: 20 })));
    default:
      return g(() =>
        fc.oneof(
          fc.constantFrom(...hostileStrings),
          fc.string({ maxLength: 40 }),
          fc.constantFrom('2027-03-01 18:00:00', '2026-01-05T09:30:00Z'),
        ),
      );
  }
}

/** A selection set for an object type, a few fields deep. */
function selection(g: Gen, type: GraphQLObjectType, depth: number): string {
  // fc.gen compares its arguments structurally, so it gets names, never the (cyclic) schema objects.
  const fields = type.getFields();
  const names = Object.keys(fields);
  const picked = g(fc.subarray, names, { minLength: 1, maxLength: Math.min(4, names.length) }).map((n) => fields[n]!);
  const parts = picked.map((f) => {
    const named = getNamedType(f.type);
    const args = f.args.filter((a) => isNonNullType(a.type) || g(fc.integer, { min: 0, max: 3 }) === 0);
    const literal = args.length
      ? `(${args.map((a) => `${a.name}: ${literalOf(inputValue(g, a.type))}`).join(', ')})`
      : '';
    if (isLeafType(named)) return `${f.name}${literal}`;
    if (!isObjectType(named) || depth >= 3) return `__typename`;
    return `${f.name}${literal} { ${selection(g, named, depth + 1)} }`;
  });
  return [...new Set(parts)].join(' ');
}

/** GraphQL literal syntax for a JSON-ish value (enum-looking strings stay strings: wrong on purpose sometimes). */
function literalOf(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literalOf).join(', ')}]`;
  if (value && typeof value === 'object')
    return `{ ${Object.entries(value)
      .filter(([k]) => /^[_A-Za-z]\w*$/.test(k))
      .map(([k, v]) => `${k}: ${literalOf(v)}`)
      .join(', ')} }`;
  if (typeof value === 'string' && /^[A-Z][A-Z_]+$/.test(value)) return value;
  if (typeof value === 'number' && !Number.isFinite(value)) return '0';
  return JSON.stringify(value) ?? 'null';
}

function operation(g: Gen): { query: string; variables: Record<string, unknown> } {
  if (g(fc.integer, { min: 0, max: 19 }) === 0) return { query: g(fc.string, { maxLength: 200 }), variables: {} };
  const mutation = g(fc.integer, { min: 0, max: 3 }) === 0;
  const root = (mutation ? schema.getMutationType() : schema.getQueryType())!;
  const field: GraphQLField<unknown, unknown> = root.getFields()[g(fc.constantFrom, ...Object.keys(root.getFields()))]!;
  const asVariables = g(fc.boolean);
  const chosen: GraphQLArgument[] = field.args.filter((a) => isNonNullType(a.type) || g(fc.boolean));
  const variables: Record<string, unknown> = {};
  const args = chosen.map((a) => {
    const value = inputValue(g, a.type);
    if (!asVariables) return `${a.name}: ${literalOf(value)}`;
    variables[a.name] = value;
    return `${a.name}: $${a.name}`;
  });
  const defs = asVariables && chosen.length ? `(${chosen.map((a) => `$${a.name}: ${String(a.type)}`).join(', ')})` : '';
  const named = getNamedType(field.type);
  const sel = isObjectType(named) ? ` { ${selection(g, named, 1)} }` : '';
  const query = `${mutation ? 'mutation' : 'query'} Fuzz${defs} { ${field.name}${args.length ? `(${args.join(', ')})` : ''}${sel} }`;
  return { query, variables };
}

let stack: Stack;
let url: string;
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onRejection);
  stack = await startStack({ env: { NODE_ENV: 'production', AUTH_ANONYMOUS: '*', AUDIT_SINK: 'off' } });
  url = await stack.listen();
});
afterAll(() => {
  process.off('unhandledRejection', onRejection);
});

it(`answers ${RUNS} generated operations without a 5xx, a masked crash or an unhandled rejection`, async () => {
  const seen = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(fc.gen(), async (g) => {
      const { query, variables } = operation(g);
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        body: JSON.stringify({ query, variables }),
      });
      seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
      const text = await res.text();
      expect(res.status, `${res.status} for ${query} ${JSON.stringify(variables)}: ${text}`).toBeLessThan(500);
      const body = JSON.parse(text) as { errors?: { message: string; extensions?: { code?: string } }[] };
      for (const error of body.errors ?? []) {
        expect(error.extensions?.code, `uncoded error for ${query}: ${error.message}`).toEqual(expect.any(String));
        expect(error.extensions?.code, `crash for ${query} ${JSON.stringify(variables)}`).not.toBe(
          'INTERNAL_SERVER_ERROR',
        );
      }
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  // Work a request left behind (an upstream call still running) settles first; then one turn of the
  // event loop, after which Node has reported any rejection left unhandled.
  const { governance, calendar } = stack.gateway.upstreams;
  await until(() => [governance, calendar].every((u) => u.limiter.load.running + u.limiter.load.waiting === 0));
  await new Promise((resolve) => setImmediate(resolve));
  expect(rejections).toEqual([]);
  expect(seen.get(200)).toBeGreaterThan(0);
  expect(seen.get(400)).toBeGreaterThan(0);
  const health = await stack.query('{ __typename }');
  expect(health.data).toEqual({ __typename: 'Query' });
}, 60_000);
