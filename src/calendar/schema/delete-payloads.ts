/**
 * The calendar's delete payloads, in the graph's one delete shape `{ deletedId, node }` (see
 * `graph/delete-payload.ts`). The upstream answers a delete with the record (events, venues and
 * organizers as the trash left them, `postStatus: TRASH`; terms as they were), so `node` costs
 * nothing. The record fields clients read on the old payloads (`id`, and `status` of trashed posts)
 * stay, deprecated, until those clients move to `deletedId` and `node`.
 */
import { builder } from '../../graph/builder.js';
import type { Deleted } from '../../graph/delete-payload.js';
import type { CalendarEvent, CalendarOrganizer, CalendarTerm, CalendarVenue } from '../model.js';
import { CategoryRef, EventRef, OrganizerRef, TagRef, VenueRef } from './refs.js';

const MOVE = 'Read `deletedId` (or `node { … }`): every delete in the graph answers `{ deletedId, node }`.';

function payload<T extends { id: number | string; status?: string | null }>(
  name: string,
  ref: typeof EventRef | typeof VenueRef | typeof OrganizerRef | typeof CategoryRef,
  what: string,
  trash: boolean,
) {
  return builder.objectRef<Deleted<T>>(name).implement({
    description: `The result of deleting ${what}.`,
    fields: (t) => ({
      deletedId: t.exposeID('deletedId', {
        nullable: false,
        description: `The id of the ${what.replace(/^an? /, '')} that was deleted.`,
      }),
      node: t.field({
        type: ref as typeof EventRef,
        description: trash
          ? `The ${what.replace(/^an? /, '')} as the trash left it (\`postStatus\` TRASH).`
          : `The ${what.replace(/^an? /, '')} as it was.`,
        resolve: (p) => p.node as unknown as CalendarEvent,
      }),
      id: t.id({
        nullable: false,
        description: 'The id of the deleted record (the same as `deletedId`).',
        deprecationReason: MOVE,
        resolve: (p) => p.deletedId,
      }),
      ...(trash
        ? {
            status: t.string({
              description: "The record's post status after the delete, `trash`.",
              deprecationReason: MOVE,
              resolve: (p) => p.node?.status ?? null,
            }),
          }
        : {}),
    }),
  });
}

export const DeleteEventPayload = payload<CalendarEvent>('DeleteEventPayload', EventRef, 'an event', true);
export const DeleteVenuePayload = payload<CalendarVenue>('DeleteVenuePayload', VenueRef, 'a venue', true);
export const DeleteOrganizerPayload = payload<CalendarOrganizer>(
  'DeleteOrganizerPayload',
  OrganizerRef,
  'an organizer',
  true,
);
export const DeleteCategoryPayload = payload<CalendarTerm>('DeleteCategoryPayload', CategoryRef, 'a category', false);
export const DeleteTagPayload = payload<CalendarTerm>('DeleteTagPayload', TagRef, 'a tag', false);

/** A deleted record as its payload. */
export const deleted = <T extends { id: number | string }>(node: T): Deleted<T> => ({
  deletedId: String(node.id),
  node,
});
