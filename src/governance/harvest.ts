/**
 * The governance entities an answer holds that may answer a later read by id (see
 * `core/harvest.ts`). What each source carries against `GET /entities/{id}` (EntityInformation;
 * the openapi file's examples and the emulator's render.ts):
 *
 * | source                                     | carries                                     | kept  |
 * | ------------------------------------------ | ------------------------------------------- | ----- |
 * | `POST /entities/search` item               | EntityInformation, every field              | yes   |
 * | `POST /entities`, `PATCH /entities/{id}`   | EntityInformation, every field              | yes   |
 * | `POST /entity-basic-details/search` item   | id, number, name, displayLabel, type, org   | never |
 * | related-entities page `source`/`target`    | id, number, name, type, deleted             | never |
 * | stage move answer                          | the stage, not the entity                   | never |
 */
import { isRecord } from '../core/records.js';

export interface HeldEntity {
  id: string;
  body: unknown;
}

/** The whole entities among `items` (a full-details page's `content`, or a write's answer). */
export function heldEntities(items: unknown): HeldEntity[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((body: unknown) => {
    const id = isRecord(body) ? body.id : undefined;
    return typeof id === 'string' ? [{ id, body }] : [];
  });
}
