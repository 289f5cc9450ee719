/**
 * The per-request GraphQL context: a fresh usage tracker and, for each upstream, a request scope
 * holding that caller's client and DataLoaders. Nothing in it outlives the request.
 */
import type { CalendarScope } from '../calendar/service.js';
import type { UsageTracker } from '../core/usage.js';
import type { GovernanceScope } from '../governance/service.js';
import type { IdempotencyContext } from './idempotency.js';
import type { LiveScope } from '../live/scope.js';
import type { Principal } from '../identity/principal.js';

export interface Context {
  requestId: string;
  /** Who is calling and what they may do (set by authentication, see `identity/principal.ts`). */
  principal: Principal;
  /**
   * Who may share this request's answers (response cache, ETags): the permission set and the upstream
   * credential identities, never the raw token, so callers of one role share answers across refreshes.
   */
  cachePartition: string;
  /** The caller's fair-share key (see `core/caller.ts` fairShareKey). */
  client?: string;
  /**
   * Set when the request is an MCP tool call (`src/mcp/`), for the logs and the audit: the tool's
   * name, how the user confirmed it (a delete, an expensive call), the task that ran it.
   */
  mcp?: { tool: string; confirmed?: 'elicitation' | 'token'; task?: string };
  usage: UsageTracker;
  governance: GovernanceScope;
  calendar: CalendarScope;
  /** Idempotency keys of creates (see `idempotency.ts`). */
  idempotency?: IdempotencyContext;
  /** Subscriptions and the change bus mutations publish on. */
  live: LiveScope;
  /** `_service`'s SDL carries `@requiresScopes` (false for `@apollo/gateway`, which refuses it). */
  sdlRequiresScopes: boolean;
}
