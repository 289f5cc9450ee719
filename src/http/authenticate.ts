/**
 * Authentication at the door, before any body is read, parsed or looked up in the response cache:
 * the Node request listener (`authenticateListener`) for everything served on a socket, and the
 * same check as a Yoga plugin for requests that reach Yoga another way (`yoga.fetch`). Every
 * request to the GraphQL endpoint (POST, GET, subscriptions, persisted operations, a federation
 * router's) carries a principal afterwards (`principalOf`), or was answered 401 without costing
 * anything upstream. Bad credentials are 401 even when anonymous callers are let in: a broken token
 * never silently becomes anonymous. /health, /ready and GraphiQL's page stay open; /metrics needs
 * `metrics:read` when `metricsNeedCredentials` (production: 401 without a credential, 403 with one
 * that lacks it); every other path is guarded. `/mcp` is
 * guarded as an OAuth 2.1 resource server (see protected-resource.ts).
 *
 * CSRF prevention (`csrfPrevention`, production) runs here too, once, right after the credential is
 * known and before the response cache or Yoga: a request a browser could send from another site
 * without a preflight (GET, HEAD, or a POST as a form or text/plain) acts with what the browser
 * adds by itself, so unless it carries a bearer credential (which no browser adds on its own, and
 * which cannot be sent cross-site without a preflight the CORS policy approves) it must carry one
 * of `CSRF_HEADERS`, or it is 403 before anything is read. On `/mcp` only POSTs act.
 */
import type { RequestListener } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import type { AuthFailure, AuthResult, Authenticator } from '../identity/authenticator.js';
import { principalOf, setPrincipal, type Principal } from '../identity/principal.js';
import { isGraphiQLPage } from './graphiql-page.js';
import { isMetadataPath, metadataUrl, publicOrigin } from './protected-resource.js';
import { incomingOf } from './plugins/hook-args.js';
import { pathOf } from '../core/url-path.js';

export interface AuthenticationOptions {
  authenticator: Authenticator;
  graphqlEndpoint: string;
  metricsNeedCredentials: boolean;
  /**
   * The MCP endpoint (when on): an OAuth protected resource. Its 401 names the resource metadata
   * (served open at the well-known path), and it takes only the gateway's own credentials: a token
   * forward mode would let through for an upstream is refused there.
   */
  mcpEndpoint?: string;
  /** Requests a browser could send cross-site need a bearer credential or a CSRF header (above). */
  csrfPrevention: boolean;
  /**
   * The permissions a 401 on `/mcp` asks for, from the request's `Mcp-Method` and `Mcp-Name` headers
   * (read before any body): a tool call's own, else what listing needs.
   */
  mcpScope?: (method: string | undefined, name: string | undefined) => readonly string[];
  /** Counts a refusal (a metric); `reason` is one of a bounded set. */
  refused?: (reason: AuthFailure) => void;
}

/** Any of these headers marks a request a browser could not have sent cross-site without a preflight. */
export const CSRF_HEADERS = ['x-graphql-yoga-csrf', 'apollo-require-preflight'];
/** Content types a browser sends cross-site without a preflight (a form, text). */
const SIMPLE_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];
const SIMPLE_METHODS = new Set(['GET', 'HEAD', 'POST']);

/** An answer written before anything of the request is read. */
interface Refusal {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const CSRF_REFUSAL: Refusal = {
  status: 403,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify({
    errors: [
      {
        message:
          'Required CSRF header(s) not present: without a bearer token, a GET or a form post must carry `x-graphql-yoga-csrf` or `apollo-require-preflight` (any value).',
        extensions: { code: 'BAD_REQUEST' },
      },
    ],
  }),
};

/** /metrics to a caller whose credential is good but holds no `metrics:read`. */
const METRICS_FORBIDDEN: Refusal = {
  status: 403,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify({
    errors: [
      {
        message: '/metrics needs the permission metrics:read, which you do not have.',
        extensions: { code: 'FORBIDDEN', permission: 'metrics:read' },
      },
    ],
  }),
};

type Header = (name: string) => string | null | undefined;
/** Where a refusal points: the public origin (for /mcp's metadata) and the MCP method and tool asked for. */
interface At {
  origin: () => string;
  mcp: () => [string | undefined, string | undefined];
}
/** What the door sees of a request: its method, path and headers. */
interface Knock {
  method: string | undefined;
  path: string | undefined;
  get: Header;
}

/** What a path needs: a principal (`graphql`), the gateway's own one (`mcp`), one holding `metrics:read` (`metrics`). */
type Guard = 'graphql' | 'mcp' | 'metrics';

const MESSAGES: Partial<Record<AuthFailure, string>> = {
  missing: 'Authentication required: send `Authorization: Bearer <token>`.',
  expired: 'The token has expired.',
  'jwks-unavailable': "The token issuer's keys could not be fetched; try again shortly.",
};

export class Authentication {
  constructor(private readonly options: AuthenticationOptions) {}

  /** Wraps the gateway's Node request listener. */
  wrap(listener: RequestListener): RequestListener {
    return (req, res) => {
      const guard = this.guardOf(req.method, req.url, req.headers.accept);
      // A principal set by a layer around this one (an embedding process) stands.
      if (!guard || principalOf(req)) return listener(req, res);
      const settle = (result: AuthResult) => {
        const get = (n: string) => header(req.headers[n]);
        const request = { method: req.method, path: (req.url ?? '/').split('?')[0], get };
        const outcome = this.outcome(result, guard, request, {
          origin: () => publicOrigin(get, 'encrypted' in req.socket ? 'https' : 'http'),
          mcp: () => [get('mcp-method') ?? undefined, get('mcp-name') ?? undefined],
        });
        if ('status' in outcome) return void res.writeHead(outcome.status, outcome.headers).end(outcome.body);
        setPrincipal(req, outcome);
        listener(req, res);
      };
      const result = this.options.authenticator.authenticate(req.headers.authorization);
      if (result instanceof Promise) void result.then(settle);
      else settle(result);
    };
  }

