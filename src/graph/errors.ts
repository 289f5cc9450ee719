/**
 * GraphQL errors of the gateway: every error a client sees has an `extensions.code`. Upstream
 * failures are mapped here (the adapters throw `UpstreamError`, which knows nothing of GraphQL), and
 * anything unexpected is masked so no stack, URL or credential reaches a client.
 */
import { GraphQLError } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import {
  InputError,
  isUpstreamError,
  withoutFrames,
  type UpstreamError,
  type UpstreamErrorKind,
} from '../core/errors.js';

export const ErrorCode = {
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  GONE: 'GONE',
  RATE_LIMITED: 'RATE_LIMITED',
  REQUEST_BUDGET_EXCEEDED: 'REQUEST_BUDGET_EXCEEDED',
  UPSTREAM_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
  /** A write may have been applied but its answer never came: re-read before retrying. */
  UPSTREAM_OUTCOME_UNKNOWN: 'UPSTREAM_OUTCOME_UNKNOWN',
  /** A precondition (`expectedVersion`) no longer holds, or an idempotency key is still in use. */
  CONFLICT: 'CONFLICT',
  /** Other writes to the same record kept it locked for longer than a write may wait. */
  RECORD_BUSY: 'RECORD_BUSY',
  UPSTREAM_CONTRACT: 'UPSTREAM_CONTRACT',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** A client mistake found before any upstream call; `argument` names the offending argument. */
export function badInput(message: string, argument?: string): GraphQLError {
  return createGraphQLError(message, {
    extensions: { code: ErrorCode.BAD_USER_INPUT, ...(argument ? { argument } : {}) },
  });
}

const codeByKind: Record<UpstreamErrorKind, ErrorCode> = {
  'bad-request': ErrorCode.BAD_USER_INPUT,
  'not-found': ErrorCode.NOT_FOUND,
  unauthenticated: ErrorCode.UNAUTHENTICATED,
  forbidden: ErrorCode.FORBIDDEN,
  gone: ErrorCode.GONE,
  'rate-limited': ErrorCode.RATE_LIMITED,
  'budget-exceeded': ErrorCode.REQUEST_BUDGET_EXCEEDED,
  unavailable: ErrorCode.UPSTREAM_UNAVAILABLE,
  'outcome-unknown': ErrorCode.UPSTREAM_OUTCOME_UNKNOWN,
  busy: ErrorCode.RECORD_BUSY,
  contract: ErrorCode.UPSTREAM_CONTRACT,
};

/** An adapter's `InputError`: BAD_USER_INPUT naming the argument, or CONFLICT with the record's current version. */
function inputToGraphQLError(error: InputError, located?: GraphQLError): GraphQLError {
  const extensions: Record<string, unknown> = {
    code: error.currentVersion === undefined ? ErrorCode.BAD_USER_INPUT : ErrorCode.CONFLICT,
  };
  if (error.argument) extensions.argument = error.argument;
  if (error.currentVersion !== undefined) extensions.currentVersion = error.currentVersion;
  return at(error.message, located, extensions);
}

export function upstreamToGraphQLError(error: UpstreamError, located?: GraphQLError): GraphQLError {
  const extensions: Record<string, unknown> = { code: codeByKind[error.kind], upstream: error.upstream };
  if (error.status !== undefined) extensions.upstreamStatus = error.status;
  if (error.upstreamCode) extensions.upstreamCode = error.upstreamCode;
  if (error.argument) extensions.argument = error.argument;
  if (error.params?.length) extensions.arguments = error.params;
  if (error.retryAfter !== undefined) extensions.retryAfter = error.retryAfter;
  if (error.missingScope) extensions.missingScope = error.missingScope;
  if (error.kind === 'outcome-unknown') extensions.applied = error.applied === true ? true : 'unknown';
  if (error.field) extensions.field = error.field;
  // Kept as the original error (never serialized): the request log reads its `detail`.
  return at(error.message, located, extensions, error);
}

/**
 * Yoga's `maskedErrors.maskError`: upstream errors become typed errors on the field they hit;
 * GraphQL errors we raised on purpose pass through; anything else is masked.
 */
export function maskError(error: unknown, message: string, isDev?: boolean): Error {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (isUpstreamError(original)) {
    return upstreamToGraphQLError(original, error instanceof GraphQLError ? error : undefined);
  }
  if (original instanceof InputError)
    return inputToGraphQLError(original, error instanceof GraphQLError ? error : undefined);
  // Our own typed errors (e.g. badInput) keep the path and locations graphql-js attached to them.
  if (original instanceof GraphQLError && original.extensions?.code)
    return error instanceof GraphQLError ? error : original;
  if (
    error instanceof GraphQLError &&
    !error.path &&
    error.nodes?.length &&
    !error.extensions?.code &&
    original instanceof GraphQLError
  ) {
    // An error graphql-js raised about the document before execution, e.g. `Variable "$first" got
    // invalid value "x"; Int cannot represent …` or a null for a non-null variable: the client's mistake.
    return at(error.message, error, { ...error.extensions, code: ErrorCode.BAD_USER_INPUT });
  }
  if (error instanceof GraphQLError && !error.originalError) return error;
  const masked = createGraphQLError(message, {
    path: error instanceof GraphQLError ? error.path : undefined,
    extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR },
  });
  if (isDev && original instanceof Error) {
    // Development only: the message helps whoever is writing resolvers; still no stack.
    masked.extensions.originalMessage = original.message;
  }
  return masked;
}

/**
 * The same error (nodes, source, positions, path, cause) with a new message, extensions or nodes:
 * graphql-jit's errors have a read-only message, so an error is rebuilt, never edited.
 */
export function withChanges(
  error: GraphQLError,
  changes: { message?: string; extensions?: GraphQLError['extensions']; nodes?: GraphQLError['nodes'] },
): GraphQLError {
  return new GraphQLError(changes.message ?? error.message, {
    nodes: changes.nodes ?? error.nodes,
    source: error.source,
    positions: changes.nodes ? undefined : error.positions,
    path: error.path,
    originalError: error.originalError ?? undefined,
    extensions: changes.extensions ?? error.extensions,
  });
}

/**
 * A GraphQL error at the place `located` names (its nodes, source and path), with these extensions;
 * an expected one, so without a stack (see `withoutFrames`).
 */
function at(
  message: string,
  located: GraphQLError | undefined,
  extensions: Record<string, unknown>,
  originalError?: Error,
): GraphQLError {
  const frames = withoutFrames();
  try {
    return createGraphQLError(message, {
      nodes: located?.nodes,
      source: located?.source,
      positions: located?.positions,
      path: located?.path,
      extensions,
      originalError,
    });
  } finally {
    Error.stackTraceLimit = frames;
  }
}
