/**
 * The request-hardening plugins, all driven by `config.security` (production defaults are strict,
 * see `src/config/config.ts`): GraphQL Armor's parse/validation limits, the introspection policy, hidden
 * suggestions and the federation router's own fields (CSRF prevention runs at the door, with
 * authentication: http/authenticate.ts). Everything here refuses a request before any resolver
 * runs, so a refused request never costs an upstream call.
 */
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import type { GraphQLArmorRejectCallback } from '@escape.tech/graphql-armor-types';
import { GraphQLError } from 'graphql';
import { withChanges } from '../../graph/errors.js';
import type { Plugin } from 'graphql-yoga';
import type { SecurityConfig } from '../../config/config.js';
import { useFieldRepeatLimit } from './use-field-repeat-limit.js';
import { useHiddenSuggestions } from './use-hidden-suggestions.js';
import { useIntrospectionGuard } from './use-introspection-guard.js';
import { useFederationGuard } from './use-federation-guard.js';
import { graphqlErrors } from './hook-args.js';

export function securityPlugins(security: SecurityConfig): Plugin[] {
  const plugins: Plugin[] = [
    EnvelopArmorPlugin({
      // Armor throws "Syntax Error: …" from inside validation; reporting instead keeps the other
      // validation errors, gives a code, and names the limit hit.
      maxDepth: { n: security.maxDepth, flattenFragments: true, ...reject('maxDepth') },
      // An empty allow-list: `__typename` aliases count too (else `a1: __typename … a9999: __typename`).
      maxAliases: { n: security.maxAliases, allowList: [], ...reject('maxAliases') },
      maxDirectives: { n: security.maxDirectives, ...reject('maxDirectives') },
      // Off: the cost of an operation is the upstream-aware estimate of use-operation-budget.ts, the
      // same for literals and variables; a second, static estimate would disagree with it.
      costLimit: { enabled: false },
      // Counted while parsing, so a huge document is dropped before it is even a tree.
      maxTokens: { n: security.maxTokens },
      blockFieldSuggestion: { enabled: !security.fieldSuggestions },
    }),
    useFieldRepeatLimit(security.maxFieldRepeats),
    useIntrospectionGuard({ allowed: security.introspection }),
    useFederationGuard({
      introspection: security.introspection,
      secret: security.federationSecret,
      header: security.federationSecretHeader,
    }),
    useValidationCodes(),
    useErrorLimit(security.maxErrors),
  ];
  if (!security.fieldSuggestions) plugins.push(useHiddenSuggestions());
  return plugins;
}

/**
 * Past a limit, validation stops at once: the limit's error is thrown from inside the validation
 * visit (Armor checks when it enters the operation), so the client gets that one error, coded and
 * naming the limit, and the server spends nothing on validating the rest (e.g. 50 unknown
 * directives give one error, not 51).
 */
function reject(limit: string): { propagateOnRejection: false; onReject: GraphQLArmorRejectCallback[] } {
  return {
    propagateOnRejection: false,
    onReject: [
      (_context, error) => {
        throw new GraphQLError(error.message.replace(/^Syntax Error: /, ''), {
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit, http: { status: 400 } },
        });
      },
    ],
  };
}

/**
 * At most `max` errors in one response (a document can be written to fail many fields): the first
 * `max - 1` are kept and the last says how many were left out.
 */
function useErrorLimit(max: number): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result || !result.errors || result.errors.length <= max)
        return;
      const dropped = result.errors.length - (max - 1);
      const summary = new GraphQLError(`${dropped} more errors were left out of this response.`, {
        extensions: { code: 'TOO_MANY_ERRORS', omitted: dropped },
      });
      setResult({ ...result, errors: [...result.errors.slice(0, max - 1), summary] });
    },
  };
}

/** graphql-js stops validating a document past its work budget with a bare "Validation aborted." */
function explainAbort(error: GraphQLError): GraphQLError {
  return error.message === 'Validation aborted.'
    ? new GraphQLError(
        'Validation aborted: the document is too expensive to validate (too many repeated or overlapping fields).',
      )
    : error;
}

/**
 * Identical validation errors become one, with every location (ten unknown `@aa` directives give one
 * "Unknown directive" error, not ten): a client learns the same from one, and a probe cannot multiply
 * the response.
 */
function collapse(errors: readonly GraphQLError[]): GraphQLError[] {
  const byMessage = new Map<string, GraphQLError[]>();
  for (const e of errors) byMessage.set(e.message, [...(byMessage.get(e.message) ?? []), e]);
  return [...byMessage.values()].map((same) => {
    const [first] = same as [GraphQLError, ...GraphQLError[]];
    if (same.length === 1) return first;
    return new GraphQLError(first.message, {
      nodes: same.flatMap((e) => e.nodes ?? []),
      source: first.source,
      extensions: { ...first.extensions, occurrences: same.length },
    });
  });
}

/**
 * Every error a client sees carries `extensions.code`: parse errors (including the token limit)
 * become GRAPHQL_PARSE_FAILED, validation errors GRAPHQL_VALIDATION_FAILED (Apollo's names), and
 * request errors raised before parsing without a code BAD_REQUEST, as Yoga codes its own.
 */
function useValidationCodes(): Plugin {
  const withCode = (error: GraphQLError, code: string) =>
    error.extensions?.code ? error : withChanges(error, { extensions: { ...error.extensions, code } });
  return {
    onParse() {
      return ({ result, replaceParseResult }) => {
        if (result instanceof GraphQLError) replaceParseResult(withCode(result, 'GRAPHQL_PARSE_FAILED'));
      };
    },
    onValidate() {
      return ({ valid, result, setResult }) => {
        if (!valid)
          setResult(collapse(graphqlErrors(result)).map((e) => withCode(explainAbort(e), 'GRAPHQL_VALIDATION_FAILED')));
      };
    },
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result || !result.errors?.length) return;
      if (result.errors.every((e) => e.extensions?.code)) return;
      // `extensions.http` (the 403) stays: Yoga reads the status from it after this hook.
      setResult({ ...result, errors: result.errors.map((e) => withCode(e, 'BAD_REQUEST')) });
    },
  };
}
