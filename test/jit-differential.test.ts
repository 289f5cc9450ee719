/**
 * Differential test of execution (docs/decisions/graphql-jit.md). Documents generated from the
 * schema run several times through the gateway as shipped (the first run on graphql-js, the later
 * ones compiled by graphql-jit) and once through graphql-js's own `execute` on the same schema,
 * resolvers and upstreams: a second gateway over the same emulators, graphql-jit off, graphql-js's
 * `execute` as its executor. Status, data and errors (message, path, locations, extensions) must be
 * the same.
 *
 * The documents cover what graphql-jit handles by itself: variables with and without defaults
 * (non-null ones with a default too), provided, omitted or explicitly null, as arguments and inside
 * object and list literals; lists (a single value for a list variable too) and input objects;
 * `@include`/`@skip` on literals and variables; aliases; fragments and inline fragments, on
 * unions and interfaces; nested lists; federation's `_entities`; and fields that fail (an upstream
 * error status on a list or on a per-item read, a record missing a required field, a bad cursor).
 *
 * Deterministic: a fixed seed; both gateways read the same emulators with their caches off, so both
 * see the same upstream answers and faults (the caches' own paths have tests of their own, and
 * test/jit.test.ts runs compiled answers through the response cache). Error order is not compared:
 * the spec leaves it open, and graphql-js orders errors by when the fields failed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import {
  execute,
  getNamedType,
  getNullableType,
  GraphQLNonNull,
  GraphQLBoolean,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isUnionType,
  parse,
  validate,
  type GraphQLCompositeType,
  type GraphQLEnumType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../src/app/gateway.js';
import { schema } from '../src/app/schema.js';
import { defaultCostModel } from '../src/core/cost-model.js';
import type { UpstreamName } from '../src/core/errors.js';
import type { FaultRule } from '../src/emulators/kit/control.js';
import { startStack, type Stack } from './support/stack.js';

const RUNS = Number(process.env.JIT_DIFF_RUNS ?? 50);
const SEED = Number(process.env.JIT_DIFF_SEED ?? 20_270_041);
/** Runs through the shipped gateway: the first on graphql-js, the next ones compiled. */
const SHIPPED_RUNS = 3;
/** Object levels below a root field. */
const MAX_DEPTH = 3;

type Gen = fc.GeneratorValue;
type Json = Record<string, unknown>;

/** Fields never selected: an answer that changes from one request to the next, and the SDL (large, no resolver of interest). */
const LEFT_OUT = new Set(['Query.budget', 'Query._service']);
/**
 * Types never selected: what the gateway learns from the answers it has read (organizations, link
 * types, stages, attribute options), which differs between two gateways that read different amounts.
 */
const LEARNED = /^(Known[A-Z]|GovernanceOrganization$)/;

/** A fault both gateways meet on the shared emulators while one document runs. */
interface Fault {
  upstream: 'governance' | 'calendar';
  rule: FaultRule;
}
const FAULTS: Fault[] = [
  { upstream: 'governance', rule: { kind: 'status', status: 500, pathPrefix: '/entities' } },
  { upstream: 'governance', rule: { kind: 'status', status: 500, pathPrefix: '/entity-types/' } },
  { upstream: 'governance', rule: { kind: 'drop-field', field: 'name', pathPrefix: '/entities' } },
  { upstream: 'calendar', rule: { kind: 'status', status: 500, pathPrefix: '/venues' } },
  { upstream: 'calendar', rule: { kind: 'status', status: 500, pathPrefix: '/tags' } },
  { upstream: 'calendar', rule: { kind: 'drop-field', field: 'title', pathPrefix: '/events' } },
];

/** Values of the scalars, by argument name where the name says more than the type. */
const STRINGS = ['a', 'e', 'hall'];
const STAGES = ['Development', 'Production'];
const DATE_TIMES = ['2026-01-01T00:00:00Z', '2027-03-01 18:00:00'];
/** Ids read from each upstream before the run (set in beforeAll), and one that names nothing. */
const ids: Record<UpstreamName, string[]> = { governance: [], calendar: [] };
const FEDERATION_SECRET = 'differential-router';