  /** The same check inside Yoga, for requests that did not come through `wrap`. */
  plugin(): Plugin {
    return {
      onRequest: async (payload) => {
        const { request, url, serverContext, fetchAPI } = payload;
        const req = incomingOf(serverContext);
        if (principalOf(req) || principalOf(request)) return;
        const guard = this.guardOf(request.method, url.pathname + url.search, request.headers.get('accept'));
        if (!guard) return;
        const get = (n: string) => request.headers.get(n);
        const result = await this.options.authenticator.authenticate(get('authorization'));
        const outcome = this.outcome(
          result,
          guard,
          { method: request.method, path: url.pathname, get },
          {
            origin: () => publicOrigin(get, url.protocol.replace(':', '')),
            mcp: () => [get('mcp-method') ?? undefined, get('mcp-name') ?? undefined],
          },
        );
        if ('status' in outcome) payload.endResponse(new fetchAPI.Response(outcome.body, outcome));
        else setPrincipal(request, outcome);
      },
    };
  }

  /**
   * Which requests need a principal: all but the probes, GraphiQL's page, and /metrics outside
   * production. A path not listed here is guarded, so nothing new is open by accident.
   */
  private guardOf(
    method: string | undefined,
    url: string | undefined,
    accept: string | null | undefined,
  ): Guard | undefined {
    const path = pathOf(url);
    if (path === '/health' || path === '/ready') return undefined;
    const mcp = this.options.mcpEndpoint;
    if (mcp && path === mcp) return 'mcp';
    if (mcp && isMetadataPath(path, mcp)) return undefined;
    if (path === '/metrics') return this.options.metricsNeedCredentials ? 'metrics' : undefined;
    // GraphiQL's page holds no data; the operations it sends carry the headers chosen in it.
    if (!url?.includes('?') && isGraphiQLPage(method, path, accept, this.options.graphqlEndpoint)) return undefined;
    return 'graphql';
  }

  /** The principal, or the refusal: of the credential first (401 says more than 403), then CSRF's. */
  private outcome(result: AuthResult, guard: Guard, request: Knock, at: At) {
    const decided = this.decide(result, guard, at);
    return 'status' in decided || !this.csrfRefused(guard, request) ? decided : CSRF_REFUSAL;
  }

  /**
   * Whether the request is an operation (on the GraphQL endpoint, or a POST to /mcp) a browser could
   * send cross-site without a preflight, and carries no bearer credential.
   */
  private csrfRefused(guard: Guard, { method = 'GET', path, get }: Knock): boolean {
    if (!this.options.csrfPrevention || !SIMPLE_METHODS.has(method)) return false;
    const operation =
      guard === 'mcp' ? method === 'POST' : guard === 'graphql' && path === this.options.graphqlEndpoint;
    if (!operation) return false;
    if (/^bearer\s/i.test(get('authorization') ?? '') || CSRF_HEADERS.some((h) => get(h) != null)) return false;
    const type = get('content-type')?.toLowerCase();
    return !type || SIMPLE_TYPES.some((t) => type.startsWith(t));
  }

  /** The principal, or the refusal's status, headers and body. */
  private decide(result: AuthResult, guard: Guard, at: At): Refusal | Principal {
    // /mcp and /metrics take the gateway's own credentials only: never a token meant for an upstream.
    const refused = result.failure ?? (guard !== 'graphql' ? result.forwarded : undefined);
    if (!refused && !result.failure) {
      if (guard !== 'metrics' || result.principal.permissions.has('metrics:read')) return result.principal;
      // A good credential without the permission: 403; an anonymous caller without it: 401 below.
      if (result.principal.kind !== 'anonymous') return METRICS_FORBIDDEN;
    }
    const reason = refused ?? 'missing';
    this.options.refused?.(reason);
    const unavailable = reason === 'jwks-unavailable';
    const mcp = guard === 'mcp';
    const challenge = bearerChallenge({
      ...(reason === 'missing' ? {} : { error: 'invalid_token' }),
      ...(mcp ? { scope: this.options.mcpScope?.(...at.mcp()) ?? [] } : {}),
      ...(mcp ? { resourceMetadata: metadataUrl(at.origin(), this.options.mcpEndpoint!) } : {}),
    });
    return {
      status: unavailable ? 503 : 401,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...(unavailable ? { 'retry-after': '5' } : { 'www-authenticate': challenge }),
      },
      body: JSON.stringify({
        errors: [
          {
            message: MESSAGES[reason] ?? `The credentials were refused (${reason}).`,
            extensions: { code: unavailable ? 'UNAVAILABLE' : 'UNAUTHENTICATED', reason },
          },
        ],
      }),
    };
  }
}

/** An RFC 6750 `WWW-Authenticate: Bearer` challenge; `scope` names what to ask the issuer for (RFC 9728 §5.1). */
export function bearerChallenge(c: { error?: string; scope?: readonly string[]; resourceMetadata?: string }): string {
  return [
    'Bearer realm="gateway"',
    ...(c.error ? [`error="${c.error}"`] : []),
    ...(c.scope?.length ? [`scope="${c.scope.join(' ')}"`] : []),
    ...(c.resourceMetadata ? [`resource_metadata="${c.resourceMetadata}"`] : []),
  ].join(', ');
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
