/**
 * Governance subscriptions: `entityChanged(id)`. The bus carries ids only; each subscriber re-reads
 * the record with its own credential. The platform has no change feed (see the facts), so changes
 * made outside the gateway are found by polling the record at the lowest priority.
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import type { Change } from '../../live/changes.js';
import { fingerprint } from '../../live/polling.js';
import { POLL_ARG_HELP, recordChangeType } from '../../live/schema-common.js';
import { pollInterval, watchAndListen } from '../../live/subscribe.js';
import { EntityRef } from './refs.js';
import { uuidArg } from './validate.js';

const MISSING = 'missing';

const EntityChange = recordChangeType('EntityChange', {
  field: 'entity',
  ref: EntityRef,
  words: { a: 'A record', the: 'The record', id: "The record's uuid." },
});

builder.subscriptionField('entityChanged', (t) =>
  t.field({
    ...requires('governance:read'),
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
      if (change.deleted) return { change, record: null };
      // The subscription's own scope resolves the nested fields and lives as long as it: what it read
      // for the last push (links pages, records) must not answer this one.
      ctx.governance.loaders.forgetAll();
      // Past the cache: a change made upstream (or on another replica) may not have reached it yet.
      const scope = ctx.live.fresh().governance;
      const entity = await scope.client.getEntity(change.id, { background: false });
      if (entity) scope.loaders.primeEntities([entity]);
      return { change, record: entity };
    },
  }),
);
