/**
 * Compiled execution (graphql-jit) for operations that repeat, answering as graphql-js does: a
 * document is interpreted by graphql-js the first time it is seen and compiled from its second
 * execution on, so a one-off query never pays for a compilation. `test/jit-differential.test.ts`
 * compares both on generated documents; docs/decisions/graphql-jit.md says what stays on graphql-js.
 *
 * Variables are graphql-js's: they are checked by graphql-js's coercion first (variables that do not
 * coerce stay on graphql-js, which words and locates those errors), and a variable left out gets
 * its default in its JSON form, as if the client had sent it: graphql-jit's own coercion ignores
 * the default of a non-null variable (`$first: Int! = 5`). It ignores a non-null input field's
 * default too: a document whose variables' types hold one stays on graphql-js. So does a variable
 * inside an object literal (`input: { name: $n }`) left out without a default: graphql-jit makes it
 * `null`, where graphql-js leaves the field out (and an update keeps its value).
 *
 * Documents with a directive stay on graphql-js: graphql-jit keeps `@skip`/`@include` conditions
 * on the document's nodes, and loses them on fields reached through a fragment inside a conditional
 * field, or mixes them up when one fragment is spread in two places (`{ a: e { ...F @include(if:
 * false) } b: e { ...F } }` loses `b`'s fields); `@defer`/`@stream` are incremental delivery. So do
 * subscriptions, documents with more than one operation, and any document the compiler refuses
 * (logged once). Results are serialised with JSON.stringify, as on graphql-js.
 *
 * One difference is mended after execution: an error gets the nodes of its field in the document
 * (graphql-jit gives only `locations`, which Yoga drops).
 */
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import {
  type GraphQLError,
  type GraphQLInputObjectType,
  type GraphQLType,
  getLocation,
  getNamedType,
  isInputObjectType,
  isNonNullType,
  typeFromAST,
  BREAK,
  OperationTypeNode,
  valueFromASTUntyped,
  visit,
  type DocumentNode,
  type ExecutionArgs,
  type FieldNode,
  type OperationDefinitionNode,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
import type { Plugin } from 'graphql-yoga';
import { withChanges } from '../../graph/errors.js';
import { operationsOf } from './operation-cost.js';
import { graphqlErrors } from './hook-args.js';

/** Executions of a document before it is compiled. */
const COMPILE_AFTER = 1;

type Variables = Record<string, unknown>;

interface Compiled {
  query: CompiledQuery;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** Each variable's default in its JSON form. */
  defaults: [string, unknown][];
  /** Variables inside object literals. */
  inObjects: string[];
  /** The document's field nodes by location, built at the first error. */
  fieldsAt?: Map<string, FieldNode>;
}

interface DocumentState {
  runs: number;
  operation?: OperationDefinitionNode;
  /** undefined: not compiled yet; false: stays on graphql-js. */
  compiled?: Compiled | false;
}

type Log = (message: string, detail: Record<string, unknown>) => void;

export function useJit(log: Log): Plugin {
  const states = new WeakMap<DocumentNode, DocumentState>();

  const compiledFor = (args: ExecutionArgs): Compiled | undefined => {
    let state = states.get(args.document);
    if (!state) {
      const operation = soleOperation(args.document);
      state = { runs: 0, operation, compiled: operation ? undefined : false };
      states.set(args.document, state);
    }
    if (state.compiled === false || state.runs++ < COMPILE_AFTER) return undefined;
    state.compiled ??= compile(args, state.operation!, log);
    return state.compiled || undefined;
  };

  return {
    onExecute({ args, setExecuteFn }) {
      const execution = args as ExecutionArgs;
      const compiled = compiledFor(execution);
      const variables = compiled && variablesFor(compiled, execution);
      if (!compiled || !variables) return;
      setExecuteFn((a: ExecutionArgs) => compiled.query.query(a.rootValue, a.contextValue, variables));
      return {
        onExecuteDone({ result, setResult }) {
          if (!('errors' in result) || !result.errors?.length) return;
          setResult({ ...result, errors: graphqlErrors(result.errors).map((e) => located(e, compiled)) });
        },
      };
    },
  };
}

/** The compiled document, or false when graphql-jit refuses it (logged; it stays on graphql-js). */
function compile(args: ExecutionArgs, operation: OperationDefinitionNode, log: Log): Compiled | false {
  const query = compileQuery(args.schema, args.document, args.operationName ?? undefined, {
    customJSONSerializer: false,
  });
  if (!isCompiledQuery(query)) {
    log('graphql-jit refused an operation; it runs on graphql-js', {
      errors: (query.errors ?? []).map((e) => e.message),
    });
    return false;
  }
  const defs = operation.variableDefinitions ?? [];
  if (defs.some((d) => heldDefault(typeFromAST(args.schema, d.type)))) return false;
  const defaults = defs.flatMap((d): [string, unknown][] =>
    d.defaultValue ? [[d.variable.name.value, valueFromASTUntyped(d.defaultValue)]] : [],
  );
  return { query, document: args.document, operation, defaults, inObjects: variablesInObjects(args.document) };
}

/**
 * The variables graphql-jit is given: the request's, with the defaults of those left out; or
 * undefined where graphql-js must run (see the top of this file).
 */
function variablesFor(compiled: Compiled, args: ExecutionArgs): Variables | undefined {
  const given = args.variableValues ?? {};
  const defs = compiled.operation.variableDefinitions ?? [];
  if (defs.length === 0) return given;
  if (getVariableValues(args.schema, defs, given).errors) return undefined;
  const missing = compiled.defaults.filter(([name]) => !Object.hasOwn(given, name));
  const variables = missing.length ? { ...given, ...Object.fromEntries(missing) } : given;
  return compiled.inObjects.every((name) => Object.hasOwn(variables, name)) ? variables : undefined;
}

/**
 * Whether an input type holds, at any depth, a non-null field with a default: graphql-jit's coercion
 * ignores that default as it does a non-null variable's, so such documents stay on graphql-js.
 */
function heldDefault(type: GraphQLType | undefined, seen = new Set<GraphQLInputObjectType>()): boolean {
  const named = type && getNamedType(type);
  if (!isInputObjectType(named) || seen.has(named)) return false;
  seen.add(named);
  return Object.values(named.getFields()).some(
    (f) => (isNonNullType(f.type) && f.defaultValue !== undefined) || heldDefault(f.type, seen),
  );
}

/** Names of the variables used inside an object literal anywhere in the document. */
function variablesInObjects(document: DocumentNode): string[] {
  const names = new Set<string>();
  let depth = 0;
  visit(document, {
    ObjectValue: {
      enter: () => void depth++,
      leave: () => void depth--,
    },
    Variable(node) {
      if (depth > 0) names.add(node.name.value);
    },
  });
  return [...names];
}

/** The document's one query or mutation, when it has one and no directive (see the top of this file). */
function soleOperation(document: DocumentNode): OperationDefinitionNode | undefined {
  const [operation, ...others] = operationsOf(document);
  if (!operation || others.length > 0 || operation.operation === OperationTypeNode.SUBSCRIPTION) return undefined;
  // No `@` in its text, no directive: the walk below (about 20 µs) is left out for most documents.
  if (document.loc && !document.loc.source.body.includes('@')) return operation;
  let directive = false;
  visit(document, {
    Directive() {
      directive = true;
      return BREAK;
    },
  });
  return directive ? undefined : operation;
}

/**
 * The error with the field nodes it names: graphql-jit sets `locations` (of every field node merged
 * into the failed field) but no `nodes`, and Yoga rebuilds each error from its nodes when it
 * serialises the answer.
 */
function located(error: GraphQLError, compiled: Compiled): GraphQLError {
  if (error.nodes?.length || !error.locations?.length) return error;
  const fieldsAt = (compiled.fieldsAt ??= fieldsByLocation(compiled.document));
  const nodes = error.locations.flatMap((l) => fieldsAt.get(`${l.line}:${l.column}`) ?? []);
  return nodes.length === error.locations.length ? withChanges(error, { nodes }) : error;
}

/** The document's field nodes by where they start (`line:column`). */
function fieldsByLocation(document: DocumentNode): Map<string, FieldNode> {
  const fields = new Map<string, FieldNode>();
  visit(document, {
    Field(node) {
      if (!node.loc) return;
      const { line, column } = getLocation(node.loc.source, node.loc.start);
      fields.set(`${line}:${column}`, node);
    },
  });
  return fields;
}
