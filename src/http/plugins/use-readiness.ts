/** GET /ready: 200 when every readiness check passes, 503 otherwise, with a JSON list of outcomes. */
import { useReadinessCheck, type Plugin } from 'graphql-yoga';
import { runReadiness, type ReadinessCheck } from '../../observability/readiness.js';

export function useReadiness(checks: () => Record<string, ReadinessCheck>, timeoutMs = 2_000): Plugin {
  return useReadinessCheck({
    endpoint: '/ready',
    async check({ fetchAPI }) {
      const report = await runReadiness(checks(), timeoutMs);
      return new fetchAPI.Response(JSON.stringify(report), {
        status: report.ready ? 200 : 503,
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
      });
    },
  });
}
