/** GraphQL pieces shared by the two upstreams' subscriptions. */
import type { ObjectRef } from '@pothos/core';
import { builder, type SchemaTypes } from '../graph/builder.js';
import type { Change } from './changes.js';

export const ChangeOrigin = builder.enumType('ChangeOrigin', {
  description: 'How the gateway learned of a change.',
  values: {
    GATEWAY: { value: 'gateway', description: 'A mutation through the gateway (any replica).' },
    POLL: { value: 'poll', description: 'Polling the upstream found it (a change made outside the gateway).' },
  } as const,
});

export const POLL_ARG_HELP =
  'How often to look for changes made outside the gateway, in seconds; from 5 to 300, 30 when omitted. One poller serves every subscriber with the same credential, at the shortest interval asked for.';

/** What a one-record subscription sends: the change, and the record as the subscriber reads it now. */
export interface RecordChange<T> {
  change: Change;
  record: T | null;
}

/**
 * The payload type of a one-record subscription (`entityChanged`, `eventChanged`): the id, how the
 * change was learned, whether the record is gone, and the record under its own field name.
 */
export function recordChangeType<T>(
  name: string,
  o: {
    /** The record's field, e.g. `entity`. */
    field: string;
    ref: ObjectRef<PothosSchemaTypes.ExtendDefaultTypes<SchemaTypes>, T>;
    /** How the texts name it: `{ a: 'A record', the: 'The record', id: "The record's uuid." }`. */
    words: { a: string; the: string; id: string };
    /** Said after "is gone", e.g. ` (trashed or deleted)`. */
    gone?: string;
  },
) {
  const noun = o.words.the.replace(/^The /, 'the ');
  return builder.objectRef<RecordChange<T>>(name).implement({
    description: `${o.words.a} changed; \`${o.field}\` is it as the subscriber's credential reads it now.`,
    fields: (t) => ({
      id: t.id({ nullable: false, description: o.words.id, resolve: (c) => c.change.id }),
      origin: t.field({
        type: ChangeOrigin,
        nullable: false,
        description: 'How the gateway learned of the change.',
        resolve: (c) => c.change.origin,
      }),
      deleted: t.boolean({
        nullable: false,
        description: `Whether ${noun} is gone${o.gone ?? ''}: \`${o.field}\` is then null.`,
        resolve: (c) => Boolean(c.change.deleted) || c.record === null,
      }),
      [o.field]: t.field({
        type: o.ref,
        description: `${o.words.the} now, read with the subscriber's credential; null when it no longer reads.`,
        // Pothos cannot work out its result type for a generic T; `ref` is the record's own type.
        resolve: (c) => c.record as never,
      }),
    }),
  });
}
