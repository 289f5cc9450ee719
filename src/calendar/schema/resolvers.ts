/**
 * The resolvers the calendar's record mutations share: a create made idempotent by
 * `clientMutationId` or the `Idempotency-Key` header, an update by id or slug (or term id) with an
 * optional `expectedVersion`, and a delete that answers `{ deletedId, node }`.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../graph/context.js';
import { idempotentCreate } from '../../graph/idempotency.js';
import { refuseNulls } from '../../graph/update-input.js';
import type { RecordRef } from '../client.js';
import { recordId, recordRef } from '../inputs.js';
import type { CalendarWrites } from '../writes.js';
import { deleted } from './delete-payloads.js';

export function createResolver<I, T>(create: (writes: CalendarWrites, input: I, ctx: Context) => Promise<T>) {
  return (
    _root: unknown,
    args: { input: I; clientMutationId?: string | null },
    ctx: Context,
    info: GraphQLResolveInfo,
  ): Promise<T> =>
    idempotentCreate(
      ctx.idempotency,
      info,
      { upstream: 'calendar', identity: ctx.calendar.client.writerIdentity },
      args.input,
      args.clientMutationId,
      () => create(ctx.calendar.writes, args.input, ctx),
    );
}

type ByIdOrSlug = { id?: string | number | null; slug?: string | null };

/** Update of a venue or organizer found by id or slug. */
export function updateByRefResolver<I extends object, T>(
  what: string,
  update: (writes: CalendarWrites, ref: RecordRef, input: I, expectedVersion?: string) => Promise<T>,
) {
  return (_root: unknown, args: ByIdOrSlug & { input: I; expectedVersion?: string | null }, ctx: Context) => {
    const ref = recordRef(args, what);
    refuseNulls(args.input, 'input');
    return update(ctx.calendar.writes, ref, args.input, args.expectedVersion ?? undefined);
  };
}

/** Update of a category or tag by its term id. */
export function updateByIdResolver<I extends object, T>(
  update: (writes: CalendarWrites, id: number, input: I, expectedVersion?: string) => Promise<T>,
) {
  return (_root: unknown, args: { id: string | number; input: I; expectedVersion?: string | null }, ctx: Context) => {
    const id = recordId(args.id, 'id');
    refuseNulls(args.input, 'input');
    return update(ctx.calendar.writes, id, args.input, args.expectedVersion ?? undefined);
  };
}

/** Delete of a venue or organizer by id or slug (to the trash), answered as `{ deletedId, node }`. */
export function deleteByRefResolver<T extends { id: number }>(
  what: string,
  remove: (writes: CalendarWrites, ref: RecordRef) => Promise<T>,
) {
  return async (_root: unknown, args: ByIdOrSlug, ctx: Context) =>
    deleted(await remove(ctx.calendar.writes, recordRef(args, what)));
}

/** Delete of a category or tag for good, answered as `{ deletedId, node }`. */
export function deleteByIdResolver<T extends { id: number }>(
  remove: (writes: CalendarWrites, id: number) => Promise<T>,
) {
  return async (_root: unknown, args: { id: string | number }, ctx: Context) =>
    deleted(await remove(ctx.calendar.writes, recordId(args.id, 'id')));
}
