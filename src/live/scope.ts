/**
 * What a request's resolvers see of live updates: the change bus (mutations publish on it), the
 * pollers, the caller's credential identity per upstream (which poller serves it) and `fresh()`,
 * which gives a subscription new request scopes for each re-read, so an update is never answered
 * from the DataLoaders of the moment the subscription started.
 */
import type { CalendarScope } from '../calendar/service.js';
import type { UpstreamName } from '../core/errors.js';
import type { GovernanceScope } from '../governance/service.js';
import type { ChangeBus } from './changes.js';
import type { LivePolling } from './polling.js';

export interface LiveScope {
  bus: ChangeBus;
  polling: LivePolling;
  /** Polling interval of a subscription that asks for none. */
  defaultIntervalMs: number;
  identity: Record<UpstreamName, string>;
  /** The subscriber's fair-share key: its streams and the polls they cause are counted for it. */
  caller: string;
  /** When the subscriber's credential expires (epoch ms): its streams end then. */
  expiresAt?: number;
  /**
   * `detached`: not tied to the subscribing request's signal (for pollers that outlive it);
   * `caller`: whose share its upstream calls are charged to (default: the subscriber's).
   */
  fresh(detached?: boolean, caller?: string): { governance: GovernanceScope; calendar: CalendarScope };
}
