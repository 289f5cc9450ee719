/**
 * Governance subscriptions: `entityChanged(id)`. The platform has no change feed (see the facts), so
 * changes made outside the gateway are found by polling the record.
 */
import { recordSubscription } from '../../live/schema-common.js';
import { entityVersion } from '../versions.js';
import { EntityRef } from './refs.js';
import { RECORD_IDS, uuidArg } from './validate.js';

recordSubscription('entityChanged', 'EntityChange', {
  field: 'entity',
  ref: EntityRef,
  words: { a: 'A record', the: 'The record', id: "The record's id, or its uuid (`databaseId`)." },
  permission: 'governance:read',
  upstream: 'governance',
  id: (arg) => uuidArg(arg, 'id', RECORD_IDS),
  resource: 'entity',
  poll: async (live, id, caller) => {
    const entity = await live.fresh(true, caller).governance.client.getEntity(id, { background: true });
    return entity ? entityVersion(entity) : null;
  },
  // Pushes are read in full (`read` below); a link end never reaches a subscription.
  version: (e) => ('auditFields' in e ? entityVersion(e) : ''),
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
