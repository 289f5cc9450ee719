/**
 * The shape every live subscription shares: start (or join) the poller of what it watches, pass on
 * what the change bus brings, and leave the poller when the client goes.
 */
import { Repeater } from 'graphql-yoga';
import type { Watch } from './polling.js';
import type { LiveScope } from './scope.js';

/** Seconds a client asked for, as milliseconds within the configured bounds. */
export function pollInterval(live: LiveScope, seconds: number | null | undefined): number {
  return live.polling.interval(seconds == null ? live.defaultIntervalMs : seconds * 1000);
}

export function watchAndListen<T>(live: LiveScope, watch: Watch, sources: AsyncIterable<T>[]): AsyncIterable<T> {
  return new Repeater<T>(async (push, stop) => {
    const unwatch = live.polling.watch(watch);
    const iterators = sources.map((s) => s[Symbol.asyncIterator]());
    void stop.then(() => {
      unwatch();
      for (const it of iterators) void it.return?.();
    });
    await Promise.all(
      iterators.map(async (it) => {
        for (;;) {
          const next = await it.next();
          if (next.done) return;
          await push(next.value);
        }
      }),
    );
    stop();
  });
}
