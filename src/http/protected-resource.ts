/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for `/mcp`, as the MCP authorization
 * specification asks of a server: the document at `/.well-known/oauth-protected-resource/mcp` (and
 * at the bare well-known path, for clients that look there) names the resource, the token issuers
 * the gateway trusts, how a token is sent and the scopes it knows; a 401 on `/mcp` points at it
 * (`WWW-Authenticate: Bearer resource_metadata="…"`). The resource URL is the one the client used:
 * the request's host, or the proxy's `X-Forwarded-Host` / `X-Forwarded-Proto` in front of it (a
 * spoofed value only misleads the client that sent it; the document is never shared between hosts).
 */
import type { Plugin } from 'graphql-yoga';

export const WELL_KNOWN = '/.well-known/oauth-protected-resource';

export interface ProtectedResourceOptions {
  /** The protected endpoint's path (`/mcp`). */
  resourcePath: string;
  /** The issuers whose tokens the gateway accepts (AUTH_ISSUERS). */
  authorizationServers: readonly string[];
  scopes: readonly string[];
}

/** Whether the path is one of the metadata document's. */
export function isMetadataPath(path: string | undefined, resourcePath: string): boolean {
  return path === WELL_KNOWN || path === WELL_KNOWN + resourcePath;
}

/** The origin the client used, from the request's headers (first value of a proxy's list). */
export function publicOrigin(header: (name: string) => string | null | undefined, protocol: string): string {
  const first = (name: string) => header(name)?.split(',')[0]?.trim() || undefined;
  const proto = first('x-forwarded-proto') ?? protocol;
  const host = first('x-forwarded-host') ?? header('host') ?? 'localhost';
  return `${proto === 'https' ? 'https' : 'http'}://${host}`;
}

/** Where the metadata of `origin` + `resourcePath` is served (RFC 9728 §3.1: the path after the well-known part). */
export function metadataUrl(origin: string, resourcePath: string): string {
  return origin + WELL_KNOWN + resourcePath;
}

/** Serves the metadata document (GET), open to everyone: it holds nothing secret. */
export function useProtectedResourceMetadata(options: ProtectedResourceOptions): Plugin {
  return {
    onRequest(payload) {
      const { request, url, fetchAPI } = payload;
      if (!isMetadataPath(url.pathname, options.resourcePath)) return;
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return payload.endResponse(new fetchAPI.Response(null, { status: 405, headers: { allow: 'GET, HEAD' } }));
      const origin = publicOrigin((n) => request.headers.get(n), url.protocol.replace(':', ''));
      const document = {
        resource: origin + options.resourcePath,
        authorization_servers: options.authorizationServers,
        bearer_methods_supported: ['header'],
        scopes_supported: options.scopes,
        resource_name: 'governance-calendar-gateway MCP',
      };
      payload.endResponse(
        new fetchAPI.Response(JSON.stringify(document), {
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'cache-control': 'public, max-age=300',
            vary: 'Host, X-Forwarded-Host, X-Forwarded-Proto',
          },
        }),
      );
    },
  };
}
