/**
 * A validation error about a literal value (a malformed date, a string where a number goes, a missing
 * input field) names the argument it sits in: `extensions.argument` and the message say
 * `filter.startDate` or `input.organizers[0].name`, the way the resolvers' own errors name them.
 * graphql-js reports such an error at the value's location but without the argument's name, which a
 * client would otherwise have to work out from the line and column. A variable's invalid value
 * (reported at its definition) names the argument too, when the variable is used in one only.
 */
import {
  BREAK,
  type GraphQLError,
  isValueNode,
  Kind,
  visit,
  type ASTNode,
  type DocumentNode,
  type ValueNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { withChanges } from '../../graph/errors.js';
import { executionOf, graphqlErrors, validatedDocument } from './hook-args.js';

/** The same node, also in a document parsed again from the same text (a cached validation result). */
const same = (a: ASTNode, b: ASTNode) => a === b || (a.kind === b.kind && a.loc?.start === b.loc?.start);

/** The paths (`filter.startDate`, `input.organizers[0].name`) of the values in an argument that `match`. */
function pathsIn(value: ValueNode, at: string, match: (node: ValueNode) => boolean, into: string[]): string[] {
  if (match(value)) into.push(at);
  if (value.kind === Kind.OBJECT)
    for (const field of value.fields) pathsIn(field.value, `${at}.${field.name.value}`, match, into);
  if (value.kind === Kind.LIST) value.values.forEach((item, i) => pathsIn(item, `${at}[${i}]`, match, into));
  return into;
}

/** Where in the document's arguments values that `match` sit; `first` stops at the first. */
function argumentPaths(document: DocumentNode, match: (node: ValueNode) => boolean, first = false): string[] {
  const found: string[] = [];
  visit(document, {
    Argument(node) {
      pathsIn(node.value, node.name.value, match, found);
      // Nothing below an argument but its value: the visit skips it.
      return first && found.length ? BREAK : false;
    },
  });
  return found;
}

/** The argument path of a value node in the document, e.g. `filter.startDate`. */
export const argumentPathOf = (document: DocumentNode, target: ASTNode): string | undefined =>
  argumentPaths(document, (node) => same(node, target), true)[0];

const INVALID_VARIABLE = /^Variable "\$(\w+)" got invalid value/;

/** The argument the error is about: where its literal sits, or where its variable is used (once). */
function argumentOf(error: GraphQLError, document: DocumentNode): string | undefined {
  const node = error.nodes?.[0];
  if (node && isValueNode(node)) return argumentPathOf(document, node);
  const variable = INVALID_VARIABLE.exec(error.message)?.[1];
  if (!variable) return undefined;
  const uses = argumentPaths(document, (n) => n.kind === Kind.VARIABLE && n.name.value === variable);
  return uses.length === 1 ? uses[0] : undefined;
}

function named(error: GraphQLError, document: DocumentNode): GraphQLError {
  if (error.extensions?.argument) return error;
  const argument = argumentOf(error, document);
  if (!argument) return error;
  return withChanges(error, {
    message: `"${argument}": ${error.message}`,
    extensions: { ...error.extensions, argument },
  });
}

export function useArgumentNames(): Plugin {
  return {
    onValidate({ params }) {
      return ({ valid, result, setResult }) => {
        const document = validatedDocument(params);
        if (!valid) setResult(graphqlErrors(result).map((e) => named(e, document)));
      };
    },
    onExecute({ args }) {
      return {
        onExecuteDone({ result, setResult }) {
          // Variables are coerced before anything runs: their errors come back without a path.
          if (!('errors' in result) || !result.errors) return;
          const errors = graphqlErrors(result.errors);
          if (!errors.some((e) => !e.path)) return;
          const { document } = executionOf(args);
          setResult({ ...result, errors: errors.map((e) => (e.path ? e : named(e, document))) });
        },
      };
    },
  };
}