let shipped: Stack;
let shippedUrl: string;
let reference: Gateway;
let referenceServer: Server;
let referenceUrl: string;

/** The reference executor: graphql-js's `execute`, instead of Yoga's and graphql-jit. */
const graphqlJsExecute: Plugin = {
  onExecute({ setExecuteFn }) {
    setExecuteFn(execute);
  },
};

beforeAll(async () => {
  // Production settings: their plugins (masked errors, hidden suggestions) see every answer.
  shipped = await startStack({
    env: {
      NODE_ENV: 'production',
      AUTH_ANONYMOUS: '*',
      AUDIT_SINK: 'off',
      CACHE_MAX_BYTES: '0',
      UPSTREAM_RETRIES: '0',
      FEDERATION_SECRET,
    },
    // The circuit breaker counts failures across requests, and the shipped gateway sends three times
    // as many: it would open there first.
    configure: (config) => ({ ...config, breaker: { ...config.breaker, failures: Number.MAX_SAFE_INTEGER } }),
  });
  shippedUrl = await shipped.listen();
  reference = createGateway({ config: { ...shipped.config, jit: false }, extraPlugins: [graphqlJsExecute] });
  referenceServer = createServer(reference.handler);
  await new Promise<void>((resolve) => referenceServer.listen(0, '127.0.0.1', resolve));
  referenceUrl = `http://127.0.0.1:${(referenceServer.address() as AddressInfo).port}/graphql`;
  const governance = await post(
    referenceUrl,
    '{ entities(first: 3) { nodes { id links(first: 2) { nodes { id } } } } entityTypes(first: 2) { nodes { id } } }',
    {},
  );
  const calendar = await post(
    referenceUrl,
    '{ events(first: 3) { nodes { id venue { id } organizers { id } categories { id } tags { id } } } }',
    {},
  );
  ids.governance = [...new Set([...idsIn(governance.body), '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f'])].sort();
  ids.calendar = [...new Set([...idsIn(calendar.body), '999999'])].sort();
});

afterAll(async () => {
  referenceServer?.closeAllConnections();
  await new Promise((resolve) => referenceServer?.close(resolve));
  await reference?.close();
});

function idsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(idsIn);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k === 'id' && typeof v === 'string' ? [v] : idsIn(v)));
}

/** A valid document and its variables, built from the schema by one generator. */
class DocumentBuilder {
  private readonly definitions: string[] = [];
  readonly variables: Json = {};
  private readonly fragments: string[] = [];
  /** Named fragments by type condition, to spread again elsewhere. */
  private readonly fragmentsOn = new Map<string, string[]>();
  private count = 0;
  /** The upstream of the field whose arguments are being written: which ids fit them. */
  private upstream: UpstreamName = 'governance';
  /** Whether this document may hold `@include`/`@skip` (such documents run on graphql-js alone). */
  readonly conditional: boolean;

  constructor(private readonly g: Gen) {
    this.conditional = this.one(3);
  }

  text(): string {
    const roots = this.pickFields(schema.getQueryType()!, 1, 2).flatMap((f) => this.field(f, 0));
    const defs = this.definitions.length ? `(${this.definitions.join(', ')})` : '';
    return [`query Differential${defs} { ${roots.join(' ')} }`, ...this.fragments].join('\n');
  }

  private one(n: number): boolean {
    return this.g(fc.integer, { min: 0, max: n - 1 }) === 0;
  }

  private pickFields(
    type: GraphQLCompositeType & { getFields(): Record<string, GraphQLField<unknown, unknown>> },
    min: number,
    max: number,
  ) {
    const fields = type.getFields();
    const names = Object.keys(fields).filter(
      (n) => !LEFT_OUT.has(`${type.name}.${n}`) && !LEARNED.test(getNamedType(fields[n]!.type).name),
    );
    // fc.gen compares its arguments structurally: it gets names, never the (cyclic) schema objects.
    return this.g(fc.subarray, names, {
      minLength: Math.min(min, names.length),
      maxLength: Math.min(max, names.length),
    }).map((n) => fields[n]!);
  }

