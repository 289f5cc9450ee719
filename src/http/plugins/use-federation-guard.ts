/**
 * The subgraph fields `_service` (the whole SDL) and `_entities` (any record by key) are for the
 * federation router. When introspection is off (the production default) they answer only requests
 * carrying the router's shared secret in the `x-federation-secret` header; without a configured secret
 * they are refused, like `__schema`. Refused at validation, so a refused request costs nothing.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { GraphQLError, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';

const ROUTER_FIELDS = new Set(['_service', '_entities']);

export interface FederationGuardOptions {
  /** Introspection allowed: then the SDL is public anyway. */
  introspection: boolean;
  secret?: string;
  header: string;
}

const routerOnlyRule: ValidationRule = (context) => ({
  Field(node) {
    if (
      !ROUTER_FIELDS.has(node.name.value) ||
      context.getParentType()?.name !== context.getSchema().getQueryType()?.name
    )
      return;
    context.reportError(
      new GraphQLError(`"${node.name.value}" answers the federation router only.`, {
        nodes: [node],
        extensions: { code: 'FORBIDDEN' },
      }),
    );
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
      if (options.introspection) return;
      if (isRouter((context as { request?: Request }).request)) return;
      addValidationRule(routerOnlyRule);
    },
  };
}
