/**
 * The 429 pause of one upstream account: after a 429 nothing is sent to that account until the
 * pause is over. With Redis the pause is shared: its end is stored in a key (kept only if later than
 * the stored one, expiring with the pause) and announced on a channel, so every replica stops at
 * once; each replica also re-reads the key on (re)connection and every half second, in case a
 * message was missed. While Redis is away the pause is local, and pushed to Redis on its return.
 */
import type { RedisLink } from './redis.js';
import type { TrafficLogger } from './traffic-log.js';

export interface PauseOptions {
  upstream: string;
  redis?: RedisLink;
  log?: TrafficLogger;
}

/** SET the key to ARGV[1] (epoch ms) with a PX of ARGV[2] unless it already holds a later end. */
const EXTEND = `local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if cur >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('PUBLISH', KEYS[2], ARGV[1])
return 1`;

export class PauseGate {
  private until = 0;
  private readonly key?: string;
  private readonly channel?: string;
  private poll?: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: PauseOptions) {
    const redis = options.redis;
    if (!redis) return;
    this.key = redis.key('pause', options.upstream);
    this.channel = redis.key('pause-channel', options.upstream);
    redis.subscribe(this.channel, (message) => this.extendLocal(Number(message), 'shared'));
    redis.onReady(() => void this.sync());
    this.poll = setInterval(() => void this.refresh(), 500);
    this.poll.unref();
  }

  /** Milliseconds left in the pause (0 when not paused). */
  remainingMs(now = Date.now()): number {
    return Math.max(0, this.until - now);
  }

  /** Epoch ms at which the pause ends (in the past when not paused). */
  get endsAt(): number {
    return this.until;
  }

  /** Pauses the account for `ms` from now (never shortens a longer pause). */
  async pause(ms: number, now = Date.now()): Promise<void> {
    const until = now + ms;
    this.extendLocal(until, 'local');
    await this.publish(until);
  }

  private extendLocal(until: number, source: 'local' | 'shared'): void {
    if (!Number.isFinite(until) || until <= this.until) return;
    this.until = until;
    if (source === 'shared')
      this.options.log?.({
        level: 'info',
        msg: 'upstream paused by another replica',
        upstream: this.options.upstream,
        pauseMs: until - Date.now(),
      });
  }

  private async publish(until: number): Promise<void> {
    const { key, channel, options } = this;
    const ms = until - Date.now();
    if (!options.redis?.ready || !key || !channel || ms <= 0) return;
    try {
      await options.redis.client.eval(EXTEND, 2, key, channel, String(until), String(Math.ceil(ms)));
    } catch {
      // Redis is away: the pause stays local and is pushed again on reconnection (see sync).
    }
  }

  /** On (re)connection: push a local pause that is still running, then read the shared one. */
  private async sync(): Promise<void> {
    if (this.until > Date.now()) await this.publish(this.until);
    await this.refresh();
  }

  private async refresh(): Promise<void> {
    const { key, options } = this;
    if (!options.redis?.ready || !key || this.closed) return;
    try {
      const value = await options.redis.client.get(key);
      if (value) this.extendLocal(Number(value), 'shared');
    } catch {
      // Redis is away; the local view stands.
    }
  }

  close(): void {
    this.closed = true;
    if (this.poll) clearInterval(this.poll);
  }
}