  /**
   * The selections of a field: usually one; sometimes the same field twice (same response key and
   * arguments), each with its own directive and selection, as field merging allows.
   */
  private field(f: GraphQLField<unknown, unknown>, depth: number): string[] {
    const alias = this.one(5) ? `k${++this.count}: ` : '';
    const named = getNamedType(f.type);
    this.upstream = upstreamOf(named.name);
    // Arguments a field takes one of (first or last, id or slug) mostly get the usual one alone.
    const given = f.args.filter((a) => {
      if (isNonNullType(a.type) && a.defaultValue === undefined) return true;
      if (a.name === 'first' || a.name === 'id') return !this.one(8);
      if (a.deprecationReason || a.name === 'last' || a.name === 'slug') return this.one(10);
      if (a.name === 'after' || a.name === 'before') return this.one(40);
      return this.one(4);
    });
    const args = given.map((a) => `${a.name}: ${this.position(a.type, a.name, 0)}`);
    const key = `${alias}${f.name}${args.length ? `(${args.join(', ')})` : ''}`;
    return Array.from({ length: this.one(4) ? 2 : 1 }, () => {
      const head = `${key}${this.directive()}`;
      if (isLeafType(named)) return head;
      if (depth >= MAX_DEPTH) return `${head} { __typename }`;
      return `${head} { ${this.selection(named, depth + 1)} }`;
    });
  }

  private directive(): string {
    if (!this.conditional || !this.one(4)) return '';
    return ` @${this.one(2) ? 'include' : 'skip'}(if: ${this.position(new GraphQLNonNull(GraphQLBoolean), 'if', 0)})`;
  }

  private selection(type: GraphQLCompositeType, depth: number): string {
    if (isUnionType(type)) {
      const members = this.g(
        fc.subarray,
        type.getTypes().map((t) => t.name),
        { minLength: 1, maxLength: 2 },
      );
      return `__typename ${members.map((m) => `... on ${m} { ${this.selection(schema.getType(m) as GraphQLCompositeType, depth)} }`).join(' ')}`;
    }
    const parts = this.pickFields(type, 1, 3).flatMap((f) => this.field(f, depth));
    if (parts.length === 0 || this.one(4)) parts.push('__typename');
    if (isInterfaceType(type) && this.one(2)) {
      const impl = this.g(fc.constantFrom, ...schema.getPossibleTypes(type).map((t) => t.name));
      parts.push(`... on ${impl} { ${this.selection(schema.getType(impl) as GraphQLCompositeType, depth)} }`);
    }
    if (this.one(4)) parts.push(`...${this.one(2) ? ` on ${type.name}` : ''}${this.directive()} { ${parts.shift()} }`);
    const known = this.fragmentsOn.get(type.name) ?? [];
    if (known.length && this.one(3)) parts.push(`...${this.g(fc.constantFrom, ...known)}${this.directive()}`);
    else if (this.one(5)) {
      const name = `F${++this.count}`;
      this.fragments.push(`fragment ${name} on ${type.name} { ${this.selection(type, depth)} }`);
      this.fragmentsOn.set(type.name, [...known, name]);
      parts.push(`...${name}${this.directive()}`);
    }
    return parts.join(' ');
  }

  /** The text at a value position of `type`: a literal, a variable, or a list or object literal holding either. */
  private position(type: GraphQLInputType, name: string, depth: number): string {
    if (this.one(3)) return this.variable(type, name);
    const inner = getNullableType(type);
    if (depth < 2 && isListType(inner) && this.one(2)) {
      const n = this.g(fc.integer, { min: 1, max: 2 });
      return `[${Array.from({ length: n }, () => this.position(inner.ofType, name, depth + 1)).join(', ')}]`;
    }
    if (depth < 2 && isInputObjectType(inner) && this.one(2)) {
      const fields = Object.values(inner.getFields()).filter(
        (f) => (isNonNullType(f.type) && f.defaultValue === undefined) || this.one(2),
      );
      return `{ ${fields.map((f) => `${f.name}: ${this.position(f.type, f.name, depth + 1)}`).join(', ')} }`;
    }
    return literal(type, this.json(type, name, depth));
  }

