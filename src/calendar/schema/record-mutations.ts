/**
 * Writes of venues, organizers, categories and tags: `create…`, `update…` and `delete…` of each, alike
 * but for the record. Venues and organizers are found by id or slug, and their deletes move them to the
 * trash and return them; categories and tags are found by term id, have no trash and are deleted for good.
 * A create is idempotent by `clientMutationId` or the `Idempotency-Key` header.
 */
import type { ArgBuilder, ArgumentRef, InputObjectRef, ObjectRef } from '@pothos/core';
import { requires } from '../../graph/auth.js';
import { builder, type Types } from '../../graph/builder.js';
import type { Deleted } from '../../graph/delete-payload.js';
import { idempotentCreate } from '../../graph/idempotency.js';
import { refuseNulls } from '../../graph/update-input.js';
import { CLIENT_MUTATION_ID_HELP, EXPECTED_VERSION_HELP } from '../../graph/write-args.js';
import { recordId, recordRef } from '../inputs.js';
import type { CalendarWrites } from '../writes.js';
import {
  CreateCategoryInput,
  CreateTagInput,
  CreateOrganizerInput,
  UpdateCategoryInput,
  UpdateOrganizerInput,
  UpdateTagInput,
  UpdateVenueInput,
  CreateVenueInput,
} from './record-inputs.js';
import { calendarDeletePayload, deleted } from './delete-payloads.js';
import { CategoryRef, OrganizerRef, TagRef, VenueRef } from './refs.js';

type Name = 'Venue' | 'Organizer' | 'Category' | 'Tag';

/** What the writer (`../writes.ts`) takes and gives for a kind of record, by its methods' names. */
type Input<N extends Name> = Parameters<CalendarWrites[`create${N}`]>[0];
type Written<N extends Name> = Awaited<ReturnType<CalendarWrites[`create${N}`]>>;
type At<N extends Name> = Parameters<CalendarWrites[`delete${N}`]>[0];

/** The types of a kind of record: the record, and its create and update inputs. */
interface RecordKind<N extends Name> {
  ref: ObjectRef<Types, Written<N>>;
  inputs: [create: InputObjectRef<Types, Input<N>>, update: InputObjectRef<Types, Input<N>>];
}

const RECORDS: { [N in Name]: RecordKind<N> } = {
  Venue: { ref: VenueRef, inputs: [CreateVenueInput, UpdateVenueInput] },
  Organizer: { ref: OrganizerRef, inputs: [CreateOrganizerInput, UpdateOrganizerInput] },
  Category: { ref: CategoryRef, inputs: [CreateCategoryInput, UpdateCategoryInput] },
  Tag: { ref: TagRef, inputs: [CreateTagInput, UpdateTagInput] },
};

/**
 * `createVenue`, `updateVenue` and `deleteVenue` of the writer, or another kind's. (TypeScript cannot
 * pick one method of the union by a generic name: each call says what the method of `N` takes and gives.)
 */
function writerOf<N extends Name>(writes: CalendarWrites, name: N) {
  return {
    create: (input: Input<N>) => writes[`create${name}`](input) as Promise<Written<N>>,
    update: (at: At<N>, input: Input<N>, version?: string) =>
      writes[`update${name}`](at as never, input, version) as Promise<Written<N>>,
    remove: (at: At<N>) => writes[`delete${name}`](at as never) as Promise<Written<N>>,
  };
}

type Locator = { id?: string | number | null; slug?: string | null };
type LocatorArgs = { id: ArgumentRef<Types, Locator['id']>; slug?: ArgumentRef<Types, Locator['slug']> };

