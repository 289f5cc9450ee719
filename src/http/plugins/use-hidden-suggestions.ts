/**
 * Hides "Did you mean …?" hints, which let a client map a schema with introspection off. GraphQL
 * Armor's block-field-suggestions covers the validation messages it knows ("Did you mean "x"?");
 * this also covers the enum form ("Did you mean the enum value …?") and variable coercion errors,
 * which graphql-js raises during execution, after validation.
 */
import { GraphQLError } from 'graphql';
import { withChanges } from '../../graph/errors.js';
import type { Plugin } from 'graphql-yoga';

const SUGGESTION = /\s*Did you mean [^?]*\?/g;
const MASK = ' [Suggestion hidden]';

function hide<E>(error: E): E {
  if (!(error instanceof GraphQLError)) return error;
  const message = error.message.replace(SUGGESTION, MASK);
  if (message === error.message) return error;
  return withChanges(error, { message }) as E;
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
        onExecuteDone({ result, setResult }) {
          if ('errors' in result && result.errors?.length) setResult({ ...result, errors: result.errors.map(hide) });
        },
      };
    },
  };
}
