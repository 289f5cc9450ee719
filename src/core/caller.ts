/**
 * Who is calling, as the layers below the graph see it: the incoming request (for each upstream's
 * service to pick its credentials and scope) and the caller of one upstream call (for the pipeline's
 * cache partition and usage counts). No GraphQL and no upstream payloads here.
 */
import type { UsageTracker } from './usage.js';

/** The incoming request, as each upstream's service receives it to build that request's scope. */
export interface RequestInfo {
  requestId: string;
  /** The incoming request's headers (for forwarded credentials). */
  headers: Headers;
  usage: UsageTracker;
  signal?: AbortSignal;
  /** The caller's fair-share key (its client id, else its principal's id); absent: one shared turn. */
  client?: string;
}

/** Who is calling: decides the cache partition and where usage is counted. */
export interface Caller {
  /** Stable, non-secret identity of the credential used (e.g. a client id or a token hash). */
  identity: string;
  usage: UsageTracker;
  signal?: AbortSignal;
  /** The gateway's id of the incoming request, sent upstream as `x-request-id` to match logs on both sides. */
  requestId?: string;
  /** Whose turn this call waits for at the upstream's queues (see `RequestInfo.client`). */
  client?: string;
}

/**
 * The fair-share key of a caller (see fair-share.ts), always with its group before the first `|`:
 * a token's `<issuer>|<client id, else subject>` (a client id is unique only within its issuer), an
 * API key's `key|<name>`, an unverified credential the upstream judges `forwarded|<hash>`, else
 * `anonymous` (or, forwarding, its credential's non-secret hash, computed only then).
 */
export function fairShareKey(
  principal: { id: string; kind: string; issuer?: string; subject?: string; clientId?: string } | undefined,
  forwarded?: () => string | undefined,
): string {
  if (principal && principal.kind !== 'anonymous') {
    if (principal.issuer) return `${principal.issuer}|${principal.clientId ?? principal.subject ?? principal.id}`;
    // `key:<name>`, `forwarded:<hash>`: the kind is the group.
    const colon = principal.id.indexOf(':');
    return colon < 0 ? principal.id : `${principal.id.slice(0, colon)}|${principal.id.slice(colon + 1)}`;
  }
  const hash = forwarded?.();
  return hash ? `forwarded|${hash}` : 'anonymous';
}
