/**
 * Hides "Did you mean …?" hints, which let a client map a schema with introspection off. GraphQL
 * Armor's block-field-suggestions covers the validation messages it knows ("Did you mean "x"?");
 * this also covers the enum form ("Did you mean the enum value …?") and variable coercion errors,
 * which graphql-js raises during execution, after validation.
 */
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

const SUGGESTION = /\s*Did you mean [^?]*\?/g;
const MASK = ' [Suggestion hidden]';

function hide<E>(error: E): E {
  // `message` is writable on GraphQLError; keeping the same object keeps path, locations, code.
  if (error instanceof GraphQLError) error.message = error.message.replace(SUGGESTION, MASK);
  return error;
}

export function useHiddenSuggestions(): Plugin {
  return {
    onValidate() {
      return ({ valid, result, setResult }) => {
        if (!valid) setResult(result.map(hide));
      };
    },
    onExecute() {
      return {
        onExecuteDone({ result }) {
          if ('errors' in result && result.errors) result.errors.forEach(hide);
        },
      };
    },
  };
}
