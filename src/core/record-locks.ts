/**
 * Per-record write serialisation. Writes that depend on what they read (the calendar's
 * read-modify-write updates, any write with a precondition) run one at a time per record: first
 * behind an in-process lock, then, when Redis is configured, behind a Redis lock shared by every
 * replica (`SET NX PX` with a random token, released by compare-and-delete).
 *
 * Neither upstream supports conditional writes, so a lock cannot fence a stale holder. Instead the
 * lease outlasts a write's deadline (the transport's connect + header + body timeouts) and is
 * renewed while the holder lives: a crashed holder frees the record when its lease ends, and a live
 * one never loses it while a write is on the wire. A holder whose lease could not be renewed
 * (Redis gone or flushed) refuses to start its write (`check()`).
 *
 * Redis away: the local lock still serialises this replica's writes and a warning is logged; writes
 * through other replicas, and edits made directly upstream, are not serialised then.
 */
import { randomUUID } from 'node:crypto';
import { UpstreamError, type UpstreamName } from './errors.js';
import type { RedisLink } from './redis.js';
import type { TrafficLogger } from './traffic-log.js';

export interface RecordLockOptions {
  redis?: RedisLink;
  /** Lease of the Redis lock; renewed every third of it while held. */
  leaseMs: number;
  /** Longest wait for a record's lock before the write fails `busy`. */
  waitMs: number;
  log?: TrafficLogger;
}

export interface HeldLock {
  /** Throws unless the lock is still held with enough lease left for one write. */
  check(): void;
}

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

export class RecordLocks {
  /** Per key, the promise the next local holder waits for. */
  private readonly tails = new Map<string, Promise<void>>();
  private warnedLocalOnly = false;

  constructor(private readonly options: RecordLockOptions) {}

  /** Runs `fn` holding the lock of `key` (e.g. `calendar:event:42`). */
  async run<T>(
    upstream: UpstreamName,
    key: string,
    fn: (lock: HeldLock) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const deadline = Date.now() + this.options.waitMs;
    const releaseLocal = await this.lockLocal(upstream, key, deadline, signal);
    try {
      const shared = await this.lockShared(upstream, key, deadline, signal);
      try {
        return await fn(shared ?? { check: () => undefined });
      } finally {
        await shared?.release();
      }
    } finally {
      releaseLocal();
    }
  }

  private async lockLocal(
    upstream: UpstreamName,
    key: string,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<() => void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    const done = () => {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        previous,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(busy(upstream)), Math.max(0, deadline - Date.now()));
          signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        }),
      ]);
    } catch (e) {
      // Give up our place without breaking the chain: the next one waits for our predecessor.
      void previous.then(done);
      throw e;
    } finally {
      clearTimeout(timer);
    }
    return done;
  }

  private async lockShared(
    upstream: UpstreamName,
    key: string,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<(HeldLock & { release(): Promise<void> }) | undefined> {
    const { redis, leaseMs } = this.options;
    if (!redis) return undefined;
    const redisKey = redis.key('lock', key);
    const token = randomUUID();
    let pause = 5;
    for (;;) {
      if (!redis.ready) return this.localOnly();
      let got: string | null;
      try {
        got = await redis.client.set(redisKey, token, 'PX', leaseMs, 'NX');
      } catch {
        return this.localOnly();
      }
      if (got === 'OK') break;
      if (signal?.aborted) throw signal.reason;
      if (Date.now() + pause > deadline) throw busy(upstream);
      await new Promise((r) => setTimeout(r, pause * (0.5 + Math.random())));
      pause = Math.min(pause * 2, 100);
    }
    this.warnedLocalOnly = false;
    let renewedAt = Date.now();
    let lost = false;
    const renew = setInterval(
      () => {
        redis.client.eval(RENEW, 1, redisKey, token, String(leaseMs)).then(
          (ok) => {
            if (ok === 1) renewedAt = Date.now();
            else lost = true;
          },
          () => undefined,
        );
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    renew.unref();
    return {
      check: () => {
        // A third of the lease is the renewal period; two thirds left cover a write's deadline.
        if (lost || Date.now() - renewedAt > leaseMs / 2) {
          throw new UpstreamError(
            upstream,
            'busy',
            'The lock on this record was lost (Redis could not renew it); nothing was written. Retry the write.',
            { retryAfter: 1 },
          );
        }
      },
      release: async () => {
        clearInterval(renew);
        // A lease not released expires by itself.
        await redis.release('record lock release', redisKey, token);
      },
    };
  }

  private localOnly(): undefined {
    if (!this.warnedLocalOnly) {
      this.warnedLocalOnly = true;
      this.options.log?.({ level: 'warn', msg: 'redis unreachable: record write locks are local to this replica' });
    }
    return undefined;
  }
}

function busy(upstream: UpstreamName): UpstreamError {
  return new UpstreamError(
    upstream,
    'busy',
    'Other writes to this record are still running; nothing was written. Retry shortly.',
    { retryAfter: 1 },
  );
}
