/**
 * Governance subscriptions: `entityChanged(id)`. The platform has no change feed (see the facts), so
 * changes made outside the gateway are found by polling the record.
 */
import { recordSubscription } from '../../live/schema-common.js';
import { entityVersion } from '../versions.js';
import { EntityRef } from './refs.js';
import { uuidArg } from './validate.js';

recordSubscription('entityChanged', 'EntityChange', {
  field: 'entity',
  ref: EntityRef,
  words: { a: 'A record', the: 'The record', id: "The record's uuid." },
  permission: 'governance:read',
  upstream: 'governance',
  id: (arg) => uuidArg(arg, 'id'),
  resource: 'entity',
  poll: async (live, id, caller) => {
    const entity = await live.fresh(true, caller).governance.client.getEntity(id, { background: true });
    return entity ? entityVersion(entity) : null;
  },
  version: entityVersion,
  changed: (live, change) => {
    live.fresh(true).governance.client.changedElsewhere(change.id);
    live.bus.entityChanged(change);
  },
  read: async (ctx, id) => {
    ctx.governance.loaders.forgetAll();
    const scope = ctx.live.fresh().governance;
    const entity = await scope.client.getEntity(id, { background: false });
    if (entity) scope.loaders.primeEntities([entity]);
    return entity;
  },
});
