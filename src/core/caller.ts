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
 * The fair-share key of a caller (see fair-share.ts): an authenticated caller's client id, else its
 * principal's id; an anonymous one's forwarded upstream credential (a non-secret hash, computed only
 * then), if any.
 */
export function fairShareKey(
  principal: { id: string; kind: string; clientId?: string } | undefined,
  forwarded?: () => string | undefined,
): string {
  if (principal && principal.kind !== 'anonymous') return principal.clientId ?? principal.id;
  return forwarded?.() ?? 'anonymous';
}
