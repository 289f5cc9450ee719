/**
 * The calendar's delete payloads, in the graph's one delete shape `{ deletedId, node }` (see
 * `graph/delete-payload.ts`). The upstream answers a delete with the record (events, venues and
 * organizers as the trash left them, `postStatus: TRASH`; terms as they were), so `node` costs
 * nothing. The record fields clients read on the old payloads (`id`, and `status` of trashed posts)
 * stay, deprecated, until those clients move to `deletedId` and `node`.
 */
import type { ObjectRef } from '@pothos/core';
import { encodeGlobalId } from '../../core/global-id.js';
import { builder, type Types } from '../../graph/builder.js';
import { deletePayload, type Deleted } from '../../graph/delete-payload.js';
import { EventRef } from './refs.js';

const MOVE = 'Read `deletedId` (or `node { … }`): every delete in the graph answers `{ deletedId, node }`.';

/** The delete payload of a kind of record, `what` with its article; `trash`: a delete moves it there. */
export function calendarDeletePayload<T extends { id: number | string; status?: string | null }>(
  name: string,
  ref: ObjectRef<Types, T>,
  what: string,
  trash: boolean,
) {
  const noun = what.replace(/^an? /, '');
  const node = trash ? `The ${noun} as the trash left it (\`postStatus\` TRASH).` : `The ${noun} as it was.`;
  const type = deletePayload(name, ref, { what, idWord: 'id', node });
  builder.objectFields(type, (t) => ({
    id: t.id({
      nullable: false,
      description: "This answer's own id (once the deleted record's: that is `deletedId` now).",
      deprecationReason: MOVE,
      resolve: (p) => encodeGlobalId(name, p.deletedId),
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
  }));
  return type;
}

export const DeleteEventPayload = calendarDeletePayload('DeleteEventPayload', EventRef, 'an event', true);

/** A deleted record as its payload. */
export const deleted = <T extends { id: number | string }>(node: T): Deleted<T> => ({
  deletedId: String(node.id),
  node,
});