/** A post (venue, organizer): found by id or slug; a delete moves it to the trash. */
function postMutations<N extends 'Venue' | 'Organizer'>(name: N, what: string) {
  const noun = name.toLowerCase() as 'venue' | 'organizer';
  recordMutations(name, what, {
    args: (arg) => ({
      id: arg.id({ description: `The ${noun}'s id.` }),
      slug: arg.string({ description: `The ${noun}'s slug.` }),
    }),
    locate: (args) => recordRef(args, noun) as At<N>,
    update: `Changes the given fields of ${what} found by id or slug.`,
    remove: `Moves ${what} found by id or slug to the trash; NOT_FOUND when there is no such ${noun}, GONE when it is already in the trash.`,
    payload: calendarDeletePayload(`Delete${name}Payload`, RECORDS[name].ref, what, true),
  });
}

/** A term (category, tag): found by its term id; a delete is for good. */
function termMutations<N extends 'Category' | 'Tag'>(name: N, what: string) {
  const noun = name.toLowerCase() as 'category' | 'tag';
  recordMutations(name, what, {
    args: (arg) => ({ id: arg.id({ required: true, description: `The ${noun}'s term id.` }) }),
    locate: (args) => recordId(args.id!, 'id', noun) as At<N>,
    update: `Changes the given fields of ${what}.`,
    remove: `Deletes ${what} for good (terms have no trash); NOT_FOUND when there is no such ${noun}.`,
    payload: calendarDeletePayload(`Delete${name}Payload`, RECORDS[name].ref, `a ${noun}`, false),
  });
}

/**
 * `create<Name>`, `update<Name>` and `delete<Name>`; `what` names the record with its article, as the
 * descriptions do (`a venue`, `an event category`).
 */
function recordMutations<N extends Name>(
  name: N,
  what: string,
  by: {
    args: (arg: ArgBuilder<Types>) => LocatorArgs;
    locate: (args: Locator) => At<N>;
    update: string;
    remove: string;
    payload: ObjectRef<Types, Deleted<Written<N>>>;
  },
) {
  // Pothos cannot work out field types from a generic record or input either: the refs are seen as of
  // any record (its id) and any input object.
  const kind = RECORDS[name];
  const ref = kind.ref as unknown as ObjectRef<Types, { id: number }>;
  const payload = by.payload as unknown as ObjectRef<Types, Deleted<{ id: number }>>;
  const [createInput, updateInput] = kind.inputs as unknown as [
    InputObjectRef<Types, object>,
    InputObjectRef<Types, object>,
  ];
  builder.mutationFields((t) => ({
    [`create${name}`]: t.field({
      ...requires('calendar:write'),
      type: ref,
      description: `Creates ${what}.`,
      args: {
        input: t.arg({ type: createInput, required: true, description: `The new ${name.toLowerCase()}.` }),
        clientMutationId: t.arg.string({ description: CLIENT_MUTATION_ID_HELP }),
      },
      resolve: (_root, args, ctx, info) =>
        idempotentCreate(
          ctx.idempotency,
          info,
          { upstream: 'calendar', identity: ctx.calendar.client.writerIdentity },
          args.input,
          args.clientMutationId,
          () => writerOf(ctx.calendar.writes, name).create(args.input as Input<N>),
        ),
    }),
    [`update${name}`]: t.field({
      ...requires('calendar:write'),
      type: ref,
      description: by.update,
      args: {
        ...by.args(t.arg),
        input: t.arg({ type: updateInput, required: true, description: 'The changes.' }),
        expectedVersion: t.arg.string({ description: EXPECTED_VERSION_HELP }),
      },
      resolve: (_root, args, ctx) => {
        const at = by.locate(args);
        refuseNulls(args.input);
        return writerOf(ctx.calendar.writes, name).update(at, args.input, args.expectedVersion ?? undefined);
      },
    }),
    [`delete${name}`]: t.field({
      ...requires('calendar:write'),
      type: payload,
      description: by.remove,
      args: by.args(t.arg),
      resolve: async (_root, args, ctx) => deleted(await writerOf(ctx.calendar.writes, name).remove(by.locate(args))),
    }),
  }));
}

postMutations('Venue', 'a venue');
postMutations('Organizer', 'an organizer');
termMutations('Category', 'an event category');
termMutations('Tag', 'an event tag');
