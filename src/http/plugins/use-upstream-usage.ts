/**
 * Adds `extensions.cost` to every execution result: per upstream the estimated calls, the calls
 * made, the cache hits, and the account budget after the operation (from the last known counts, no
 * extra Redis round trip), in the spirit of Shopify's `extensions.cost.throttleStatus`.
 */
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../graph/context.js';

export function useCostExtension(): Plugin<Context> {
  return {
    onExecute() {
      return {
        onExecuteDone({ args, result, setResult }) {
          if (!('data' in result) && !('errors' in result)) return; // streamed results are left alone
          const usage = (args.contextValue as Context).usage;
          if (!usage) return;
          setResult({ ...result, extensions: { ...result.extensions, cost: usage.report() } });
        },
      };
    },
  };
}
