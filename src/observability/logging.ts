/**
 * One JSON line per GraphQL request: request id, operation, status, duration, upstream calls per
 * upstream and error codes. Built only from those fields, never from headers, variables or the query
 * text, so no token, password or personal data can end up in it.
 */
import type { Config } from '../config/config.js';
import type { OperationListener, OperationRecord } from '../http/plugins/use-operation-events.js';

export type LogSink = (line: string) => void;

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;

export function requestLogger(minLevel: Config['logLevel'], sink: LogSink = (line) => process.stdout.write(`${line}\n`)): OperationListener | undefined {
  if (minLevel === 'silent') return undefined;
  return {
    end(record) {
      const level = levelOf(record);
      if (LEVELS[level] < LEVELS[minLevel]) return;
      sink(JSON.stringify(logLine(record, level)));
    },
  };
}

function levelOf(record: OperationRecord): 'info' | 'warn' | 'error' {
  if ((record.status ?? 200) >= 500 || record.errorCodes.some((c) => c === 'INTERNAL_SERVER_ERROR' || c === 'UPSTREAM_UNAVAILABLE')) return 'error';
  return record.errorCodes.length > 0 || (record.status ?? 200) >= 400 ? 'warn' : 'info';
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
    errors: record.errorCodes,
  };
}
