/** GraphQL pieces shared by the two upstreams' subscriptions. */
import { builder } from '../graph/builder.js';

export const ChangeOrigin = builder.enumType('ChangeOrigin', {
  description: 'How the gateway learned of a change.',
  values: {
    GATEWAY: { value: 'gateway', description: 'A mutation through the gateway (any replica).' },
    POLL: { value: 'poll', description: 'Polling the upstream found it (a change made outside the gateway).' },
  } as const,
});

export const POLL_ARG_HELP =
  "How often to look for changes made outside the gateway, in seconds; bounded by the gateway's configuration (LIVE_POLL_MIN_INTERVAL_MS, LIVE_POLL_MAX_INTERVAL_MS), its default when omitted. One poller serves every subscriber with the same credential, at the shortest interval asked for.";
