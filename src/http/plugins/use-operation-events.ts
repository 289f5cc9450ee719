/**
 * Turns Yoga's request lifecycle into three moments that metrics, logs and traces share: an
 * operation arrives (params parsed), it executes (context and operation known), and its response
 * leaves. Requests that never reach GraphQL (GraphiQL's page, /metrics, /health) produce nothing.
 * One operation per HTTP request: Yoga's batching is off.
 */
import { getOperationAST, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../graph/context.js';
import type { OperationListener, OperationRecord } from '../../observability/operation-record.js';
import { clientRequestIdOf, requestIdOf } from '../../observability/request-id.js';
import { executionOf } from './hook-args.js';

export function useOperationEvents(listeners: OperationListener[]): Plugin<Context> {
  const records = new WeakMap<Request, OperationRecord>();
  return {
    onParams({ request, params }) {
      const record: OperationRecord = {
        requestId: requestIdOf(request),
        clientRequestId: clientRequestIdOf(request),
        startedAt: performance.now(),
        operationName: params.operationName ?? undefined,
        errorCodes: [],
        upstreamErrors: [],
      };
      records.set(request, record);
      for (const l of listeners) l.start?.(record, request);
    },
    onParse({ context }) {
      const record = records.get((context as { request: Request }).request);
      // Name the operation as soon as it parses, so validation failures are counted under it too.
      return ({ result }) => {
        if (!record || !result || result instanceof Error) return;
        const operation = getOperationAST(result as DocumentNode, record.operationName);
        record.operationName = operation?.name?.value ?? record.operationName;
        record.operationType = operation?.operation;
      };
    },
    onExecute({ args }) {
      const context = executionOf(args).contextValue;
      const record = records.get(context.request);
      if (!record) return;
      record.context = context;
      for (const l of listeners) l.execute?.(record);
    },
    onResultProcess({ request, result }) {
      const record = records.get(request);
      if (!record || Symbol.asyncIterator in result) return;
      for (const r of Array.isArray(result) ? result : [result]) {
        for (const e of r.errors ?? []) {
          const code = typeof e.extensions?.code === 'string' ? e.extensions.code : 'UNCODED';
          record.errorCodes.push(code);
          const upstream = e.extensions?.upstream;
          if (typeof upstream === 'string') {
            const status = e.extensions?.upstreamStatus;
            record.upstreamErrors.push({ code, upstream, ...(typeof status === 'number' ? { status } : {}) });
          }
        }
      }
    },
    onResponse({ request, response }) {
      const record = records.get(request);
      if (!record) return;
      records.delete(request);
      record.status = response.status;
      // The caller can quote this id when asking about a request; it matches the log line.
      response.headers.set('x-request-id', record.requestId);
      record.durationMs = performance.now() - record.startedAt;
      for (const l of listeners) l.end?.(record);
    },
  };
}
