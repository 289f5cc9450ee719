/**
 * The per-request GraphQL context: the request's usage budget and signal, the services bound to
 * the request, the idempotency store and the live-update handles.
 */
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { CalendarService } from '../calendar/service.js';
import type { Config } from '../config/config.js';
import { fairShareKey, type RequestInfo } from '../core/caller.js';
import { UsageTracker } from '../core/usage.js';
import type { GovernanceService } from '../governance/service.js';
import type { Context } from '../graph/context.js';
import type { ChangeBus } from '../live/changes.js';
import type { LivePolling } from '../live/polling.js';
import { requestIdOf } from '../observability/request-id.js';
import { anonymous, permissionKey, principalOf, type Principal } from '../identity/principal.js';
import type { Upstreams } from './build-upstreams.js';

export interface ContextParts {
  config: Config;
  upstreams: Upstreams;
  governance: GovernanceService;
  calendar: CalendarService;
  bus: ChangeBus;
  polling: LivePolling;
}

export function contextFactory(parts: ContextParts): (init: { request: Request; req?: object }) => Context {
  const { config, upstreams, governance, calendar } = parts;
  const forwarding = config.governance.authMode === 'forward' || config.calendar.authMode === 'forward';
  return ({ request, req }) => {
    const requestId = requestIdOf(request);
    // Authentication set it (http/authenticate.ts); a path it does not guard holds no permission.
    const principal = principalOf(req) ?? principalOf(request) ?? NOBODY;
    // Whose turn its upstream calls wait for: the caller, or the upstream credential it forwards.
    const forwarded = forwarding && request.headers.has('authorization');
    const client = fairShareKey(principal, () =>
      forwarded ? identityOf(request.headers.get('authorization') ?? undefined, 'forward') : undefined,
    );
    const usage = new UsageTracker({
      maxCallsPerUpstream: config.traffic.maxCallsPerOperation,
      deadline: Date.now() + config.traffic.operationDeadlineMs,
      status: (name) => upstreams[name].traffic.status(),
      share: (name) => upstreams[name].traffic.shares.of(client),
      setupCalls: (name) => (name === 'governance' ? governance.setupCalls() : 0),
    });
    // Every upstream call of the operation listens on this signal; Node warns of a leak past ten
    // listeners, which one traversal passes legitimately.
    const signal = operationSignal(request.signal);
    allowListeners(signal, config.traffic.maxCallsPerOperation * 2 + 16);
    const info: RequestInfo = { requestId, headers: request.headers, usage, signal, client };
    return {
      requestId,
      principal,
      client,
      cachePartition: cachePartition(config, principal, request.headers.get('authorization') ?? undefined),
      usage,
      governance: governance.forRequest(info),
      calendar: calendar.forRequest(info),
      idempotency: {
        store: upstreams.idempotency,
        headerKey: request.headers.get('idempotency-key') ?? undefined,
        caller: principal.id,
      },
      live: liveContext(parts, info, principal.expiresAt),
      sdlRequiresScopes: config.security.federationRequiresScopes,
    };
  };
}

function liveContext(
  { config, governance, calendar, bus, polling }: ContextParts,
  info: RequestInfo,
  expiresAt: number | undefined,
): Context['live'] {
  return {
    bus,
    polling,
    caller: info.client ?? 'anonymous',
    expiresAt,
    defaultIntervalMs: config.live.pollIntervalMs,
    identity: {
      governance: identityOf(info.headers.get('authorization') ?? undefined, config.governance.authMode),
      calendar: identityOf(info.headers.get('authorization') ?? undefined, config.calendar.authMode),
    },
    fresh: (detached = false, caller = info.client) => {
      const each = {
        ...info,
        client: caller,
        signal: detached ? undefined : info.signal,
        usage: new UsageTracker({ maxCallsPerUpstream: config.traffic.maxCallsPerOperation }),
      };
      return { governance: governance.forRequest(each), calendar: calendar.forRequest(each) };
    },
  };
}

/** The credential a caller reads with: the gateway's own unless it forwards the caller's. */
function identityOf(authorization: string | undefined, mode: 'configured' | 'forward'): string {
  if (mode !== 'forward') return 'configured';
  return createHash('sha256')
    .update(authorization ?? '')
    .digest('base64url')
    .slice(0, 22);
}

const NOBODY = anonymous([]);

/**
 * Who may share an answer: the caller's permissions and the credentials the upstreams are read
 * with. With the gateway's own credentials (`configured`), every caller of one role shares answers,
 * and a refreshed token keeps them; a forwarded credential keeps its caller's answers apart.
 */
export function cachePartition(config: Config, principal: Principal | undefined, authorization?: string): string {
  const forwarded = config.governance.authMode === 'forward' || config.calendar.authMode === 'forward';
  const permissions = permissionKey(principal);
  return forwarded ? `${permissions}|${identityOf(authorization, 'forward')}` : permissions;
}

/**
 * A native signal that follows the request's. The server adapter's request signal is a Proxy whose
 * every property read costs a string test; hundreds of upstream calls check and listen on the
 * signal, so they get a plain one, fed by a single listener on the request's.
 */
function operationSignal(source: AbortSignal | undefined): AbortSignal | undefined {
  if (!source) return undefined;
  const controller = new AbortController();
  if (source.aborted) controller.abort(source.reason);
  else source.addEventListener('abort', () => controller.abort(source.reason), { once: true });
  return controller.signal;
}

function allowListeners(signal: AbortSignal | undefined, n: number): void {
  if (!signal) return;
  try {
    setMaxListeners(n, signal);
  } catch {
    // A signal that is not a Node EventTarget has no such limit.
  }
}
