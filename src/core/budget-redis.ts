/**
 * The account budget shared by every replica through Redis (docs/traffic.md, "How the budget
 * counts"): one hash of time buckets per rule (and endpoint), and one Lua script that sums every
 * rule's span, refuses if one is spent, or counts the request in all of them: one round trip, a
 * refusal never eats budget, and its sums keep each replica's view of the shared counts current.
 * A marker key tells a lost data set (every replica adds its own sends of the live spans back); a
 * heartbeat tells the live replicas, so that while Redis is away, or its counts are being rebuilt,
 * each spends only its share of what the last seen counts left.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RECONNECT_MAX_MS, type RedisLink } from './redis.js';
import type { TrafficLogger } from './traffic-log.js';
import { LocalCounts, ruleStatus, slotsOf, validityMs, type Slot } from './budget-local.js';
import { countedAt, type CountedRule } from './sliding-window.js';
import type { BudgetAnswer, Cap, Claim, RuleStatus } from './budget-types.js';

export interface SharedBudgetOptions {
  upstream: string;
  rules: readonly CountedRule[];
  redis: RedisLink;
  /** Share of each rule while Redis is away, for a replica that never saw the shared counts. */
  localShare: number;
  log?: TrafficLogger;
}

/** Heartbeats and the marker check, this often; a replica missing five heartbeats is gone. */
const POLL_MS = 200;
const LIVE_MS = 5 * POLL_MS;
/**
 * How long a replica joining counters another replica started just now waits before taking shared
 * points: the other one may have just noticed a loss, and the replicas it knew must have reconnected
 * (the link's reconnect backoff is at most `RECONNECT_MAX_MS`) and synced (their next poll).
 */
const LOSS_GRACE_MS = RECONNECT_MAX_MS + 2 * POLL_MS + 100;
/**
 * After a loss, how long a replica waits for the replicas it last saw live to restore their counts
 * before it counts them as gone. Until then it spends only its outage share, so a replica that
 * died meanwhile costs the others throughput for this long, never the account a block.
 */
const RESTORE_WAIT_MS = 10_000;

/**
 * Callers in turn across replicas: start-time fair queuing as in fair-queue.ts, its state in Redis
 * (next to the counts, so the take script checks the turn and spends the point atomically). Each
 * replica asks for a point for the caller at the head of its own line; the ask leaves that caller's
 * claim (its priority and virtual tag: its last tag, or the virtual time if later, plus 1 / weight),
 * and a point goes only to the live claim lowest in (priority, tag), across every replica. Without
 * it, each replica served its own callers in turn but the replicas raced for the shared points, so
 * a greedy caller on one replica took the points a polite caller on another was waiting for.
 * A claim that is not served lives until its replica's next ask is due plus `CLAIM_MS`, so a dead
 * replica, or a caller whose last call left the line (`release`), holds no one up for longer.
 */
const CLAIM_MS = 250;
/** Someone else's turn while a point is free: their replica is asking just now; ask again this soon. */
const TURN_RETRY_MS = 5;
/** The turn state (virtual time, callers' last tags) of an upstream idle this long is forgotten. */
const TURN_IDLE_MS = 60_000;

/**
 * A cap's count in the heartbeat: a take that leaves a cap's scope at this fraction of its limit or
 * more lists it in the hot set, and the heartbeat sums the hot scopes, so that every replica knows,
 * as of its last heartbeat, each scope's count exactly or that it is below this fraction (the set
 * stays small: few callers spend half their cap at once). While Redis is away, a replica's share
 * of a cap is computed from that (budget-redis.ts `takeOffline`).
 */
const HOT = 0.5;

