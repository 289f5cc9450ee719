/**
 * The change bus of live updates: which records changed, by id only, never their content (every
 * subscriber re-reads with its own credential). Changes made through the gateway and changes found
 * by polling are published here; with Redis (REDIS_URL) every replica's subscribers receive them,
 * without it only this process's. Built on Yoga's pub/sub and its Redis event target.
 */
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub, type PubSub } from 'graphql-yoga';
import type { RedisLink } from '../core/redis.js';

export interface Change {
  id: string;
  /** `gateway`: a mutation through some replica; `poll`: found by polling the upstream. */
  origin: 'gateway' | 'poll';
  /** The mutation deleted (or trashed) the record. */
  deleted?: boolean;
  /**
   * The record's version after the change (`expectedVersion`'s), when the publisher knows it: a
   * subscriber that was last sent this version is not sent it again from the other origin.
   */
  version?: string;
}

export interface ChangeBatch {
  ids: string[];
  origin: 'gateway' | 'poll';
  /** The version of each id where the publisher knows it (see `Change.version`). */
  versions?: Record<string, string>;
}

export class ChangeBus {
  private readonly pubsub: PubSub<Record<string, [string, Change | ChangeBatch]>>;
  private readonly subscriber?: { disconnect(): void };

  /** Topic names carry the Redis key prefix, so gateways sharing one Redis keep apart. */
  constructor(private readonly redis?: RedisLink) {
    if (redis) {
      const subscribeClient = redis.client.duplicate({ enableOfflineQueue: true, commandTimeout: undefined });
      subscribeClient.on('error', () => undefined);
      this.subscriber = subscribeClient;
      this.pubsub = createPubSub({
        eventTarget: createRedisEventTarget({ publishClient: quietPublisher(redis), subscribeClient }),
      });
    } else {
      this.pubsub = createPubSub();
    }
  }

  private topic(name: 'entity' | 'event' | 'events'): string {
    return `${this.redis?.prefix ?? ''}live:${name}`;
  }

  entityChanged(change: Change): void {
    this.pubsub.publish(this.topic('entity'), change.id, change);
  }

  eventChanged(change: Change): void {
    this.pubsub.publish(this.topic('event'), change.id, change);
    const versions = change.version === undefined ? {} : { versions: { [change.id]: change.version } };
    this.pubsub.publish(this.topic('events'), '*', { ids: [change.id], origin: change.origin, ...versions });
  }

  /** Ids a poll of one filtered list found changed (`scope` is the filter's key). */
  eventsChanged(scope: string, batch: ChangeBatch): void {
    this.pubsub.publish(this.topic('events'), scope, batch);
  }

  /** Changes of one governance entity or calendar event. */
  onRecord(resource: 'entity' | 'event', id: string): AsyncIterable<Change> {
    return this.pubsub.subscribe(this.topic(resource), id) as AsyncIterable<Change>;
  }

  onEvents(scope: string): AsyncIterable<ChangeBatch> {
    return this.pubsub.subscribe(this.topic('events'), scope) as AsyncIterable<ChangeBatch>;
  }

  close(): void {
    this.subscriber?.disconnect();
  }
}

/**
 * The event target only ever calls `publish` and never awaits it: with Redis away the command is
 * refused, and unhandled that rejection would take the process down. A change published during an
 * outage reaches this replica's subscribers only; the others see it at their next poll.
 */
function quietPublisher(redis: RedisLink): RedisLink['client'] {
  const publisher = {
    publish: async (channel: string, message: string) =>
      (await redis.bestEffort('live change publish', redis.client.publish(channel, message))) ?? 0,
  };
  return publisher as unknown as RedisLink['client'];
}
