/** GET /ready: 200 when ready (see `observability/readiness.ts`), 503 otherwise; the body lists checks and upstream states. */
import { useReadinessCheck, type Plugin } from 'graphql-yoga';
import { runReadiness, type ReadinessSources } from '../../observability/readiness.js';

export function useReadiness(sources: () => ReadinessSources, timeoutMs = 2_000): Plugin {
  return useReadinessCheck({
    endpoint: '/ready',
    async check({ fetchAPI }) {
      const report = await runReadiness(sources(), timeoutMs);
      return new fetchAPI.Response(JSON.stringify(report), {
        status: report.ready ? 200 : 503,
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
      });
    },
  });
}
