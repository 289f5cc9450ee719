/** GraphQL pieces shared by the two upstreams' subscriptions. */
import type { ObjectRef } from '@pothos/core';
import type { UpstreamName } from '../core/errors.js';
import { encodeGlobalId } from '../core/global-id.js';
import { requires } from '../graph/auth.js';
import { builder, type Types } from '../graph/builder.js';
import { lowerCaseValues } from '../graph/enum-values.js';
import type { Context } from '../graph/context.js';
import type { Change } from './changes.js';
import type { LiveScope } from './scope.js';
import { isExpired, liveStream, onePerVersion, pollInterval, watchAndListen, type RecordChange } from './subscribe.js';

export const ChangeOrigin = builder.enumType('ChangeOrigin', {
  description: 'How the gateway learned of a change.',
  values: lowerCaseValues({
    GATEWAY: 'A mutation through the gateway (any replica).',
    POLL: 'Polling the upstream found it (a change made outside the gateway).',
  }),
});

export const POLL_ARG_HELP =
  'How often to look for changes made outside the gateway, in seconds; from 5 to 300, 30 when omitted. One poller serves every subscriber with the same credential, at the shortest interval asked for.';

/**
 * The payload type of a one-record subscription (`entityChanged`, `eventChanged`): the id, how the
 * change was learned, whether the record is gone, and the record under its own field name.
 */
interface RecordChangeOptions<T> {
  /** The record's field, e.g. `entity`. */
  field: string;
  ref: ObjectRef<Types, T>;
  /** How the texts name it: `{ a: 'A record', the: 'The record', id: "The record's uuid." }`. */
  words: { a: string; the: string; id: string };
  /** Said after "is gone", e.g. ` (trashed or deleted)`. */
  gone?: string;
}

function recordChangeType<T>(name: string, o: RecordChangeOptions<T>) {
  const noun = o.words.the.replace(/^The /, 'the ');
  return builder.objectRef<RecordChange<T>>(name).implement({
    description: `${o.words.a} changed; \`${o.field}\` is it as the subscriber's credential reads it now.`,
    fields: (t) => ({
      id: t.id({
        nullable: false,
        description: `The change's own id, one per record (global, as every \`id\`): ${noun}'s is \`${o.field}.id\`.`,
        resolve: (c) => encodeGlobalId(name, c.change.id),
      }),
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

const MISSING = 'missing';

/**
 * A one-record subscription (`entityChanged(id)`, `eventChanged(id)`): the record each time it
 * changes, through the gateway (any replica, on the change bus) or upstream, as a poller with the
 * subscriber's credential finds at the lowest priority. The bus carries ids only: each push re-reads
 * the record with the subscriber's credential.
 */
export function recordSubscription<T>(
  field: string,
  type: string,
  o: RecordChangeOptions<T> & {
    permission: Parameters<typeof requires>[0];
    upstream: UpstreamName;
    /** The `id` argument's check. */
    id: (arg: string | number) => string;
    /** What the bus carries, and polling watches as `<resource>:<id>` (its version past the cache; null when gone). */
    resource: 'entity' | 'event';
    /** Reads for `caller`: charged to its share. */
    poll: (live: LiveScope, id: string, caller: string) => Promise<string | null>;
    /** The record's version (`expectedVersion`'s): what a change is told apart by. */
    version: (record: T) => string;
    /** Polling found a change: forget what the cache holds of the record, and publish the change. */
    changed: (live: LiveScope, change: Change) => void;
    /**
     * The record for one push. The subscription's own scope resolves the nested fields and lives as
     * long as it: `read` forgets what it read for the last push, and reads past the cache (a change made
     * upstream, or on another replica, may not have reached it yet).
     */
    read: (ctx: Context, id: string) => Promise<T | null>;
  },
) {
  builder.subscriptionField(field, (t) =>
    t.field({
      ...requires(o.permission),
      type: recordChangeType(type, o),
      description: `Sends ${o.words.the.replace(/^The /, 'the ')} each time it changes: through the gateway (any replica), or upstream as polling finds within the polling interval. Each version is sent once, whichever way it was learned first; the subscription ends after the push that says it is gone.`,
      args: {
        id: t.arg.id({ required: true, description: o.words.id }),
        pollIntervalSeconds: t.arg.int({ description: POLL_ARG_HELP }),
      },
      subscribe: (_root, args, ctx) => {
        const { live } = ctx;
        const id = o.id(args.id);
        const watch = {
          upstream: o.upstream,
          identity: live.identity[o.upstream],
          resource: `${o.resource}:${id}`,
          intervalMs: pollInterval(live, args.pollIntervalSeconds),
          caller: live.caller,
          read: async (caller: string) => (await o.poll(live, id, caller)) ?? MISSING,
          changed: (current: string) =>
            o.changed(
              live,
              current === MISSING ? { id, origin: 'poll', deleted: true } : { id, origin: 'poll', version: current },
            ),
        };
        const changes = watchAndListen(live, watch, [live.bus.onRecord(o.resource, id)]);
        return liveStream(
          live,
          onePerVersion(changes, (at) => o.read(ctx, at), o.version),
        );
      },
      resolve: (push) => {
        if (isExpired(push)) throw push.expired;
        if (push.failed) throw push.failed;
        return push;
      },
    }),
  );
}