  /**
   * A variable for a position of `type`: of that type or, where it is nullable, of its non-null
   * form; with a default or not; provided, explicitly null or left out, as far as its type allows.
   */
  private variable(type: GraphQLInputType, name: string): string {
    const variableType = !isNonNullType(type) && this.one(2) ? new GraphQLNonNull(type) : type;
    const variable = `v${++this.count}`;
    const withDefault = this.one(2);
    const defaultText = withDefault ? ` = ${literal(variableType, this.json(variableType, name, 0))}` : '';
    this.definitions.push(`$${variable}: ${String(variableType)}${defaultText}`);
    const choice = this.g(fc.integer, { min: 0, max: 2 });
    const nullable = !isNonNullType(variableType);
    if (choice === 1 && (nullable || withDefault)) return `$${variable}`; // left out
    this.variables[variable] = choice === 2 && nullable ? null : this.json(variableType, name, 0, true);
    return `$${variable}`;
  }

  /** A valid value of `type` in its JSON (variable) form; `loose`: a single item may stand for a list, as coercion allows. */
  private json(type: GraphQLInputType, name: string, depth: number, loose = false): unknown {
    if (!isNonNullType(type) && this.one(6)) return null;
    const inner = getNullableType(type);
    if (isListType(inner)) {
      if (loose && this.one(4)) return this.json(inner.ofType, name, depth + 1);
      const n = this.g(fc.integer, { min: 0, max: 2 });
      return Array.from({ length: n }, () => this.json(inner.ofType, name, depth + 1));
    }
    if (isInputObjectType(inner)) {
      const out: Json = {};
      for (const f of Object.values(inner.getFields()))
        if ((isNonNullType(f.type) && f.defaultValue === undefined) || (depth < 2 && this.one(2)))
          out[f.name] = this.json(f.type, f.name, depth + 1);
      return out;
    }
    if (isEnumType(inner)) return this.g(fc.constantFrom, ...enumNames(inner));
    return this.scalar(inner.name, name);
  }

  private scalar(type: string, name: string): unknown {
    switch (type) {
      case 'Int':
        return this.g(fc.integer, { min: name === 'first' || name === 'last' ? 1 : 0, max: 3 });
      case 'Float':
        return this.g(fc.constantFrom, 0.5, 2);
      case 'Boolean':
        return this.g(fc.boolean);
      case 'ID':
      case 'UUID':
        return this.g(fc.constantFrom, ...ids[this.upstream]);
      case '_Any': {
        const typename = this.g(fc.constantFrom, ...entityTypes());
        return { __typename: typename, id: this.g(fc.constantFrom, ...ids[upstreamOf(typename)]) };
      }
      case 'DateTime':
        return this.g(fc.constantFrom, ...DATE_TIMES);
      case 'Date':
        return '2027-03-01';
      default:
        if (name === 'after' || name === 'before') return 'not-a-cursor';
        return this.g(fc.constantFrom, ...(name === 'stage' || name === 'stages' ? STAGES : STRINGS));
    }
  }
}

/** The upstream that serves a type, as the cost model has it. */
function upstreamOf(typeName: string): UpstreamName {
  const model = defaultCostModel;
  return model.typeUpstreams.find((t) => typeName.startsWith(t.prefix))?.upstream ?? model.defaultUpstream;
}

function enumNames(type: GraphQLEnumType): string[] {
  return type
    .getValues()
    .filter((v) => !v.deprecationReason)
    .map((v) => v.name);
}

