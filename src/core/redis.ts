/**
 * The link to Redis shared by the traffic pieces of one process: a command connection and a
 * subscriber connection (pub/sub needs its own). Commands never queue while Redis is away
 * (`enableOfflineQueue: false`) and time out quickly, so a missing Redis is noticed at once and the
 * callers fall back to local state instead of waiting; ioredis keeps reconnecting in the background.
 */
import { Redis } from 'ioredis';
import type { TrafficLogger } from './traffic-log.js';

/** The longest wait between reconnection attempts (the shared budget's loss grace builds on it). */
export const RECONNECT_MAX_MS = 1_000;

export interface RedisLinkOptions {
  url: string;
  /** Prefix of every key and channel. */
  prefix: string;
  commandTimeoutMs: number;
  log?: TrafficLogger;
}

export class RedisLink {
  readonly client: Redis;
  readonly subscriber: Redis;
  readonly prefix: string;
  private wasReady = false;
  /** The first connection attempt has ended, either way. */
  private attempted = false;
  private readonly readyListeners: (() => void)[] = [];
  private readonly log?: TrafficLogger;
  /** Last time each best-effort command's failure was logged (one line a minute per command). */
  private readonly failureLoggedAt = new Map<string, number>();

  constructor(options: RedisLinkOptions) {
    this.prefix = options.prefix;
    const common = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs,
      connectTimeout: Math.max(1_000, options.commandTimeoutMs * 4),
      // Reconnect quickly and keep trying: the shared budget should come back soon after Redis does.
      retryStrategy: (attempt: number) => Math.min(50 * attempt, RECONNECT_MAX_MS),
      lazyConnect: false,
    };
    this.client = new Redis(options.url, common);
    // The subscriber may queue its SUBSCRIBE until connected; ioredis re-subscribes after reconnects.
    this.subscriber = new Redis(options.url, { ...common, enableOfflineQueue: true, commandTimeout: undefined });
    const log = options.log;
    this.log = log;
    this.client.on('ready', () => {
      if (this.wasReady === false) log?.({ level: 'info', msg: 'redis connected: shared traffic state in use' });
      this.wasReady = true;
      this.attempted = true;
      for (const l of this.readyListeners) l();
    });
    this.client.on('end', () => undefined);
    this.client.on('close', () => {
      if (this.wasReady || !this.attempted)
        log?.({ level: 'warn', msg: 'redis unreachable: falling back to the local budget share' });
      this.wasReady = false;
      this.attempted = true;
    });
    // Errors are expected while Redis is away; the state changes above are what is worth logging.
    this.client.on('error', () => undefined);
    this.subscriber.on('error', () => undefined);
  }

  get ready(): boolean {
    return this.client.status === 'ready';
  }

  /** Still making its first connection: not ready, yet nothing is known to be wrong. */
  get connecting(): boolean {
    return !this.attempted;
  }

  /**
   * A command whose failure leaves nothing to undo (a lease released early expires by itself, a
   * copy written for the other replicas is written again or rebuilt): it may fail. A failure while
   * Redis is away is the outage already logged above; one while it is connected (a script error,
   * an out-of-memory refusal) is not expected and is logged, once a minute per command.
   */
  async bestEffort<T>(what: string, command: Promise<T>): Promise<T | undefined> {
    try {
      return await command;
    } catch (e) {
      if (this.ready) {
        const now = Date.now();
        if (now - (this.failureLoggedAt.get(what) ?? 0) >= 60_000) {
          this.failureLoggedAt.set(what, now);
          this.log?.({
            level: 'warn',
            msg: `redis: ${what} failed`,
            error: e instanceof Error ? e.message : String(e),
          });
        }
      }
      return undefined;
    }
  }

  /** Calls `listener` with each message on `channel` (ioredis subscribes again after each reconnection). */
  subscribe(channel: string, listener: (message: string) => void): void {
    this.subscriber.on('message', (ch: string, message: string) => {
      if (ch === channel) listener(message);
    });
    void this.bestEffort(`subscribe ${channel}`, this.subscriber.subscribe(channel));
  }

  /** Deletes `key` if it still holds `token`: a lease is given up by its own holder only. Best effort. */
  release(what: string, key: string, token: string): Promise<unknown> {
    const script = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end return 0`;
    return this.bestEffort(what, this.client.eval(script, 1, key, token));
  }

  key(...parts: string[]): string {
    return this.prefix + parts.join(':');
  }

  /** Called on every (re)connection: state kept locally meanwhile can be pushed or re-read. */
  onReady(listener: () => void): void {
    this.readyListeners.push(listener);
  }

  async close(): Promise<void> {
    this.client.disconnect();
    this.subscriber.disconnect();
  }
}
