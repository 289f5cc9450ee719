/**
 * An `Entity` may come as a link end (`GovernanceLinkEnd`): id, name, type and a few options. A field
 * beyond those loads the full record, once per request through the entity loader, as `Entity.type`
 * loads the full type; the cost model counts that read on the link's end fields (`freeBelow`).
 */
import { UpstreamError } from '../../core/errors.js';
import type { Context } from '../../graph/context.js';
import type { EntityInformation } from '../model.js';
import type { EntityShape } from './refs.js';

const isFull = (e: EntityShape): e is EntityInformation => 'auditFields' in e;

export async function fullEntity(e: EntityShape, ctx: Context): Promise<EntityInformation> {
  if (isFull(e)) return e;
  const loaded = await ctx.governance.loaders.entity.load(e.id);
  if (!loaded) throw new UpstreamError('governance', 'not-found', 'The record this link leads to no longer exists.');
  return loaded;
}

/** A resolver of what only the full record holds. */
export const full =
  <R>(read: (e: EntityInformation) => R) =>
  async (e: EntityShape, _args: unknown, ctx: Context): Promise<R> =>
    read(await fullEntity(e, ctx));
