/**
 * Calendar subscriptions: `eventChanged(id)` and `eventsChanged(filter)`. Payloads on the change bus
 * carry ids only; each subscriber re-reads the event with its own credential (fresh loaders per
 * update). Polling reads past the cache at the lowest priority (see `src/live/polling.ts`).
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import type { Change, ChangeBatch } from '../../live/changes.js';
import { fingerprint } from '../../live/polling.js';
import { ChangeOrigin, POLL_ARG_HELP, recordChangeType } from '../../live/schema-common.js';
import { pollInterval, watchAndListen } from '../../live/subscribe.js';
import { eventsQuery, recordId } from '../inputs.js';
import { normalizeEvent } from '../normalize.js';
import { EventFilter } from './event-filter.js';
import { EventRef } from './refs.js';

const MISSING = 'missing';

const EventChange = recordChangeType('EventChange', {
  field: 'event',
  ref: EventRef,
  words: { a: 'An event', the: 'The event', id: "The event's id." },
  gone: ' (trashed or deleted)',
});

const EventsChange = builder.objectRef<ChangeBatch>('EventsChange').implement({
  description: 'Events that changed; read the ones you show again (e.g. `events(filter: { include: ids })`).',
  fields: (t) => ({
    ids: t.idList({ nullable: false, description: 'The ids of the changed events.', resolve: (b) => b.ids }),
    origin: t.field({
      type: ChangeOrigin,
      nullable: false,
      description: 'How the gateway learned of the change.',
      resolve: (b) => b.origin,
    }),
  }),
});

builder.subscriptionFields((t) => ({
  eventChanged: t.field({
    ...requires('calendar:read'),
    type: EventChange,
    description:
      'Sends the event each time it changes: through the gateway (any replica), or upstream as polling finds within the polling interval.',
    args: {
      id: t.arg.id({ required: true, description: "The event's id." }),
      pollIntervalSeconds: t.arg.int({ description: POLL_ARG_HELP }),
    },
    subscribe: (_root, args, ctx) => {
      const id = recordId(args.id, 'id');
      const { live } = ctx;
      return watchAndListen(
        live,
        {
          upstream: 'calendar',
          identity: live.identity.calendar,
          resource: `event:${id}`,
          intervalMs: pollInterval(live, args.pollIntervalSeconds),
          read: async () => {
            const event = await live.fresh(true).calendar.client.getEvent(id, undefined, 'read', { background: true });
            return event ? fingerprint(event) : MISSING;
          },
          changed: (current) => {
            live.fresh(true).calendar.client.forgetEvents();
            live.bus.eventChanged({ id: String(id), origin: 'poll', deleted: current === MISSING });
          },
        },
        [live.bus.onEvent(String(id))],
      );
    },
    resolve: async (change: Change, _args, ctx) => {
      if (change.deleted) return { change, record: null };
      // The subscription's own scope resolves the nested fields and lives as long as it: what it read
      // for the last push (lists, records) must not answer this one.
      ctx.calendar.loaders.forget();
      // Past the cache: a change made upstream (or on another replica) may not have reached it yet.
      const scope = ctx.live.fresh().calendar;
      const wire = await scope.client.getEvent(Number(change.id), undefined, 'read', { background: false });
      return { change, record: wire ? scope.loaders.primeEvent(normalizeEvent(wire)) : null };
    },
  }),
  eventsChanged: t.field({
    ...requires('calendar:read'),
    type: EventsChange,
    description:
      'Sends the ids of events that change: every event changed through the gateway, and the events of the filtered list (its first page of 50) that polling finds changed, added or gone.',
    args: {
      filter: t.arg({ type: EventFilter, description: 'Which events polling watches (as `events(filter:)`).' }),
      pollIntervalSeconds: t.arg.int({ description: POLL_ARG_HELP }),
    },
    subscribe: (_root, args, ctx) => {
      const query = eventsQuery(args.filter);
      const scope = fingerprint(query);
      const { live } = ctx;
      return watchAndListen(
        live,
        {
          upstream: 'calendar',
          identity: live.identity.calendar,
          resource: `events:${scope}`,
          intervalMs: pollInterval(live, args.pollIntervalSeconds),
          read: async () => {
            const page = await live.fresh(true).calendar.client.listEvents(query, 1, 50, 'page', { background: true });
            return JSON.stringify(Object.fromEntries((page?.items ?? []).map((e) => [e.id, fingerprint(e)])));
          },
          changed: (current, previous) => {
            const now = JSON.parse(current) as Record<string, string>;
            const before = JSON.parse(previous) as Record<string, string>;
            const ids = [...new Set([...Object.keys(now), ...Object.keys(before)])].filter(
              (id) => now[id] !== before[id],
            );
            if (ids.length === 0) return;
            live.fresh(true).calendar.client.forgetEvents();
            live.bus.eventsChanged(scope, { ids, origin: 'poll' });
          },
        },
        [live.bus.onEvents('*'), live.bus.onEvents(scope)],
      );
    },
    resolve: (batch: ChangeBatch) => batch,
  }),
}));
