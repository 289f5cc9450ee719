/**
 * A validation error about a literal value (a malformed date, a string where a number goes, a missing
 * input field) names the argument it sits in: `extensions.argument` and the message say
 * `filter.startDate` or `input.organizers[0].name`, the way the resolvers' own errors name them.
 * graphql-js reports such an error at the value's location but without the argument's name, which a
 * client would otherwise have to work out from the line and column.
 */
import {
  BREAK,
  GraphQLError,
  isValueNode,
  Kind,
  visit,
  type ASTNode,
  type DocumentNode,
  type ValueNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** The same node, also in a document parsed again from the same text (a cached validation result). */
const same = (a: ASTNode, b: ASTNode) => a === b || (a.kind === b.kind && a.loc?.start === b.loc?.start);

function pathIn(value: ValueNode, at: string, target: ASTNode): string | undefined {
  if (same(value, target)) return at;
  if (value.kind === Kind.OBJECT) {
    for (const field of value.fields) {
      const found = pathIn(field.value, `${at}.${field.name.value}`, target);
      if (found) return found;
    }
  }
  if (value.kind === Kind.LIST) {
    for (const [i, item] of value.values.entries()) {
      const found = pathIn(item, `${at}[${i}]`, target);
      if (found) return found;
    }
  }
  return undefined;
}

/** The argument path of a value node in the document, e.g. `filter.startDate`. */
export function argumentPathOf(document: DocumentNode, target: ASTNode): string | undefined {
  let found: string | undefined;
  visit(document, {
    Argument(node) {
      found = pathIn(node.value, node.name.value, target);
      // Nothing below an argument but its value: stop when found, else skip to the next one.
      return found ? BREAK : false;
    },
  });
  return found;
}

function named(error: GraphQLError, document: DocumentNode): GraphQLError {
  const node = error.nodes?.[0];
  if (!node || !isValueNode(node) || error.extensions?.argument) return error;
  const argument = argumentPathOf(document, node);
  if (!argument) return error;
  return new GraphQLError(`"${argument}": ${error.message}`, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    originalError: error.originalError ?? undefined,
    extensions: { ...error.extensions, argument },
  });
}

export function useArgumentNames(): Plugin {
  return {
    onValidate({ params }) {
      return ({ valid, result, setResult }) => {
        if (!valid) {
          const document = params.documentAST as DocumentNode;
          setResult((result as readonly GraphQLError[]).map((e) => named(e, document)));
        }
      };
    },
  };
}
