/**
 * One JSON line per GraphQL request: request id, operation, status, duration, upstream calls per
 * upstream and error codes. Built only from those fields, never from headers, variables or the query
 * text, so no token, password or personal data can end up in it.
 */
import { GraphQLError } from 'graphql';
import { createLogger, type YogaLogger } from 'graphql-yoga';
import type { Config } from '../config/config.js';
import { InputError, isUpstreamError } from '../core/errors.js';
import type { OperationListener, OperationRecord } from './operation-record.js';

export type LogSink = (line: string) => void;

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;

export function requestLogger(
  minLevel: Config['logLevel'],
  sink: LogSink = (line) => process.stdout.write(`${line}\n`),
): OperationListener | undefined {
  if (minLevel === 'silent') return undefined;
  return {
    end(record) {
      const level = levelOf(record);
      if (LEVELS[level] < LEVELS[minLevel]) return;
      sink(JSON.stringify(logLine(record, level)));
    },
  };
}

/** Only a failure of the gateway itself is an error; bad input, rate limits and upstream trouble are warnings. */
function levelOf(record: OperationRecord): 'info' | 'warn' | 'error' {
  if ((record.status ?? 200) >= 500 || record.errorCodes.some((c) => c === 'INTERNAL_SERVER_ERROR' || c === 'UNCODED'))
    return 'error';
  return record.errorCodes.length > 0 || (record.status ?? 200) >= 400 ? 'warn' : 'info';
}

/** An error the gateway expects and reports as a typed error: its request's log line says enough. */
function expected(error: unknown): boolean {
  // graphql-js's own refusal of a variable (`Variable "$n" got invalid value "ten"; Int cannot
  // represent …`), logged before maskError gives it BAD_USER_INPUT: the client's mistake.
  if (error instanceof GraphQLError && !error.path && error.originalError instanceof GraphQLError) return true;
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (isUpstreamError(original) || original instanceof InputError) return true;
  const code = original instanceof GraphQLError ? original.extensions?.code : undefined;
  return typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR';
}

/**
 * Yoga's logger, quieted: Yoga logs every error it masks, with its stack. Expected errors (bad
 * input, rate limits, upstream 4xx and outages) are already in the request's one log line (code,
 * operation, request id, upstream and status), so they print nothing more; an unexpected error
 * prints one JSON line on stderr with its stack, which is what whoever fixes it needs.
 */
// Yoga's logger interface passes its arguments as any[]; they are only inspected.
/* eslint-disable @typescript-eslint/no-unsafe-assignment */
export function yogaLogger(minLevel: Config['logLevel']): YogaLogger | false {
  if (minLevel === 'silent') return false;
  return {
    ...createLogger(minLevel),
    error: (...args) => {
      for (const arg of args) {
        if (expected(arg)) continue;
        const err = arg instanceof GraphQLError && arg.originalError ? arg.originalError : arg;
        const line =
          err instanceof Error ? { error: `${err.name}: ${err.message}`, stack: err.stack } : { error: String(err) };
        process.stderr.write(
          `${JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: 'unexpected error', ...line })}\n`,
        );
      }
    },
  };
}

function logLine(record: OperationRecord, level: string) {
  return {
    time: new Date().toISOString(),
    level,
    msg: 'graphql request',
    requestId: record.requestId,
    ...(record.clientRequestId ? { clientRequestId: record.clientRequestId } : {}),
    operationName: record.operationName ?? null,
    operationType: record.operationType ?? null,
    status: record.status,
    durationMs: Math.round((record.durationMs ?? 0) * 10) / 10,
    upstream: record.context?.usage.toJSON() ?? {},
    ...(record.responseCache ? { responseCache: record.responseCache } : {}),
    errors: record.errorCodes,
    // Which upstream said what, for errors that came from one (never a URL or a body).
    ...(record.upstreamErrors.length > 0 ? { upstreamErrors: record.upstreamErrors } : {}),
  };
}
