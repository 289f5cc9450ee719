/**
 * The shared tier of the response cache: with Redis, cached upstream answers are stored there too,
 * so that a record one replica fetched costs the others nothing; asked only on a local miss.
 *
 * Consistency rests on one version counter per tag in Redis, not on messages
 * (docs/decisions/shared-cache-acknowledgement.md): an entry is stored only if its tags' versions
 * are those read when its request started, and returned only while they still are; an invalidation
 * bumps the counters and tells the replicas' local tiers on a channel, in one transaction, then
 * waits (one command timeout at most) for each to acknowledge before the mutation answers
 * (`ResponseCache.settled`). The window that remains is in docs/caching.md. While Redis is away
 * nothing is shared, invalidations are kept for later, and the local tier is emptied on return.
 * Counters are created from Redis's clock, so one lost to eviction or FLUSHDB never comes back at
 * a value an old entry holds. With `waitMs`, a miss takes a short lock, so that replicas asking for
 * the same cold record at once wait for the one that fetches it.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { ResponseCache } from './cache.js';
import type { Redis } from 'ioredis';
import type { HttpResponse } from './http.js';
import type { RedisLink } from './redis.js';
import type { TrafficLogger } from './traffic-log.js';
import { ownJson } from './records.js';

export interface SharedCacheOptions {
  redis: RedisLink;
  /** Longest wait for another replica's identical read in flight before sending one's own; 0 turns the cross-replica dedupe off. */
  waitMs: number;
  /** Longest wait of a write's answer for the other replicas to acknowledge its invalidation (the Redis command timeout). */
  ackTimeoutMs: number;
  /** Larger answers stay in the local tier only. */
  maxEntryBytes: number;
  log?: TrafficLogger;
}

/** What a local miss found in the shared tier. */
export type SharedLookup =
  | { kind: 'hit'; response: HttpResponse; freshUntil: number; harvested: boolean }
  /**
   * Not there: fetch it, then `store` (or `release` when the answer is not cacheable). `mark`:
   * Redis's clock at the lookup, for `storeRecords` of the records the answer holds.
   */
  | { kind: 'miss'; mark: number; store(response: HttpResponse, ttlMs: number): Promise<boolean>; release(): void };

// A counter's first value: Redis's clock in µs × 1000, so a recreated counter never repeats an old value.
const SEED = `local t = redis.call('TIME') local seed = t[1] .. string.format('%06d', tonumber(t[2])) .. '000'`;

// Redis's clock in ms (exact in a Lua number, unlike the counters' seed).
const NOW_MS = `local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// KEYS: entry, lock, tag counters…; ARGV: lock ms (0: no lock), owner. Returns {1, payload} or
// {0, versions, owns lock, now}: now (Redis's clock in ms) is the mark records harvested from the
// answer are stored against (STORE_RECORDS).
const LOOKUP = `${SEED} ${NOW_MS}
local v = {}
for i = 3, #KEYS do
  local cur = redis.call('GET', KEYS[i])
  if not cur then cur = seed redis.call('SET', KEYS[i], cur) end
  v[#v + 1] = cur
end
local versions = table.concat(v, ',')
local e = redis.call('GET', KEYS[1])
if e then
  local nl = string.find(e, '\\n', 1, true)
  if nl and string.sub(e, 1, nl - 1) == versions then return {1, string.sub(e, nl + 1)} end
end
if ARGV[1] == '0' then return {0, versions, 1, now} end
if redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PX', ARGV[1]) then return {0, versions, 1, now} end
return {0, versions, 0, now}`;

// KEYS: entry, lock, tag counters…; ARGV: versions at lookup, payload, ttl ms, owner. Stores only if no tag moved.
const STORE = `local v = {}
local whole = true
for i = 3, #KEYS do
  local cur = redis.call('GET', KEYS[i])
  if not cur then whole = false break end
  v[#v + 1] = cur
end
local stored = 0
if whole and table.concat(v, ',') == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1] .. '\\n' .. ARGV[2], 'PX', ARGV[3])
  stored = 1
