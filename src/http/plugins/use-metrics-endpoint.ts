/** GET /metrics: the gateway's Prometheus registry in the text exposition format. */
import type { Plugin } from 'graphql-yoga';
import type { Registry } from 'prom-client';

export function useMetricsEndpoint(registry: Registry, endpoint = '/metrics'): Plugin {
  return {
    async onRequest({ url, request, endResponse, fetchAPI }) {
      if (url.pathname !== endpoint) return;
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return endResponse(new fetchAPI.Response(null, { status: 405, headers: { allow: 'GET, HEAD' } }));
      const body = await registry.metrics();
      const headers = { 'content-type': registry.contentType };
      endResponse(new fetchAPI.Response(request.method === 'HEAD' ? null : body, { headers }));
    },
  };
}