function entityTypes(): string[] {
  const union = schema.getType('_Entity');
  return union && isUnionType(union) ? union.getTypes().map((t) => t.name) : [];
}

/** The GraphQL literal of a JSON value of `type` (enum values bare, input object keys unquoted). */
function literal(type: GraphQLInputType, value: unknown): string {
  if (value === null) return 'null';
  const inner = getNullableType(type);
  if (isListType(inner))
    return Array.isArray(value)
      ? `[${value.map((v) => literal(inner.ofType, v)).join(', ')}]`
      : literal(inner.ofType, value);
  if (isInputObjectType(inner)) {
    const fields = inner.getFields();
    return `{ ${Object.entries(value as Json)
      .map(([k, v]) => `${k}: ${literal(fields[k]!.type, v)}`)
      .join(', ')} }`;
  }
  if (isEnumType(inner)) return String(value);
  if (value && typeof value === 'object')
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
      .join(', ')} }`;
  return JSON.stringify(value);
}

interface Answer {
  status: number;
  body: { data?: unknown; errors?: Json[]; extensions?: Json };
}

async function post(url: string, query: string, variables: Json): Promise<Answer> {
  // Federation's `_entities` answers the router only: the documents that select it come as the router's.
  const router: Record<string, string> = query.includes('_entities')
    ? { 'x-federation-secret': FEDERATION_SECRET }
    : {};
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...router },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

/**
 * What must be the same: status, data and errors (in any order), each with its message, path,
 * extensions and locations; not `extensions.cost` (calls differ by run). A field asked for in
 * several places of a document (merged fields) has one location for each: graphql-jit lists them
 * in another order than graphql-js (fragments first), and the spec gives the list no order, so they
 * are compared as a set.
 */
function outcome({ status, body }: Answer) {
  type Place = { line: number; column: number };
  const byPlace = (a: Place, b: Place) => a.line - b.line || a.column - b.column;
  const errors = (body.errors ?? []).map(({ message, path, locations, extensions }) => ({
    message,
    path,
    locations: Array.isArray(locations) ? [...(locations as Place[])].sort(byPlace) : locations,
    extensions,
  }));
  errors.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return { status, data: body.data, errors };
}

function setFault(fault: Fault | undefined): void {
  shipped.governance.control.clearFaults();
  shipped.calendar.control.clearFaults();
  if (fault) shipped[fault.upstream].control.setFaults([fault.rule]);
}

it(`${RUNS} generated documents answer through graphql-jit as through graphql-js`, async () => {
  const seen = { compiled: 0, errors: 0, variables: 0 };
  await fc.assert(
    fc.asyncProperty(fc.gen(), async (g) => {
      const builder = new DocumentBuilder(g);
      const query = builder.text();
      const { variables } = builder;
      fc.pre(validate(schema, parse(query)).length === 0);
      const fault = g(fc.integer, { min: 0, max: 2 }) === 0 ? g(fc.constantFrom, ...FAULTS) : undefined;
      setFault(fault);
      try {
        const expected = outcome(await post(referenceUrl, query, variables));
        for (let run = 1; run <= SHIPPED_RUNS; run++) {
          const got = outcome(await post(shippedUrl, query, variables));
          expect(
            got,
            `run ${run} of ${query}\nvariables ${JSON.stringify(variables)}\nfault ${JSON.stringify(fault)}`,
          ).toEqual(expected);
        }
        if (!builder.conditional) seen.compiled++;
        if (expected.errors.length) seen.errors++;
        if (query.startsWith('query Differential(')) seen.variables++;
      } finally {
        setFault(undefined);
      }
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  // The generator reached the documents it is for: most run compiled (the conditional ones stay on
  // graphql-js), most declare variables, and a good share fail somewhere.
  expect(seen.compiled).toBeGreaterThan(RUNS / 2);
  expect(seen.variables).toBeGreaterThan(RUNS / 2);
  expect(seen.errors).toBeGreaterThan(RUNS / 10);
}, 120_000);
