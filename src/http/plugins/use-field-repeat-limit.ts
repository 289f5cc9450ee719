/**
 * Refuses "field duplication": `{ __typename __typename … ×500 }`. Repeats are legal GraphQL and
 * merge into one result field, but each one costs validation work (field merging compares them
 * pairwise), so a small document can burn CPU. A real client never repeats a field literally in
 * one selection set; fields repeated through fragments sit in different sets and are not counted.
 */
import { GraphQLError, Kind, type ValidationContext, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export function fieldRepeatRule(maxRepeats: number): ValidationRule {
  return (context: ValidationContext) => ({
    SelectionSet(set) {
      const seen = new Map<string, number>();
      for (const selection of set.selections) {
        if (selection.kind !== Kind.FIELD) continue;
        const key = selection.alias?.value ?? selection.name.value;
        const count = (seen.get(key) ?? 0) + 1;
        seen.set(key, count);
        if (count === maxRepeats + 1) {
          context.reportError(
            new GraphQLError(`Field "${key}" is repeated more than ${maxRepeats} time(s) in one selection set.`, {
              nodes: [selection],
              extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'maxFieldRepeats' },
            }),
          );
        }
      }
    },
  });
}

export function useFieldRepeatLimit(maxRepeats: number): Plugin {
  const rule = fieldRepeatRule(maxRepeats);
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(rule);
    },
  };
}
