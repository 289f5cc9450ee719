/**
 * The subgraph fields `_service` (the whole SDL) and `_entities` (any record by key) are for the
 * federation router. When introspection is off (the production default) they answer only requests
 * carrying the router's shared secret in the `x-federation-secret` header; without a configured secret
 * they are refused, like `__schema`. Refused at validation, so a refused request costs nothing.
 * They are never offered to anyone else either: "Did you mean" hints leave them (and their types) out.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { GraphQLError, type ValidationRule } from 'graphql';
import { withChanges } from '../../graph/errors.js';
import type { Plugin } from 'graphql-yoga';
import { graphqlErrors } from './hook-args.js';

const ROUTER_FIELDS = new Set(['_service', '_entities']);
/** What a "Did you mean" hint leaves out: the router's fields and the types only they use. */
const ROUTER_NAMES = new Set([...ROUTER_FIELDS, '_Entity', '_Any', '_Service']);

const SUGGESTION = / Did you mean ((?:"[^"]+"(?:,? or |, )?)+)\?/;

/** graphql-js's wording of a list of suggestions: "a", "a" or "b", "a", "b", or "c". */
function orList(names: string[]): string {
  const quoted = names.map((n) => `"${n}"`);
  if (quoted.length < 3) return quoted.join(' or ');
  return `${quoted.slice(0, -1).join(', ')}, or ${quoted.at(-1)}`;
}

/** The error without the router's names among its suggestions (and without the hint if none is left). */
function withoutRouterNames(error: GraphQLError): GraphQLError {
  const hint = SUGGESTION.exec(error.message);
  if (!hint) return error;
  const names = [...(hint[1] ?? '').matchAll(/"([^"]+)"/g)].flatMap(([, name]) => (name ? [name] : []));
  const kept = names.filter((n) => !ROUTER_NAMES.has(n));
  if (kept.length === names.length) return error;
  const message = error.message.replace(hint[0], kept.length ? ` Did you mean ${orList(kept)}?` : '');
  return withChanges(error, { message });
}

export interface FederationGuardOptions {
  /** Introspection allowed: then the SDL is public anyway. */
  introspection: boolean;
  secret?: string;
  header: string;
}

const routerOnlyRule: ValidationRule = (context) => ({
  Field(node) {
    const name = node.name.value;
    if (!ROUTER_FIELDS.has(name) || context.getParentType()?.name !== context.getSchema().getQueryType()?.name) return;
    const message = `"${name}" answers the federation router only.`;
    context.reportError(new GraphQLError(message, { nodes: [node], extensions: { code: 'FORBIDDEN' } }));
  },
});

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether a request carries the router's secret (false when none is configured). */
export function fromRouter(options: { secret?: string; header: string }): (request: Request | undefined) => boolean {
  const expected = options.secret ? digest(options.secret) : undefined;
  const header = options.header.toLowerCase();
  return (request) => {
    const given = request?.headers.get(header);
    // Compared as digests: constant time, whatever the lengths.
    return Boolean(expected && given && timingSafeEqual(digest(given), expected));
  };
}

export function useFederationGuard(options: FederationGuardOptions): Plugin {
  const isRouter = fromRouter(options);
  return {
    onValidate({ addValidationRule, context }) {
      if (!options.introspection && !isRouter((context as { request?: Request }).request))
        addValidationRule(routerOnlyRule);
      return ({ valid, result, setResult }) => {
        if (!valid) setResult(graphqlErrors(result).map(withoutRouterNames));
      };
    },
  };
}
