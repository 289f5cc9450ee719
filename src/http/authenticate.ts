/**
 * Authentication at the door, before any body is read, parsed or looked up in the response cache:
 * the Node request listener (`authenticateListener`) for everything served on a socket, and the
 * same check as a Yoga plugin for requests that reach Yoga another way (`yoga.fetch`). Every
 * request to the GraphQL endpoint (POST, GET, subscriptions, persisted operations, a federation
 * router's) carries a principal afterwards (`principalOf`), or was answered 401 without costing
 * anything upstream. Bad credentials are 401 even when anonymous callers are let in: a broken token
 * never silently becomes anonymous. /health, /ready and GraphiQL's page stay open; /metrics needs a
 * credential when `metricsNeedCredentials` (production); every other path is guarded.
 */
import type { IncomingMessage, RequestListener } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import type { AuthFailure, AuthResult, Authenticator } from '../identity/authenticator.js';
import { principalOf, setPrincipal, type Principal } from '../identity/principal.js';

export interface AuthenticationOptions {
  authenticator: Authenticator;
  graphqlEndpoint: string;
  metricsNeedCredentials: boolean;
  /** Counts a refusal (a metric); `reason` is one of a bounded set. */
  refused?: (reason: AuthFailure) => void;
}

interface Refusal {
  status: number;
  headers: Record<string, string>;
  body: string;
}

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
        const outcome = this.decide(result, guard);
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
        const req = (serverContext as { req?: IncomingMessage } | undefined)?.req;
        if (principalOf(req) || principalOf(request)) return;
        const guard = this.guardOf(request.method, url.pathname + url.search, request.headers.get('accept'));
        if (!guard) return;
        const outcome = this.decide(
          await this.options.authenticator.authenticate(request.headers.get('authorization')),
          guard,
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
  ): 'graphql' | 'metrics' | undefined {
    const q = url?.indexOf('?') ?? -1;
    const path = q === -1 ? url : url!.slice(0, q);
    if (path === '/health' || path === '/ready') return undefined;
    if (path === '/metrics') return this.options.metricsNeedCredentials ? 'metrics' : undefined;
    // GraphiQL's page holds no data; the operations it sends carry the headers chosen in it.
    if (method === 'GET' && q === -1 && accept?.includes('text/html') && path?.startsWith(this.options.graphqlEndpoint))
      return undefined;
    return 'graphql';
  }

  private decide(result: AuthResult, guard: 'graphql' | 'metrics'): Principal | Refusal {
    if (!result.failure && (guard === 'graphql' || result.principal.kind !== 'anonymous')) return result.principal;
    const reason = result.failure ?? 'missing';
    this.options.refused?.(reason);
    const unavailable = reason === 'jwks-unavailable';
    const challenge = reason === 'missing' ? 'Bearer realm="gateway"' : 'Bearer realm="gateway", error="invalid_token"';
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
