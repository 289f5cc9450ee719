/**
 * The front door: what every request on a socket passes before authentication, on every path
 * (`/graphql` with GraphiQL and subscriptions, `/mcp`, `/metrics`, whatever comes later) but the
 * probes `/health` and `/ready`.
 *
 * - **Host** (DNS rebinding): a page on `evil.example` whose name is made to point at the gateway
 *   sends `Host: evil.example`. Bound to a loopback address the gateway answers loopback names only
 *   (`localhost`, `*.localhost`, `127.x.x.x`, `[::1]`); otherwise also IP addresses (a name can be
 *   rebound, an address cannot) and `PUBLIC_HOSTS`. Anything else is 403 `HOST_NOT_ALLOWED`.
 * - **Origin**: a browser request from another site carries its `Origin`; unless that is the host
 *   the request was sent to or an origin of `CORS_ORIGINS`, it is 403 `ORIGIN_NOT_ALLOWED` before
 *   anything runs (the MCP transport's rule, applied to every path).
 * - **CORS**: a preflight is answered here, never authenticated; an allowed origin gets
 *   `Access-Control-Allow-Origin`, `Vary: Origin` and the headers a client must read exposed on
 *   every answer, 401, 403, 429 and 503 included, whoever writes it (`on-headers`, at the moment the
 *   headers go out, so a `Vary` set later is extended, not replaced).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import onHeaders from 'on-headers';
import vary from 'vary';
import { pathOf } from '../core/url-path.js';

export interface FrontDoorOptions {
  /** The listener is bound to a loopback address (HOST). */
  loopback: boolean;
  /** PUBLIC_HOSTS: names (`api.example.com`, `*.example.com`) or `*`. */
  publicHosts: readonly string[];
  /** CORS_ORIGINS: origins (`https://app.example`, `http://localhost:*`) or `*`. */
  corsOrigins: readonly string[];
}

/** What a browser app reads besides the CORS-safelisted headers. */
const EXPOSED = 'WWW-Authenticate, Retry-After, X-Request-Id, ETag, Age, X-Cache';
/** MCP clients end a session with DELETE. */
const METHODS = 'GET, POST, DELETE, OPTIONS';
const PROBES = new Set(['/health', '/ready']);

/** Distinct `Host` values remembered with their verdict: clients send the same few again and again. */
const REMEMBERED_HOSTS = 256;

export class FrontDoor {
  private readonly hosts = new Map<string, string | undefined>();

  constructor(private readonly options: FrontDoorOptions) {}

  /** Wraps the gateway's Node request listener. */
  wrap(listener: RequestListener): RequestListener {
    return (req, res) => {
      if (PROBES.has(pathOf(req.url))) return listener(req, res);
      const host = this.allowedHost(req.headers.host);
      if (req.headers.host !== undefined && !host)
        return refuse(res, 'HOST_NOT_ALLOWED', 'This gateway does not answer for this host name (see PUBLIC_HOSTS).');
      const origin = req.headers.origin;
      if (origin !== undefined) {
        const listed = this.corsAllows(origin);
        if (!listed && !(host && hostnameOf(origin, true) === host))
          return refuse(res, 'ORIGIN_NOT_ALLOWED', 'Requests from this origin are not allowed (see CORS_ORIGINS).');
        if (listed) allowOrigin(res, origin, !this.options.corsOrigins.includes('*'));
        if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined)
          return preflight(req, res);
      }
      listener(req, res);
    };
  }

  /** The host name of an allowed `Host` header, or undefined. */
  private allowedHost(header: string | undefined): string | undefined {
    if (header === undefined) return undefined;
    if (this.hosts.has(header)) return this.hosts.get(header);
    const host = hostnameOf(header);
    const verdict = host && this.hostAllowed(host) ? host : undefined;
    if (this.hosts.size >= REMEMBERED_HOSTS) this.hosts.clear();
    this.hosts.set(header, verdict);
    return verdict;
  }

  private hostAllowed(host: string): boolean {
    if (isLoopbackName(host)) return true;
    if (!this.options.loopback && (host.startsWith('[') || isIP(host) === 4)) return true;
    return this.options.publicHosts.some(
      (p) => p === '*' || p.toLowerCase() === host || (p.startsWith('*.') && host.endsWith(p.slice(1).toLowerCase())),
    );
  }

  private corsAllows(origin: string): boolean {
    const wanted = origin.toLowerCase();
    return this.options.corsOrigins.some((allowed) => {
      const a = allowed.toLowerCase().replace(/\/$/, '');
      if (a === '*' || a === wanted) return true;
      // `http://localhost:*`: that scheme and host, any port.
      if (!a.endsWith(':*')) return false;
      const base = a.slice(0, -2);
      return wanted === base || (wanted.startsWith(`${base}:`) && /^\d+$/.test(wanted.slice(base.length + 1)));
    });
  }
}

/** The lower-cased host name of a `Host` header (or, `origin`, of an Origin), without its port. */
function hostnameOf(value: string | undefined, origin = false): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(origin ? value : `http://${value}`).hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/** Whether a listening address (HOST) is a loopback one. */
export function isLoopback(address: string): boolean {
  return isLoopbackName(address.toLowerCase()) || address === '::1';
}

function isLoopbackName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** CORS headers on whatever answer this request gets, set as its headers go out. */
function allowOrigin(res: ServerResponse, origin: string, credentials: boolean): void {
  onHeaders(res, function (this: ServerResponse) {
    this.setHeader('access-control-allow-origin', origin);
    if (credentials) this.setHeader('access-control-allow-credentials', 'true');
    this.setHeader('access-control-expose-headers', EXPOSED);
    vary(this, 'Origin');
  });
}

/** The browser asks before a request it may not send on its own: what it may send, for 10 minutes. */
function preflight(req: IncomingMessage, res: ServerResponse): void {
  const headers: Record<string, string> = {
    'access-control-allow-methods': METHODS,
    'access-control-max-age': '600',
    'content-length': '0',
  };
  const asked = req.headers['access-control-request-headers'];
  if (asked) {
    headers['access-control-allow-headers'] = asked;
    vary(res, 'Access-Control-Request-Headers');
  }
  req.resume();
  res.writeHead(204, headers).end();
}

function refuse(res: ServerResponse, code: string, message: string): void {
  res
    .writeHead(403, { 'content-type': 'application/json; charset=utf-8' })
    .end(JSON.stringify({ errors: [{ message, extensions: { code } }] }));
}
