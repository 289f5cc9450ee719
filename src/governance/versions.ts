/** The version of a governance entity (`expectedVersion` of its writes): see `src/core/versions.ts`. */
import { versionOf } from '../core/versions.js';
import type { EntityInformation } from './model.js';

export const entityVersion = (e: EntityInformation): string =>
  versionOf([
    'entity',
    e.name,
    e.orgGroupId ?? null,
    e.entityDetail ?? null,
    e.attributes ?? null,
    e.workflowAndStage?.stageId ?? null,
  ]);
