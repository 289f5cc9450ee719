/**
 * Governance writes that depend on what they read. An entity update runs under the record's write
 * lock (see `core/record-locks.ts`); with a precondition (`expectedVersion`) the entity is read
 * past the cache inside the lock and a stale version is a CONFLICT that writes nothing. Updates are
 * partial upstream, so only a precondition needs the read.
 */
import { versionConflict } from '../core/errors.js';
import type { RecordLocks } from '../core/record-locks.js';
import type { GovernanceClient } from './client.js';
import { entityVersion } from './versions.js';
import type { EntityInformation, EntityUpdateRequest } from './wire.js';

const lockKey = (kind: string, id: string) => `governance:${kind}:${id}`;

export class GovernanceWrites {
  constructor(
    private readonly client: GovernanceClient,
    private readonly locks: RecordLocks,
    private readonly signal?: AbortSignal,
  ) {}

  /** The entity as written; null when there is no entity with that id. */
  updateEntity(id: string, body: EntityUpdateRequest, expectedVersion?: string | null) {
    return this.locks.run(
      'governance',
      lockKey('entity', id),
      async (lock): Promise<EntityInformation | null> => {
        if (expectedVersion != null) {
          const current = await this.client.getEntity(id, true);
          if (!current) return null;
          const version = entityVersion(current);
          if (version !== expectedVersion) throw versionConflict(version);
        }
        lock.check();
        return this.client.updateEntity(id, body);
      },
      this.signal,
    );
  }
}
