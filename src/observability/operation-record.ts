/**
 * One GraphQL operation as metrics, logs and traces see it, and the three moments they listen to
 * (`src/http/plugins/use-operation-events.ts` fires them from Yoga's request lifecycle).
 */
import type { Context } from '../graph/context.js';

export interface OperationRecord {
  requestId: string;
  /** The caller's own x-request-id, validated; logged beside ours, never used as ours. */
  clientRequestId?: string;
  /** performance.now() when the parameters were parsed. */
  startedAt: number;
  operationName?: string;
  operationType?: 'query' | 'mutation' | 'subscription';
  /** Set once execution starts (parse and validation passed). */
  context?: Context;
  /** `extensions.code` of every error in the result, in order. */
  errorCodes: string[];
  /** The errors an upstream caused: code, upstream and the upstream's status, in order. */
  /** `detail`: the upstream's own words (sanitized), which only the log shows. */
  upstreamErrors: { code: string; upstream: string; status?: number; detail?: string }[];
  status?: number;
  durationMs?: number;
  /** Answered whole from the response cache, and from which tier. */
  responseCache?: 'memory' | 'redis';
}

export interface OperationListener {
  start?(record: OperationRecord, request: Request): void;
  execute?(record: OperationRecord): void;
  end?(record: OperationRecord): void;
}
