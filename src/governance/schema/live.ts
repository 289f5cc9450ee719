/**
 * Governance subscriptions: `entityChanged(id)`. The bus carries ids only; each subscriber re-reads
 * the record with its own credential. The platform has no change feed (see the facts), so changes
 * made outside the gateway are found by polling the record at the lowest priority.
 */
import { builder } from '../../graph/builder.js';
import type { Change } from '../../live/changes.js';
import { fingerprint } from '../../live/polling.js';
import { ChangeOrigin, POLL_ARG_HELP } from '../../live/schema-common.js';
import { pollInterval, watchAndListen } from '../../live/subscribe.js';
import type { EntityInformation } from '../wire.js';
import { EntityRef } from './refs.js';
import { uuidArg } from './validate.js';

const MISSING = 'missing';

const EntityChange = builder.objectRef<{ change: Change; entity: EntityInformation | null }>('EntityChange').implement({
  description: "A record changed; `entity` is it as the subscriber's credential reads it now.",
  fields: (t) => ({
    id: t.id({ nullable: false, description: "The record's uuid.", resolve: (c) => c.change.id }),
    origin: t.field({
      type: ChangeOrigin,
      nullable: false,
      description: 'How the gateway learned of the change.',
      resolve: (c) => c.change.origin,
    }),
    deleted: t.boolean({
      nullable: false,
      description: 'Whether the record is gone: `entity` is then null.',
      resolve: (c) => Boolean(c.change.deleted) || c.entity === null,
    }),
    entity: t.field({
      type: EntityRef,
      nullable: true,
      description: "The record now, read with the subscriber's credential; null when it no longer reads.",
      resolve: (c) => c.entity,
    }),
  }),
});

builder.subscriptionField('entityChanged', (t) =>
  t.field({
    type: EntityChange,
    description:
      'Sends the record each time it changes: through the gateway (any replica), or upstream as polling finds within the polling interval.',
    args: {
      id: t.arg.id({ required: true, description: "The record's uuid." }),
      pollIntervalSeconds: t.arg.int({ description: POLL_ARG_HELP }),
    },
    subscribe: (_root, args, ctx) => {
      const id = uuidArg(args.id, 'id');
      const { live } = ctx;
      return watchAndListen(
        live,
        {
          upstream: 'governance',
          identity: live.identity.governance,
          resource: `entity:${id}`,
          intervalMs: pollInterval(live, args.pollIntervalSeconds),
          read: async () => {
            const entity = await live.fresh(true).governance.client.getEntity(id, { background: true });
            return entity ? fingerprint(entity) : MISSING;
          },
          changed: (current) => {
            live.fresh(true).governance.client.changedElsewhere(id);
            live.bus.entityChanged({ id, origin: 'poll', deleted: current === MISSING });
          },
        },
        [live.bus.onEntity(id)],
      );
    },
    resolve: async (change: Change, _args, ctx) => {
      if (change.deleted) return { change, entity: null };
      // Past the cache: a change made upstream (or on another replica) may not have reached it yet.
      const scope = ctx.live.fresh().governance;
      const entity = await scope.client.getEntity(change.id, { background: false });
      if (entity) scope.loaders.primeEntities([entity]);
      return { change, entity };
    },
  }),
);