end
if redis.call('GET', KEYS[2]) == ARGV[4] then redis.call('DEL', KEYS[2]) end
return stored`;

/** How long a tag's last invalidation time is kept: longer than any operation runs. */
const BUMPED_AT_TTL_MS = 300_000;

// KEYS: tag counters, then as many "bumped at" keys. Bumps each counter (a missing one starts from
// the clock) and notes when, for whole answers that started before (see STORE_ANSWER).
const BUMP = `${SEED} ${NOW_MS}
local n = #KEYS / 2
for i = 1, n do
  if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('INCR', KEYS[i]) else redis.call('SET', KEYS[i], seed) end
  redis.call('SET', KEYS[n + i], now, 'PX', ${BUMPED_AT_TTL_MS})
end
return n`;

/*
 * Whole GraphQL answers (the response cache, `http/response-cache.ts`). Their tags are known only
 * once the operation ran, so an entry carries them: "tags\nversions\npayload", tags tab-separated.
 * The tag keys are built in the script from a prefix (fine for one Redis; not for Redis Cluster).
 */
// KEYS: entry; ARGV: tag key prefix. Returns {1, now, payload} while every tag is at the stored
// version, else {0, now}; now is Redis's clock in ms, the mark a later store is checked against.
const LOOKUP_ANSWER = `local t = redis.call('TIME') ${NOW_MS}
local e = redis.call('GET', KEYS[1])
if e then
  local a = string.find(e, '\\n', 1, true)
  local b = a and string.find(e, '\\n', a + 1, true)
  if b then
    local v = {}
    for tag in string.gmatch(string.sub(e, 1, a - 1), '[^\\t]+') do
      local cur = redis.call('GET', ARGV[1] .. tag)
      if not cur then v = nil break end
      v[#v + 1] = cur
    end
    if v and table.concat(v, ',') == string.sub(e, a + 1, b - 1) then return {1, now, string.sub(e, b + 1)} end
  end
end
return {0, now}`;

// The current versions of tab-separated `tags` (missing counters seeded), or nil when one of them was
// invalidated since `mark` (the answer may predate the write). ARGV[1]: tag key prefix, ARGV[2]:
// "bumped at" key prefix.
const VERSIONS_SINCE = `${SEED}
local function versions(tags, mark)
  local v = {}
  for tag in string.gmatch(tags, '[^\\t]+') do
    local at = redis.call('GET', ARGV[2] .. tag)
    if at and tonumber(at) >= mark then return nil end
    local cur = redis.call('GET', ARGV[1] .. tag)
    if not cur then cur = seed redis.call('SET', ARGV[1] .. tag, cur) end
    v[#v + 1] = cur
  end
  return table.concat(v, ',')
end`;

// KEYS: entry; ARGV: tag key prefix, "bumped at" key prefix, mark, tags (tab-separated), payload,
// ttl ms. Stores only if no tag was invalidated since the mark.
const STORE_ANSWER = `${VERSIONS_SINCE}
local v = versions(ARGV[4], tonumber(ARGV[3]))
if not v then return 0 end
redis.call('SET', KEYS[1], ARGV[4] .. '\\n' .. v .. '\\n' .. ARGV[5], 'PX', ARGV[6])
return 1`;

// Records harvested from one answer (harvest.ts), stored as the entries their own reads would make.
// ARGV: tag key prefix, "bumped at" key prefix, mark, then per record: entry key, tags (tab-separated),
// payload, ttl ms. A record is refused if one of its tags was invalidated since the mark, and never
// replaces a current entry that stays fresh longer.
const STORE_RECORDS = `${VERSIONS_SINCE}
local stored = 0
for i = 4, #ARGV, 4 do
  local v = versions(ARGV[i + 1], tonumber(ARGV[3]))
  if v then
    local head = v .. '\\n'
    local e = redis.call('GET', ARGV[i])
    if not (e and string.sub(e, 1, #head) == head and redis.call('PTTL', ARGV[i]) >= tonumber(ARGV[i + 3])) then
      redis.call('SET', ARGV[i], head .. ARGV[i + 2], 'PX', ARGV[i + 3])
      stored = stored + 1
    end
  end
end
return stored`;

/** The scripts, defined on the client so that they go by their SHA (EVALSHA) after the first call. */
const SCRIPTS = {
  gatewayCacheLookup: LOOKUP,
  gatewayCacheStore: STORE,
  gatewayCacheBump: BUMP,
  gatewayAnswerLookup: LOOKUP_ANSWER,
  gatewayAnswerStore: STORE_ANSWER,
  gatewayRecordsStore: STORE_RECORDS,
};
type Scripts = Record<keyof typeof SCRIPTS, (numKeys: number, ...args: string[]) => Promise<unknown>>;

interface Payload {
  s: number;
  h: Record<string, string>;
  b: unknown;
  n: number;
  /** Fresh until (epoch ms). */
  f: number;
  /** 1: a record harvested from another answer. */
  r?: 1;
}

function encode({ status, headers, body, bytes }: HttpResponse, freshUntil: number, harvested = false): string {
  const payload: Payload = { s: status, h: headers, b: body, n: bytes, f: freshUntil };
  if (harvested) payload.r = 1;
  return JSON.stringify(payload);
}

const digest = (key: string) => createHash('sha256').update(key).digest('base64url');

/** A record to store with `storeRecords`: its entry's key and tags, as its own read would have them. */
export interface SharedRecord {
  key: string;
  tags: readonly string[];
  response: HttpResponse;
  freshUntil: number;
}

export class SharedCacheTier {
  private readonly redis: RedisLink;
  private readonly scripts: Scripts;
  private readonly self = randomUUID();
  private readonly channel: string;
  private readonly acks: string;
  /** Where the scripts find a tag's version counter and its last invalidation time: the prefix, then the tag. */
  private readonly tagPrefixes: [string, string];
  /** Invalidations of ours waiting for the other replicas' acknowledgements (`bump`). */
  private readonly awaiting = new Map<string, { missing: number; done?: () => void }>();
  /** Invalidations Redis has not got yet (it was away); applied before the tier is used again. */
  private readonly unsent = new Set<string>();
  /** Ready and caught up: only then are lookups and stores made. */
  private synced = false;

  constructor(
    private readonly cache: ResponseCache,
    private readonly options: SharedCacheOptions,
  ) {
    this.redis = options.redis;
    for (const [name, lua] of Object.entries(SCRIPTS)) this.redis.client.defineCommand(name, { lua });
    this.scripts = this.redis.client as unknown as Scripts;
    this.channel = this.redis.key('cache-invalidate');
    this.acks = this.redis.key('cache-invalidate-ack');
    this.tagPrefixes = [this.redis.key('cache', 'tag', ''), this.redis.key('cache', 'tagat', '')];
    cache.onInvalidate = (tags) => this.invalidate(tags);
    this.redis.subscribe(this.acks, (id) => this.acked(id));
    this.redis.subscribe(this.channel, (message) => {
      try {
        const { from, id, tags } = ownJson<{ from?: string; id?: string; tags?: unknown }>(message);
        if (from === this.self || !Array.isArray(tags)) return;
        cache.invalidateLocal(tags.filter((t): t is string => typeof t === 'string'));
        // The writer waits for this before answering its client (see `bump`).
        if (typeof id === 'string' && this.redis.ready)
          void this.redis.bestEffort('cache invalidation ack', this.redis.client.publish(this.acks, id));
      } catch {
        // Not JSON from a gateway (another client on the channel): nothing of ours to drop.
      }
    });
    this.redis.client.on('close', () => {
      if (this.synced)
        options.log?.({ level: 'warn', msg: 'redis unreachable: the response cache is local only until it is back' });
      this.synced = false;
    });
    this.redis.onReady(() => void this.resync());
    if (this.redis.ready) void this.resync();
  }

  /** Whether the shared tier is in use right now. */
  get ready(): boolean {
    return this.synced && this.redis.ready;
  }

  /** Looks `key` up after a local miss; undefined when the tier is not in use (Redis away). */
  async lookup(key: string, tags: readonly string[], signal?: AbortSignal): Promise<SharedLookup | undefined> {
    if (!this.ready) return undefined;
    const id = digest(key);
    const keys = [
      this.redis.key('cache', 'entry', id),
      this.redis.key('cache', 'lock', id),
      ...tags.map((t) => this.redis.key('cache', 'tag', t)),
    ];
    const owner = randomUUID();
    const lockMs = this.options.waitMs > 0 ? String(this.options.waitMs) : '0';
    const waitUntil = Date.now() + this.options.waitMs;
    try {
      for (let round = 0; ; round++) {
        const [found, data, owns, now] = (await this.scripts.gatewayCacheLookup(
          keys.length,
          ...keys,
          lockMs,
          owner,
        )) as [number, string, number?, number?];
        if (found === 1) {
          const p = ownJson<Payload>(data);
          const response = { status: p.s, headers: p.h, body: p.b, bytes: p.n };
          if (p.f > Date.now()) return { kind: 'hit', response, freshUntil: p.f, harvested: p.r === 1 };
          return undefined; // expiring this very moment: fetch, and let the next reader store it
        } else if (owns === 1 || Date.now() >= waitUntil || signal?.aborted) {
          return this.miss(keys, data, owns === 1 ? owner : undefined, Number(now));
        }
        // Another replica is fetching it: wait for its answer, briefly.
        await new Promise((r) => setTimeout(r, Math.min(10 * 2 ** round, 100, Math.max(1, waitUntil - Date.now()))));
        if (!this.ready) return undefined;
      }
    } catch (e) {
      // A slow or lost Redis (bounded by the command timeout) is a miss, never an error.
      this.trouble(e);
      return undefined;
    }
  }

  /**
   * A whole answer stored under `id` by any replica, if none of the records it read changed since;
   * else the mark to store this replica's answer with. Undefined when the tier is not in use.
   */
  async lookupAnswer(id: string): Promise<{ payload?: string; mark: number } | undefined> {
    if (!this.ready) return undefined;
    try {
      const entry = this.redis.key('answer', id);
      const reply = await this.scripts.gatewayAnswerLookup(1, entry, this.tagPrefixes[0]);
      const [found, now, payload] = reply as [number, number, string?];
      return found === 1 ? { payload: String(payload), mark: Number(now) } : { mark: Number(now) };
    } catch (e) {
      this.trouble(e);
      return undefined;
    }
  }

  /** Deletes whole answers (best effort: a failure leaves them to their tags' versions and TTL). */
  dropAnswers(ids: readonly string[]): void {
    if (!this.redis.ready || ids.length === 0) return;
    void this.redis.bestEffort(
      'answer cache drop',
      this.redis.client.del(...ids.map((id) => this.redis.key('answer', id))),
    );
  }

  /** Stores a whole answer unless one of its tags was invalidated since `mark` (from `lookupAnswer`). */
  async storeAnswer(id: string, mark: number, tags: readonly string[], payload: string, ttlMs: number): Promise<void> {
    if (!this.ready || payload.length > this.options.maxEntryBytes) return;
    // The entry's format separates tags by tabs and lines; a tag holding either stays local.
    if (tags.length === 0 || tags.some((t) => /[\t\n]/.test(t))) return;
    try {
      const entry = this.redis.key('answer', id);
      const args = [String(mark), tags.join('\t'), payload, String(Math.ceil(ttlMs))];
      await this.scripts.gatewayAnswerStore(1, entry, ...this.tagPrefixes, ...args);
    } catch (e) {
      this.trouble(e);
    }
  }

  /**
   * Stores records harvested from an answer fetched after a lookup at `mark` (its `miss`), in one
   * script call; refused for a record whose tags were invalidated since. Best effort: Redis away or
   * slow, the records stay local.
   */
  async storeRecords(mark: number, records: readonly SharedRecord[]): Promise<void> {
    if (!this.ready) return;
    const args: string[] = [];
    for (const r of records) {
      if (r.response.bytes > this.options.maxEntryBytes || r.tags.some((t) => /[\t\n]/.test(t))) continue;
      const ttlMs = Math.floor(r.freshUntil - Date.now());
      if (ttlMs <= 0) continue;
      const payload = encode(r.response, r.freshUntil, true);
      args.push(this.redis.key('cache', 'entry', digest(r.key)), r.tags.join('\t'), payload, String(ttlMs));
    }
    if (args.length === 0) return;
    try {
      await this.scripts.gatewayRecordsStore(0, ...this.tagPrefixes, String(mark), ...args);
    } catch (e) {
      this.trouble(e);
    }
  }

  private miss(keys: string[], versions: string, owner: string | undefined, mark: number): SharedLookup {
    const release = () => {
      if (owner) void this.redis.release('cache fill release', keys[1]!, owner);
    };
    return {
      kind: 'miss',
      mark,
      release,
      store: async (response, ttlMs) => {
        if (ttlMs <= 0 || response.bytes > this.options.maxEntryBytes || !this.ready) {
          release();
          return true; // not for this tier: the local tier alone decides
        }
        const payload = encode(response, Date.now() + ttlMs);
        try {
          const stored = await this.scripts.gatewayCacheStore(
            keys.length,
            ...keys,
            versions,
            payload,
            String(ttlMs),
            owner ?? '',
          );
          return stored === 1;
        } catch (e) {
          this.trouble(e);
          return true; // Redis lost meanwhile: the local tier alone decides.
        }
      },
    };
  }

  /** Bumps the tags' counters, then tells the other replicas' local tiers. Never rejects. */
  private async invalidate(tags: readonly string[]): Promise<void> {
    if (tags.length === 0) return;
    if (!this.redis.ready) {
      for (const t of tags) this.unsent.add(t);
      this.synced = false;
      return;
    }
    try {
      await this.bump(tags);
    } catch {
      // Even on a reply error: the bump must not be lost.
      for (const t of tags) this.unsent.add(t);
      this.trouble();
    }
  }

  /**
   * A command failed or timed out: stop using the tier (a hung Redis would cost every read a
   * timeout) and try to catch up again shortly, as on a reconnection.
   */
  private trouble(error?: unknown): void {
    // Redis answered with an error (e.g. OOM on a full `noeviction` instance): it is there, this
    // command just did not happen; the tier stays in use.
    if (error instanceof Error && error.name === 'ReplyError') return;
    if (this.synced)
      this.options.log?.({
        level: 'warn',
        msg: 'redis not answering: the response cache is local only until it is back',
      });
    this.synced = false;
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.redis.ready) void this.resync();
    }, 1_000);
    this.retry.unref();
  }

  private retry?: NodeJS.Timeout;
  private resyncing = false;

  /**
   * Bumps the counters and announces the tags in one transaction, then waits (at most one command
   * timeout) until every other subscribed replica says it dropped them from its local tier: once
   * this resolves, no replica serves the pre-write entries, unless one missed the message by losing
   * Redis (it empties its local tier on reconnecting) or is slower than the timeout.
   */
  private async bump(tags: readonly string[]): Promise<void> {
    const id = randomUUID();
    // Acks count down from 0 as they come, those that beat the transaction's reply too.
    const waiting: { missing: number; done?: () => void } = { missing: 0 };
    this.awaiting.set(id, waiting);
    try {
      const transaction = this.redis.client.multi() as ReturnType<Redis['multi']> & {
        gatewayCacheBump(numKeys: number, ...keys: string[]): ReturnType<Redis['multi']>;
      };
      const replies = await transaction
        .gatewayCacheBump(
          tags.length * 2,
          ...tags.map((t) => this.redis.key('cache', 'tag', t)),
          ...tags.map((t) => this.redis.key('cache', 'tagat', t)),
        )
        .publish(this.channel, JSON.stringify({ from: this.self, id, tags }))
        .exec();
      const failed = replies ? replies.find(([e]) => e)?.[0] : new Error('transaction discarded');
      if (failed) throw failed;
      // PUBLISH counts the subscribers that got the message, this replica included.
      waiting.missing += Number(replies![1]![1]) - 1;
      if (waiting.missing <= 0) return;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        waiting.done = resolve;
        timer = setTimeout(resolve, this.options.ackTimeoutMs);
      });
      clearTimeout(timer);
    } finally {
      this.awaiting.delete(id);
    }
  }

  private acked(id: string): void {
    const waiting = this.awaiting.get(id);
    if (waiting && --waiting.missing <= 0) waiting.done?.();
  }

  /** After (re)connecting: send what was invalidated meanwhile, and forget local entries whose messages may have been lost. */
  private async resync(): Promise<void> {
    if (this.resyncing) return;
    this.resyncing = true;
    try {
      // A hung Redis keeps its connection "ready": ask it something (bounded by the command timeout).
      await this.redis.client.ping();
      while (this.unsent.size > 0) {
        const tags = [...this.unsent];
        await this.bump(tags);
        for (const t of tags) this.unsent.delete(t);
      }
      if (!this.redis.ready) return;
      const wasLocal = this.synced === false;
      this.synced = true;
      if (wasLocal) {
        this.cache.clear();
        this.options.log?.({ level: 'info', msg: 'redis connected: the response cache is shared' });
      }
    } catch {
      this.trouble(); // still unreachable: try again shortly
    } finally {
      this.resyncing = false;
    }
  }
}
