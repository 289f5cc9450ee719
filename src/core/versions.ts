/**
 * Opaque record versions for optimistic concurrency: a hash of a record's writable fields. Not the
 * upstream's modification time: WordPress's `modified` has one-second resolution and misses edits
 * made within the same second; the hash changes with every change that matters to an edit form.
 */
import { createHash } from 'node:crypto';

export function versionOf(fields: unknown): string {
  return createHash('sha256').update(JSON.stringify(fields)).digest('base64url').slice(0, 22);
}