/**
 * KEYS[1] the marker, KEYS[2..n+1] one hash per slot (bucket → count: a rule for the account or an
 * endpoint, or a cap's scope), then the claims (hash: caller → "priority tag until"), the callers'
 * last tags (sorted set), the virtual time and the hot set of caps (sorted set, see `HOT`). ARGV[1]
 * the marker this replica counts in, ARGV[2] now (ms), ARGV[3] the prefix of the slots' hash keys,
 * then per slot: its limit, bucket ms, span ms, the time it counts this take at (`countedAt`), 1
 * for a cap (0 for a rule); then the claim: caller, weight (0: none, no turn), priority. Returns
 * {-1} when the marker differs; else {refused slot (1-based), -2 when it is another caller's turn,
 * or 0; wait ms; then per slot its sum and the ms until its oldest counted bucket leaves the span},
 * the sums including this request when it was counted. A caller refused by a cap leaves no claim:
 * it waits for its own cap, and the others go on.
 */
const TAKE_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {-1} end
local now = tonumber(ARGV[2])
local slots = #KEYS - 5
local out = {0, 0}
local current, capped = {}, false
for i = 2, slots + 1 do
  local a = 5 * (i - 2) + 4
  local allowed, size = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  local span, at = tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3])
  local first = math.floor((at - span) / size)
  local flat = redis.call('HGETALL', KEYS[i])
  local live, old, sum = {}, {}, 0
  for j = 1, #flat, 2 do
    local b, n = tonumber(flat[j]), tonumber(flat[j + 1])
    if b < first then old[#old + 1] = flat[j] else live[#live + 1] = {b, n}; sum = sum + n end
  end
  if #old > 0 then redis.call('HDEL', KEYS[i], unpack(old)) end
  table.sort(live, function(x, y) return x[1] < y[1] end)
  if sum >= allowed and out[1] == 0 then
    local excess = sum - allowed + 1
    for _, e in ipairs(live) do
      excess = excess - e[2]
      if excess <= 0 then out[2] = math.max(1, (e[1] + 1) * size + span - now); break end
    end
    out[1] = i - 1
    capped = ARGV[a + 4] == '1'
  end
  local free = 0
  if #live > 0 then free = math.max(0, (live[1][1] + 1) * size + span - now) end
  out[#out + 1] = sum
  out[#out + 1] = free
  current[i] = math.floor(at / size)
end
local c = 5 * slots + 4
local caller, weight, prio = ARGV[c], tonumber(ARGV[c + 1]), tonumber(ARGV[c + 2])
local claims = KEYS[slots + 2]
if weight > 0 and capped then redis.call('HDEL', claims, caller)
elseif weight > 0 then
  local tags, clock = KEYS[slots + 3], KEYS[slots + 4]
  local vt = tonumber(redis.call('GET', clock) or '0')
  local tag = math.max(tonumber(redis.call('ZSCORE', tags, caller) or '0'), vt) + 1 / weight
  local others, flat = {}, redis.call('HGETALL', claims)
  for j = 1, #flat, 2 do
    local p, t, u = string.match(flat[j + 1], '(%S+) (%S+) (%S+)')
    if tonumber(u) <= now then redis.call('HDEL', claims, flat[j])
    elseif flat[j] == caller then prio, tag = math.min(prio, tonumber(p)), tonumber(t)
    else others[#others + 1] = {tonumber(p), tonumber(t), flat[j]} end
  end
  local turn = true
  for _, o in ipairs(others) do
    if o[1] < prio or (o[1] == prio and (o[2] < tag or (o[2] == tag and o[3] < caller))) then turn = false end
  end
  if out[1] == 0 and turn then
    vt = math.max(vt, tag - 1 / weight)
    redis.call('HDEL', claims, caller)
    redis.call('SET', clock, string.format('%.17g', vt), 'PX', ${TURN_IDLE_MS})
    redis.call('ZADD', tags, string.format('%.17g', tag), caller)
    redis.call('ZREMRANGEBYSCORE', tags, '-inf', string.format('%.17g', vt))
    redis.call('PEXPIRE', tags, ${TURN_IDLE_MS})
  else
    if out[1] == 0 then out[1], out[2] = -2, ${TURN_RETRY_MS} end
    redis.call('HSET', claims, caller, string.format('%d %.17g %d', prio, tag, now + out[2] + ${CLAIM_MS}))
    redis.call('PEXPIRE', claims, ${TURN_IDLE_MS})
  end
end
if out[1] == 0 then
  local hot, longest = KEYS[slots + 5], 0
  for i = 2, slots + 1 do
    local a = 5 * (i - 2) + 4
    local span = tonumber(ARGV[a + 2])
    redis.call('HINCRBY', KEYS[i], current[i], 1)
    redis.call('PEXPIRE', KEYS[i], span + 1000)
    out[2 * (i - 1) + 1] = out[2 * (i - 1) + 1] + 1
    if ARGV[a + 4] == '1' and out[2 * (i - 1) + 1] >= ${HOT} * tonumber(ARGV[a]) then
      redis.call('ZADD', hot, now, span .. ' ' .. ARGV[a + 1] .. ' ' .. string.sub(KEYS[i], #ARGV[3] + 1))
      longest = math.max(longest, span)
    end
  end
  -- Only ever lengthened: a member of a long rule must outlive a take that lists a short one.
  if longest > 0 and redis.call('PTTL', hot) < longest + 1000 then redis.call('PEXPIRE', hot, longest + 1000) end
end
return out`;

/**
 * KEYS hashes (repeats allowed), then the hot set of caps; ARGV per hash: bucket, count, time to
 * live, and its hot-set member when it is a cap's (else ''), then now. A cap's count added here
 * (an outage's sends, a restore) lists it as hot: the heartbeat then sums it.
 */
const ADD_SCRIPT = `
local hot = KEYS[#KEYS]
for i = 1, #KEYS - 1 do
  redis.call('HINCRBY', KEYS[i], ARGV[4 * i - 3], ARGV[4 * i - 2])
  redis.call('PEXPIRE', KEYS[i], ARGV[4 * i - 1])
  if ARGV[4 * i] ~= '' and tonumber(ARGV[4 * i - 2]) > 0 then
    redis.call('ZADD', hot, ARGV[#ARGV], ARGV[4 * i])
    if redis.call('PTTL', hot) < tonumber(ARGV[4 * i - 1]) then redis.call('PEXPIRE', hot, ARGV[4 * i - 1]) end
  end
end
return 0`;

/**
 * KEYS[1] the replicas' sorted set, KEYS[2] the marker, KEYS[3] the hot set of caps, KEYS[4..] the
 * account-wide rules' hashes. ARGV[1] this replica, ARGV[2] now, ARGV[3] how long a heartbeat
 * lives, ARGV[4] the marker this replica synced with, ARGV[5] the prefix of the slots' hash keys,
 * then per rule: bucket ms, span ms. Returns {-1} when the marker differs (so a replica is in the
 * set of a data set only once it has restored its counts into it); else {live replicas, then per
 * rule the sum of its span, the number of live replicas' ids and the ids, then per hot cap its
 * member and the sum of its span}; a hot cap whose last take left its span is dropped.
 */
const HEARTBEAT_SCRIPT = `
if redis.call('GET', KEYS[2]) ~= ARGV[4] then return {-1} end
local now = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[3]))
redis.call('PEXPIRE', KEYS[1], 10 * tonumber(ARGV[3]))
local function sum(key, size, span)
  local first = math.floor((now - span) / size)
  local flat = redis.call('HGETALL', key)
  local total = 0
  for j = 1, #flat, 2 do if tonumber(flat[j]) >= first then total = total + tonumber(flat[j + 1]) end end
  return total
end
local out = {redis.call('ZCARD', KEYS[1])}
for i = 4, #KEYS do out[#out + 1] = sum(KEYS[i], tonumber(ARGV[2 * i - 2]), tonumber(ARGV[2 * i - 1])) end
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
out[#out + 1] = #ids
for _, id in ipairs(ids) do out[#out + 1] = id end
local hot = redis.call('ZRANGE', KEYS[3], 0, -1, 'WITHSCORES')
for j = 1, #hot, 2 do
  local span, size, name = string.match(hot[j], '(%S+) (%S+) (.+)')
  if tonumber(hot[j + 1]) < now - tonumber(span) then redis.call('ZREM', KEYS[3], hot[j])
  else
    out[#out + 1] = name
    out[#out + 1] = sum(ARGV[5] .. name, tonumber(size), tonumber(span))
  end
end
return out`;

type BudgetRedis = Redis & {
  budgetTake(numKeys: number, ...args: (string | number)[]): Promise<number[]>;
  budgetAdd(numKeys: number, ...args: (string | number)[]): Promise<number>;
  budgetHeartbeat(numKeys: number, ...args: (string | number)[]): Promise<(number | string)[]>;
};

/** A shared count as last seen: the sum over the span, when, and when its oldest bucket leaves. */
interface Seen {
  sum: number;
  at: number;
  freeInMs: number;
}

export class SharedBudget {
  private readonly id = randomUUID();
  /** Everything this replica sent in the live spans (to rebuild lost counters). */
  private readonly sent = new LocalCounts();
  /** Sent while Redis was away: added to the shared counters once it is back. */
  private readonly unsynced = new LocalCounts();
  /** Spent on the outage share since the last seen counts: what the share is checked against. */
  private readonly offlineSpent = new LocalCounts();
  /** By slot name (`rule:scope`, as in its hash key). */
  private readonly seen = new Map<string, Seen>();
  /** When the last heartbeat listed the hot caps: a cap it did not list was below `HOT` of its limit. */
  private hotAt = 0;
  private replicas?: number;
  /** The other replicas live at the last heartbeat. */
  private others: string[] = [];
  /**
   * After a loss of the shared counters: the replicas that have not restored theirs yet, and when
   * to stop waiting. Meanwhile the last seen counts and replica count stay frozen.
   */
  private restoring?: { pending: Set<string>; until: number };
  private readonly validMs: number;
  private epoch?: string;
  /** Joining counters another replica started moments ago: no shared points before then (`LOSS_GRACE_MS`). */
  private holdUntil = 0;
  private syncing?: Promise<void>;
  private readonly poll: NodeJS.Timeout;

  constructor(private readonly options: SharedBudgetOptions) {
    this.validMs = validityMs(options.rules);
    // Both budgets of a process share one connection; the scripts are the same, so define once.
    const scripts = { budgetTake: TAKE_SCRIPT, budgetAdd: ADD_SCRIPT, budgetHeartbeat: HEARTBEAT_SCRIPT };
    for (const [name, lua] of Object.entries(scripts))
      if (!(name in options.redis.client)) options.redis.client.defineCommand(name, { lua });
    this.poll = setInterval(() => {
      // A failed sync is retried at the next tick; the link logs the outage itself.
      if (!options.redis.ready) return;
      const tick = this.sync(Date.now()).then(() => this.heartbeat(Date.now()));
      void options.redis.bestEffort('budget sync', tick);
    }, POLL_MS);
    this.poll.unref();
  }

  close(): void {
    clearInterval(this.poll);
  }

  private get client(): BudgetRedis {
    return this.options.redis.client as BudgetRedis;
  }

  private key(...parts: string[]): string {
    return this.options.redis.key('budget', this.options.upstream, ...parts);
  }

  /** A slot's name: its hash key without the budget's prefix, and its key in `seen`. */
  private static slotName(rule: CountedRule, scope: string): string {
    return `${rule.name}:${scope}`;
  }

  /** A cap's member of the hot set (span, bucket and name, so the heartbeat can sum it). */
  private static hotMember(rule: CountedRule, scope: string): string {
    return `${rule.spanMs} ${rule.bucketMs} ${SharedBudget.slotName(rule, scope)}`;
  }

  /** Heartbeat, and the replica count and account-wide sums as of now. */
  private async heartbeat(now: number): Promise<void> {
    const rules = this.options.rules.filter((r) => !r.perEndpoint);
    const args: (string | number)[] = [
      this.key('replicas'),
      this.key('epoch'),
      this.key('hot'),
      ...rules.map((r) => this.key(r.name, '*')),
      this.id,
      now,
      LIVE_MS,
      this.epoch ?? '',
      this.key(''),
    ];
    for (const r of rules) args.push(r.bucketMs, r.spanMs);
    const pendingSync = !this.unsynced.empty;
    const out = await this.client.budgetHeartbeat(rules.length + 3, ...args);
    // The data set changed since this replica synced: the next sync restores and says so.
    if (out[0] === -1) return;
    const idCount = Number(out[1 + rules.length]);
    const ids = out.slice(2 + rules.length, 2 + rules.length + idCount).map(String);
    const hot = out.slice(2 + rules.length + idCount);
    if (this.restoring) {
      for (const id of ids) this.restoring.pending.delete(id);
      if (this.restoring.pending.size > 0 && now < this.restoring.until) return;
      this.endRestoring();
    }
    this.replicas = Math.max(1, Number(out[0]));
    this.others = ids.filter((id) => id !== this.id);
    // What was spent on the outage share is in the sums read now, unless it is still to be synced;
    // the per-endpoint counts (not in the heartbeat) get it folded in.
    if (!pendingSync) this.foldOffline();
    const saw = (name: string, sum: number) => {
      const prev = this.seen.get(name);
      // The heartbeat does not say when the oldest bucket leaves; keep the last known value.
      this.seen.set(name, { sum, at: now, freeInMs: prev ? Math.max(0, prev.freeInMs - (now - prev.at)) : 0 });
    };
    rules.forEach((r, i) => saw(SharedBudget.slotName(r, '*'), Number(out[i + 1])));
    for (let i = 0; i + 1 < hot.length; i += 2) saw(String(hot[i]), Number(hot[i + 1]));
    this.hotAt = now;
  }

  /** Whether the shared counters are being rebuilt after a loss (the outage share applies). */
  private isRestoring(now: number): boolean {
    if (this.restoring && now >= this.restoring.until) this.endRestoring();
    return this.restoring !== undefined;
  }

  private endRestoring(): void {
    this.restoring = undefined;
    this.foldOffline();
  }

  /**
   * Counts what was spent on the outage share into the last seen counts (those not refreshed since
   * still lack it), so that another outage right after cannot spend the same share again.
   */
  private foldOffline(): void {
    const now = Date.now();
    for (const { rule, scope, count } of this.offlineSpent.entries(now)) {
      const seen = this.seen.get(SharedBudget.slotName(rule, scope));
      if (seen && now < seen.at + rule.spanMs) seen.sum += count;
    }
    this.offlineSpent.clear();
  }

  /**
   * Takes a point through Redis, for `claim`'s caller when it is its turn across replicas and its
   * caps allow; throws when Redis fails (the caller then uses `takeOffline`).
   */
  async take(endpoint: string, now: number, claim?: Claim, dueAt?: number): Promise<BudgetAnswer> {
    if (this.epoch === undefined || !this.unsynced.empty) await this.sync(now);
    if (this.replicas === undefined) await this.heartbeat(now);
    if (this.isRestoring(now)) return this.takeOffline(endpoint, now, claim?.caps);
    if (this.holdUntil > now) return { ok: false, waitMs: this.holdUntil - now, rule: 'resync', perEndpoint: false };
    const slots = slotsOf(this.options.rules, endpoint, claim?.caps);
    const ats = slots.map(({ rule }) => countedAt(rule, now, dueAt));
    const args: (string | number)[] = [
      this.key('epoch'),
      ...slots.map(({ rule, scope }) => this.key(rule.name, scope)),
      this.key('claims'),
      this.key('tags'),
      this.key('clock'),
      this.key('hot'),
      this.epoch ?? '', // set by the sync above
      now,
      this.key(''),
    ];
    for (const [i, { rule, limit, cap }] of slots.entries())
      args.push(limit, rule.bucketMs, rule.spanMs, ats[i] ?? now, cap ? 1 : 0);
    args.push(claim?.caller ?? '', claim?.weight ?? 0, claim?.priority ?? 0);
    // Counted before it is sent: if the data set is lost while this take is on its way, the
    // replica's restore includes it (at worst it is counted twice: the safe side). A timeout keeps
    // the count too, since the script may have run.
    this.sent.record(slots, now);
    // The script answers its outcome, a wait, then each slot's count and when it frees a point.
    const [outcome = -1, waitMs = 0, ...counts] = await this.client.budgetTake(slots.length + 5, ...args);
    if (outcome === -1) {
      this.sent.record(slots, now, -1);
      await this.sync(now);
      if (this.isRestoring(now)) return this.takeOffline(endpoint, now, claim?.caps);
      return { ok: false, waitMs: Math.max(1, this.holdUntil - now), rule: 'resync', perEndpoint: false };
    }
    slots.forEach(({ rule, scope }, i) =>
      this.seen.set(SharedBudget.slotName(rule, scope), {
        sum: counts[2 * i] ?? 0,
        at: now,
        freeInMs: counts[2 * i + 1] ?? 0,
      }),
    );
    if (outcome === 0)
      return {
        ok: true,
        shared: true,
        validUntil: now + this.validMs,
        refund: () => this.refundShared(slots, now, ats),
      };
    this.sent.record(slots, now, -1);
    const refused = slots[outcome - 1];
    if (!refused) return { ok: false, waitMs, rule: 'turn', perEndpoint: false }; // -2: not its turn
    const { rule, cap } = refused;
    return { ok: false, waitMs, rule: rule.name, perEndpoint: rule.perEndpoint, share: cap };
  }

  /**
   * While Redis is away, or its counters are being rebuilt: this replica's share of what the last
   * seen shared counts left, of every rule and every cap of the caller.
   */
  takeOffline(endpoint: string, now: number, caps?: readonly Cap[]): BudgetAnswer {
    const slots = slotsOf(this.options.rules, endpoint, caps);
    const refusal = this.offlineSpent.check(slots, now, (slot) => this.offlineLimit(slot, now));
    if (refusal) return refusal;
    const count = (n: number) => [this.sent, this.unsynced, this.offlineSpent].forEach((c) => c.record(slots, now, n));
    count(1);
    return { ok: true, shared: false, validUntil: now + this.validMs, refund: () => count(-1) };
  }

  /**
   * A slot's limit while Redis is away: _(limit − last seen shared count) ÷ last seen replicas_
   * until the span of that count has passed, then _limit ÷ replicas_. A cap's count is the one a
   * take of its caller saw since the last heartbeat, else the heartbeat's (exact for a hot cap, at
   * most `HOT` of its limit for the others).
   */
  private offlineLimit(slot: Slot, now: number): { limit: number; risesInMs?: number } {
    const { rule, scope, limit } = slot;
    const n = this.replicas;
    // Pacing (fair-share.ts) shapes this replica's sends; the platform's rules, split below, hold
    // the account. Split too, a pace of one point would round to none: nothing would go.
    if (rule.pacing) return { limit };
    if (n === undefined) return { limit: Math.floor(limit * this.options.localShare) };
    let seen: Pick<Seen, 'sum' | 'at'> | undefined = this.seen.get(SharedBudget.slotName(rule, scope));
    if (slot.cap && this.hotAt > 0 && (!seen || seen.at < this.hotAt))
      seen = { sum: Math.ceil(limit * HOT), at: this.hotAt };
    const endsAt = seen ? seen.at + rule.spanMs : 0;
    if (!seen || now >= endsAt) return { limit: Math.floor(limit / n) };
    return { limit: Math.floor(Math.max(0, limit - seen.sum) / n), risesInMs: endsAt - now };
  }

  /** `caller` has nothing waiting here any more: its claim (if any) holds no one up (best effort). */
  release(caller: string): void {
    if (this.options.redis.ready)
      void this.options.redis.bestEffort('budget claim', this.client.hdel(this.key('claims'), caller));
  }

  /** Best effort: if Redis fails, the point stays counted (the safe side). `ats`: when each slot counted it. */
  private refundShared(slots: readonly Slot[], now: number, ats: readonly number[]): void {
    if (!this.options.redis.ready) return;
    this.sent.record(slots, now, -1);
    const keys = [...slots.map(({ rule, scope }) => this.key(rule.name, scope)), this.key('hot')];
    const args = slots.flatMap(({ rule }, i) => [
      Math.floor((ats[i] ?? now) / rule.bucketMs),
      -1,
      rule.spanMs + 1_000,
      '',
    ]);
    void this.client.budgetAdd(keys.length, ...keys, ...args, now).catch(() => this.sent.record(slots, now, 1));
  }

  /** What this replica sent of `rule` in its span, by scope. */
  sentHere(rule: CountedRule, now: number): [string, number][] {
    return this.sent.sums(rule, now);
  }

  /**
   * An account-wide rule as last seen (no Redis round trip), with this replica's offline sends;
   * for `scope`, a cap's, with its `limit`: what is left of the cap.
   */
  statusOf(rule: CountedRule, now: number, scope = '*', limit = rule.allowed): RuleStatus {
    const seen = this.seen.get(SharedBudget.slotName(rule, scope));
    const live = seen && now < seen.at + rule.spanMs;
    const used = (live ? seen.sum : 0) + (this.offlineSpent.peek(rule, scope)?.sum(now) ?? 0);
    const remaining = Math.max(0, limit - used);
    return ruleStatus(rule, remaining, remaining > 0 || !seen ? 0 : Math.max(0, seen.freeInMs - (now - seen.at)));
  }

  /** One sync at a time (takes and the poll). */
  private sync(now: number): Promise<void> {
    this.syncing ??= this.syncShared(now).finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  /**
   * If the data set changed (the marker is gone or different), add this replica's sends of the
   * live spans back and hold back for the grace; otherwise add what was sent while Redis was away.
   */
  private async syncShared(now: number): Promise<void> {
    // SET … NX GET (Redis ≥ 7): the marker there, or ours if there was none, in one round trip.
    // It expires after a day so unused prefixes do not linger; its expiry looks like lost data,
    // which only over-counts the live spans once.
    const fresh = `${Math.random().toString(36).slice(2)}.${now}`;
    const found = await this.client.set(this.key('epoch'), fresh, 'EX', 86_400, 'NX', 'GET');
    const epoch = found ?? fresh;
    if (epoch === this.epoch && this.unsynced.empty) return;
    const lost = this.epoch !== undefined && epoch !== this.epoch;
    // Joining a data set another replica started less than the grace ago (it may have just noticed
    // a loss): wait until the replicas have restored their counts. The first replica on an empty
    // Redis starts at once; a replica that saw the loss itself waits for acknowledgements instead.
    if (this.epoch === undefined && found !== null) {
      this.holdUntil = Math.max(this.holdUntil, (Number(epoch.split('.')[1]) || now) + LOSS_GRACE_MS);
    }
    // A snapshot: sends counted while this runs stay pending for the next sync.
    const items = [...(lost ? this.sent : this.unsynced).entries(Date.now())].filter((e) => e.count > 0);
    if (items.length > 0) {
      const keys = [...items.map((e) => this.key(e.rule.name, e.scope)), this.key('hot')];
      const args = items.flatMap((e) => [
        e.bucket,
        e.count,
        e.rule.spanMs + 1_000,
        isCap(e.scope) ? SharedBudget.hotMember(e.rule, e.scope) : '',
      ]);
      await this.client.budgetAdd(keys.length, ...keys, ...args, now);
    }
    // Only once the counts are in: if adding them failed, the next sync finds the marker changed
    // (or the outage's counts still pending) and adds them then.
    this.epoch = epoch;
    if (!lost) {
      this.unsynced.subtract(items);
    } else {
      this.unsynced.clear();
      // Until the replicas last seen live have restored theirs too (see the heartbeat).
      this.restoring = { pending: new Set(this.others), until: now + RESTORE_WAIT_MS };
      this.options.log?.({
        level: 'warn',
        msg: "shared budget counters were lost; restored this replica's counts",
        upstream: this.options.upstream,
      });
    }
  }
}

/** A cap's scope (`caller:…`, `group:…`), as opposed to `*` or an endpoint (`GET /…`). */
function isCap(scope: string): boolean {
  return scope.startsWith('caller:') || scope.startsWith('group:');
}
