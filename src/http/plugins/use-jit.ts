/**
 * Compiled execution (graphql-jit through envelop's plugin) for operations that repeat: a document
 * is interpreted by graphql-js the first time it is seen and compiled from its second execution on,
 * so a one-off query never pays for a compilation.
 *
 * What stays on graphql-js: subscriptions, `@defer`/`@stream` (incremental delivery), documents with
 * more than one operation (the plugin keys compiled queries by document alone), variables that do
 * not coerce (graphql-js words and locates those errors), and any document the compiler refuses
 * (logged once). Results are serialised with JSON.stringify as before: the compiled serialiser
 * knows only `data` and `errors`, and responses carry `extensions` too.
 *
 * Where a compiled answer differs from graphql-js, it is mended after execution: a nullable field
 * that failed is `null` in `data` (graphql-jit leaves the key out), and an error gets the node of its
 * field in the document (graphql-jit gives only `locations`, which Yoga drops). `test/jit.test.ts` compares the answers.
 */
import { useGraphQlJit } from '@envelop/graphql-jit';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import {
  type GraphQLError,
  Kind,
  OperationTypeNode,
  visit,
  type DocumentNode,
  type ExecutionArgs,
  type FieldNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
import type { Plugin } from 'graphql-yoga';
import { withChanges } from '../../graph/errors.js';
import { fragmentsOf, operationsOf } from './operation-cost.js';

/** Executions of a document before it is compiled. */
const COMPILE_AFTER = 1;

interface DocumentState {
  runs: number;
  operation?: OperationDefinitionNode;
  /** null: not decided yet; false: stays on graphql-js. */
  jit: boolean | null;
}

type Log = (message: string, detail: Record<string, unknown>) => void;

export function useJit(log: Log): Plugin {
  const states = new WeakMap<DocumentNode, DocumentState>();
  /** The executions this plugin handed to graphql-jit, whose answers are mended. */
  const compiled = new WeakSet<ExecutionArgs>();

  const enableIf = (args: ExecutionArgs): boolean => {
    let state = states.get(args.document);
    if (!state) {
      const operation = soleOperation(args.document);
      state = { runs: 0, operation, jit: operation ? null : false };
      states.set(args.document, state);
    }
    if (state.jit === false || state.runs++ < COMPILE_AFTER) return false;
    const defs = state.operation!.variableDefinitions ?? [];
    if (defs.length > 0 && getVariableValues(args.schema, defs, args.variableValues ?? {}).errors) return false;
    if (state.jit === null) {
      // The plugin compiles (and caches by document) once enabled; a refusal there would answer
      // with the compiler's errors, so try here first and keep a refused document on graphql-js.
      const result = compileQuery(args.schema, args.document, args.operationName ?? undefined, {
        customJSONSerializer: false,
      });
      state.jit = isCompiledQuery(result);
      if (!isCompiledQuery(result))
        log('graphql-jit refused an operation; it runs on graphql-js', {
          errors: (result.errors ?? []).map((e) => e.message),
        });
    }
    if (state.jit) compiled.add(args);
    return state.jit;
  };

  return {
    onPluginInit({ addPlugin }) {
      addPlugin(useGraphQlJit({ customJSONSerializer: false }, { enableIf }) as Plugin);
    },
    onExecute({ args }) {
      const execution = args as ExecutionArgs;
      return {
        onExecuteDone({ result, setResult }) {
          if (!compiled.has(execution) || !('errors' in result) || !result.errors?.length) return;
          const operation = states.get(execution.document)?.operation;
          if (!operation) return;
          const errors = (result.errors as readonly GraphQLError[]).map((e) =>
            located(e, execution.document, operation),
          );
          if (result.data) for (const e of errors) nullAt(result.data, e.path);
          setResult({ ...result, errors });
        },
      };
    },
  };
}

/** The document's one query or mutation, when it has one and no incremental delivery. */
function soleOperation(document: DocumentNode): OperationDefinitionNode | undefined {
  const operations = operationsOf(document);
  if (operations.length !== 1 || operations[0]!.operation === OperationTypeNode.SUBSCRIPTION) return undefined;
  // No `@` in its text, no directive: the walk below (about 20 µs) is left out for most documents.
  if (document.loc && !document.loc.source.body.includes('@')) return operations[0];
  let incremental = false;
  visit(document, {
    Directive(node) {
      if (node.name.value === 'defer' || node.name.value === 'stream') incremental = true;
    },
  });
  return incremental ? undefined : operations[0];
}

/**
 * A failed field is present as `null`, as graphql-js answers it: graphql-jit leaves the key out,
 * at the field itself or, when a non-null field failed, at the nullable field it nulled. The first
 * key missing along the error's path is that field.
 */
function nullAt(data: Record<string, unknown>, path: readonly (string | number)[] | undefined): void {
  let parent: unknown = data;
  for (const key of path ?? []) {
    if (parent === null || typeof parent !== 'object') return;
    const record = parent as Record<string | number, unknown>;
    if (record[key] === undefined) {
      record[key] = null;
      return;
    }
    parent = record[key];
  }
}

/**
 * The error with the field node its path names: graphql-jit sets `locations` but no `nodes`, and
 * Yoga rebuilds each error from its nodes when it serialises the answer.
 */
function located(error: GraphQLError, document: DocumentNode, operation: OperationDefinitionNode): GraphQLError {
  if (error.nodes?.length || !error.path) return error;
  const node = fieldAt(document, operation.selectionSet, error.path);
  if (!node) return error;
  return withChanges(error, { nodes: [node] });
}

function fieldAt(
  document: DocumentNode,
  root: SelectionSetNode,
  path: readonly (string | number)[],
): FieldNode | undefined {
  const fragments = fragmentsOf(document);
  const find = (set: SelectionSetNode, key: string): FieldNode | undefined => {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD && (s.alias ?? s.name).value === key) return s;
      const inner =
        s.kind === Kind.INLINE_FRAGMENT
          ? s.selectionSet
          : s.kind === Kind.FRAGMENT_SPREAD
            ? fragments.get(s.name.value)?.selectionSet
            : undefined;
      const found = inner && find(inner, key);
      if (found) return found;
    }
    return undefined;
  };
  let set: SelectionSetNode | undefined = root;
  let node: FieldNode | undefined;
  for (const key of path) {
    if (typeof key === 'number') continue;
    node = set && find(set, key);
    if (!node) return undefined;
    set = node.selectionSet;
  }
  return node;
}
