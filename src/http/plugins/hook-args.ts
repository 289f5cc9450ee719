/**
 * Typed views of what envelop hands the plugins' hooks. Envelop types execution arguments and
 * validation results as `any`, since it works with any graphql-js; Yoga passes graphql-js's own, and
 * the gateway serves it from node:http, so a request's server context holds its `req`.
 */
import { IncomingMessage } from 'node:http';
import type { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';
import type { Context } from '../../graph/context.js';

/** The gateway's context as Yoga completes it: the fetch request, and node's message under it. */
export type YogaContext = Context & { request: Request; req?: IncomingMessage };

export interface ExecutionView {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: Record<string, unknown> | null;
  contextValue: YogaContext;
}

interface EnvelopArgs {
  schema: unknown;
  document: unknown;
  operationName?: unknown;
  variableValues?: unknown;
  contextValue: unknown;
}

/** An execution's arguments, typed. */
export function executionOf(args: EnvelopArgs): ExecutionView {
  // Yoga builds every context from its initial one, which holds the request.
  return args as ExecutionView;
}

/** Errors of a validation or an execution result, which envelop declares `any[]`. */
export const graphqlErrors = (errors: unknown): readonly GraphQLError[] =>
  // graphql-js's validate and execute produce GraphQLErrors, and so do the plugins before these.
  errors as readonly GraphQLError[];

/** The document a validation checks (envelop declares it `any`). */
export const validatedDocument = (params: { documentAST: unknown }): DocumentNode =>
  // Yoga validates the document it parsed with graphql-js.
  params.documentAST as DocumentNode;

/** The incoming message of a request's server context (`yoga.fetch(request, { req, res })`). */
export function incomingOf(serverContext: unknown): IncomingMessage | undefined {
  if (typeof serverContext !== 'object' || serverContext === null || !('req' in serverContext)) return undefined;
  return serverContext.req instanceof IncomingMessage ? serverContext.req : undefined;
}
