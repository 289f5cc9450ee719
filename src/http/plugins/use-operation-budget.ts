/**
 * The per-operation upstream budget, before execution: an operation whose estimated cost (see
 * `operation-cost.ts`) exceeds the budget for an upstream is refused with REQUEST_BUDGET_EXCEEDED
 * and costs no upstream call at all. During execution the same budget is enforced call by call by
 * the request's `UsageTracker` (calls beyond it fail their fields, the rest is kept).
 * Also marks a result `extensions.stale: true` when any answer came from an expired cache entry
 * during a 429 pause.
 */
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import type { Context } from '../../graph/context.js';
import { ErrorCode } from '../../graph/errors.js';
import { defaultCostModel, estimateOperationCost, type CostModel } from './operation-cost.js';

export interface OperationBudgetOptions {
  /** Upstream calls one operation may make per upstream. */
  maxCallsPerOperation: number;
  /** The gateway's largest accepted `first`/`last`. */
  maxPageSize?: number;
  model?: CostModel;
}

export function useOperationBudget(options: OperationBudgetOptions): Plugin<Context> {
  const model = { ...(options.model ?? defaultCostModel), ...(options.maxPageSize ? { maxPageSize: options.maxPageSize } : {}) };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const estimate = estimateOperationCost(args.schema as GraphQLSchema, args.document as DocumentNode, args.operationName as string | null | undefined, args.variableValues as Record<string, unknown> | undefined, model);
      const over = Object.entries(estimate).filter(([, calls]) => (calls ?? 0) > options.maxCallsPerOperation);
      if (over.length > 0) {
        const names = over.map(([u, calls]) => `${calls} ${u}`).join(' and ');
        setResultAndStopExecution({
          errors: [
            createGraphQLError(
              `This operation would make about ${names} requests, more than the ${options.maxCallsPerOperation} allowed per upstream in one operation; ask for fewer items or split it.`,
              { extensions: { code: ErrorCode.REQUEST_BUDGET_EXCEEDED, estimatedCalls: estimate, budget: options.maxCallsPerOperation } },
            ),
          ],
        });
      }
      return {
        onExecuteDone({ args: done, result, setResult }) {
          if (!('data' in result) && !('errors' in result)) return; // streamed results are left alone
          if ((done.contextValue as Context).usage?.stale) setResult({ ...result, extensions: { ...result.extensions, stale: true } });
        },
      };
    },
  };
}
