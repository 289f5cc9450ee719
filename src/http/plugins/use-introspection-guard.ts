/**
 * Introspection policy. Off (production default): any `__schema`/`__type` is refused at validation;
 * `__typename` stays allowed. On (development, or explicitly enabled): the "circular introspection"
 * attack (`__schema { types { fields { type { fields { … } } } } }`) is still refused, by graphql-js's
 * MaxIntrospectionDepthRule, part of its specified rules since 16.9 and so of every validation Yoga runs.
 *
 * Matched by name: every introspection type is only reachable through these two meta-fields.
 */
import { GraphQLError, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';

const META_FIELDS = new Set(['__schema', '__type']);

export const noIntrospectionRule: ValidationRule = (context) => ({
  Field(node) {
    if (!META_FIELDS.has(node.name.value)) return;
    const message = `GraphQL introspection is disabled on this server, but the query asked for "${node.name.value}".`;
    context.reportError(
      new GraphQLError(message, { nodes: [node], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }),
    );
  },
});

export function useIntrospectionGuard(options: { allowed: boolean }): Plugin {
  return {
    onValidate({ addValidationRule }) {
      if (!options.allowed) addValidationRule(noIntrospectionRule);
    },
  };
}
