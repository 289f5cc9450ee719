/**
 * Calendar subscriptions: `eventChanged(id)` and `eventsChanged(filter)`. Payloads on the change bus
 * carry ids only; each subscriber re-reads the event with its own credential (fresh loaders per
 * update). Polling reads past the cache at the lowest priority (see `src/live/polling.ts`).
 */
import { isUpstreamError } from '../../core/errors.js';
import { encodeGlobalId } from '../../core/global-id.js';
import { UPSTREAM_PAGE_SIZE } from '../../core/pages.js';
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import { badInput } from '../../graph/errors.js';
import type { ChangeBatch } from '../../live/changes.js';
import { fingerprint } from '../../live/polling.js';
import { ChangeOrigin, POLL_ARG_HELP, recordSubscription } from '../../live/schema-common.js';
import { isExpired, liveStream, newVersionsOnly, pollInterval, watchAndListen } from '../../live/subscribe.js';
import { eventsQuery, recordId } from '../inputs.js';
import { normalizeEvent } from '../normalize.js';
import { eventVersion } from '../versions.js';
import { EventFilter } from './event-filter.js';
import { EventRef } from './refs.js';
import { ownJson } from '../../core/records.js';

recordSubscription('eventChanged', 'EventChange', {
  field: 'event',
  ref: EventRef,
  words: { a: 'An event', the: 'The event', id: "The event's id, or its WordPress id (`databaseId`)." },
  gone: ' (trashed or deleted)',
  permission: 'calendar:read',
  upstream: 'calendar',
  id: (arg) => String(recordId(arg, 'id', 'event')),
  resource: 'event',
  poll: async (live, id, caller) => {
    const client = live.fresh(true, caller).calendar.client;
    // A trashed event reads as GONE (403 event-no-longer-available): it is gone, not a failed poll.
    const wire = await client.getEvent(Number(id), undefined, 'read', { background: true }).catch((e: unknown) => {
      if (isUpstreamError(e) && e.kind === 'gone') return null;
      throw e;
    });
    return wire ? eventVersion(normalizeEvent(wire)) : null;
  },
  version: eventVersion,
  changed: (live, change) => {
    live.fresh(true).calendar.client.forgetEvents();
    live.bus.eventChanged(change);
  },
  read: async (ctx, id) => {
    ctx.calendar.loaders.forget();
    const scope = ctx.live.fresh().calendar;
    const wire = await scope.client.getEvent(Number(id), undefined, 'read', { background: false });
    return wire ? scope.loaders.primeEvent(normalizeEvent(wire)) : null;
  },
});

const EventsChange = builder.objectRef<ChangeBatch>('EventsChange').implement({
  description: 'Events that changed; read the ones you show again (e.g. `events(filter: { include: ids })`).',
  fields: (t) => ({
    ids: t.idList({
      nullable: false,
      description: 'The ids of the changed events (global ids, as `Event.id`).',
      resolve: (b) => b.ids.map((id) => encodeGlobalId('Event', id)),
    }),
    origin: t.expose('origin', {
      type: ChangeOrigin,
      nullable: false,
      description: 'How the gateway learned of the change.',
    }),
  }),
});

builder.subscriptionField('eventsChanged', (t) =>
  t.field({
    ...requires('calendar:read'),
    type: EventsChange,
    description:
      'Sends the ids of events that change: every event changed through the gateway, and the events of the filtered list (its first page of 50) that polling finds changed, added or gone. An id is sent once per version of its event, whichever way the change was learned first.',
    args: {
      filter: t.arg({ type: EventFilter, description: 'Which events polling watches (as `events(filter:)`).' }),
      pollIntervalSeconds: t.arg.int({ description: POLL_ARG_HELP }),
    },
    subscribe: (_root, args, ctx) => {
      const query = eventsQuery(args.filter);
      if (args.filter?.exclude?.length)
        throw badInput(
          '"filter.exclude" is for lists: a subscription sends the ids of every change.',
          'filter.exclude',
        );
      const scope = fingerprint(query);
      const { live } = ctx;
      const batches = newVersionsOnly(
        watchAndListen(
          live,
          {
            upstream: 'calendar',
            identity: live.identity.calendar,
            resource: `events:${scope}`,
            intervalMs: pollInterval(live, args.pollIntervalSeconds),
            caller: live.caller,
            read: async (caller) => {
              const page = await live
                .fresh(true, caller)
                .calendar.client.listEvents(query, 1, UPSTREAM_PAGE_SIZE, 'page', { background: true });
              const items = page?.items ?? [];
              return JSON.stringify(Object.fromEntries(items.map((e) => [e.id, eventVersion(normalizeEvent(e))])));
            },
            changed: (current, previous) => {
              const now = ownJson<Record<string, string>>(current);
              const before = ownJson<Record<string, string>>(previous);
              const ids = [...new Set([...Object.keys(now), ...Object.keys(before)])].filter(
                (id) => now[id] !== before[id],
              );
              if (ids.length === 0) return;
              live.fresh(true).calendar.client.forgetEvents();
              const versions = Object.fromEntries(ids.filter((id) => now[id]).map((id) => [id, now[id]!]));
              live.bus.eventsChanged(scope, { ids, origin: 'poll', versions });
            },
          },
          [live.bus.onEvents('*'), live.bus.onEvents(scope)],
        ),
      );
      return liveStream(live, batches);
    },
    resolve: (batch) => {
      if (isExpired(batch)) throw batch.expired;
      return batch;
    },
  }),
);
