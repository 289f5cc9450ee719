/**
 * Adds `extensions.cost` to an execution result that used an upstream: the short form of
 * `core/cost-report.ts` (estimated and actual calls, cache hits, the least budget left), or the
 * full one with the account's status when the request sends `Cost-Detail: full` or the account is
 * close to its limit. From the last known counts, with no extra Redis round trip.
 */
import type { Plugin } from 'graphql-yoga';
import { COST_DETAIL_HEADER, costExtension, wantsFullCost } from '../../core/cost-report.js';
import type { Context } from '../../graph/context.js';
import { executionOf } from './hook-args.js';

export function useCostExtension(): Plugin<Context> {
  return {
    onExecute() {
      return {
        onExecuteDone({ args, result, setResult }) {
          if (!('data' in result) && !('errors' in result)) return; // streamed results are left alone
          const context = executionOf(args).contextValue;
          if (!context.usage) return;
          const full = wantsFullCost(context.request?.headers.get(COST_DETAIL_HEADER));
          const cost = costExtension(context.usage.costs(), full);
          if (cost) setResult({ ...result, extensions: { ...result.extensions, cost } });
        },
      };
    },
  };
}
