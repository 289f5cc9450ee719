/**
 * The graph as an Apollo Federation v2 subgraph: these types are entities keyed by `id` (the
 * upstream's own id), so other subgraphs can reference and extend them. A router's `_entities`
 * representations resolve through the request's own DataLoaders, so 100 representations of the
 * same few records cost one upstream read per distinct record, under the same traffic control as
 * any other field. Unknown or malformed ids resolve to null.
 */
import { demand } from '../graph/auth.js';
import { builder } from '../graph/builder.js';
import { CategoryRef, EventRef, OrganizerRef, TagRef, VenueRef } from '../calendar/schema/refs.js';
import { EntityRef, EntityTypeRef } from '../governance/schema/refs.js';

const byId = builder.selection<{ id: string }>('id');

/** Calendar records are WordPress post and term ids: positive integers. */
function postId(id: string): number | undefined {
  const n = Number(id);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

builder.asEntity(EntityRef, {
  key: byId,
  resolveReference: ({ id }, ctx) => {
    demand(ctx, 'governance:read', '_entities');
    return ctx.governance.loaders.entity.load(id);
  },
});
builder.asEntity(EntityTypeRef, {
  key: byId,
  resolveReference: ({ id }, ctx) => {
    demand(ctx, 'governance:read', '_entities');
    return ctx.governance.loaders.entityType.load(id);
  },
});

const calendarEntities = [
  [EventRef, 'event'],
  [VenueRef, 'venue'],
  [OrganizerRef, 'organizer'],
  [CategoryRef, 'category'],
  [TagRef, 'tag'],
] as const;
for (const [ref, loader] of calendarEntities) {
  builder.asEntity(ref, {
    key: byId,
    resolveReference: ({ id }, ctx) => {
      demand(ctx, 'calendar:read', '_entities');
      const n = postId(id);
      // Each loader returns its own record type; the ref it is paired with above expects exactly that.
      return n === undefined ? null : ctx.calendar.loaders[loader].load(n);
    },
  });
}
