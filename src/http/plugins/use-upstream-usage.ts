/** Adds `extensions.upstream` to every execution result: what the operation cost each upstream. */
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../graph/context.js';

export function useUpstreamUsage(): Plugin<Context> {
  return {
    onExecute() {
      return {
        onExecuteDone({ args, result, setResult }) {
          if (!('data' in result) && !('errors' in result)) return; // streamed results are left alone
          const usage = (args.contextValue as Context).usage.toJSON();
          setResult({ ...result, extensions: { ...result.extensions, upstream: usage } });
        },
      };
    },
  };
}
