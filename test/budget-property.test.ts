/**
 * The account budget's guarantee as a property: whatever the interleaving of takes (bursts, on any
 * replica and endpoint, for callers taking turns across replicas), releases of unsent admissions, time passing, Redis killed and started again
 * empty, its keys deleted under live connections, and replicas restarted with no memory, no span of
 * any rule's length (its window plus the guard band) holds more admissions than the rule allows.
 *
 * Real parts: three `AccountBudget`s, each with its own `RedisLink`, on a redis-server of this
 * file's own; a Redis loss is that server killed (SIGKILL) and started again on its port, or its
 * keys deleted. The clock is injected: only `Date` is faked, running on from where the test sets it
 * (timers stay real, so ioredis and the budget's 200 ms heartbeat run as in production); time
 * passing is a jump of the clock, then every replica's next heartbeat. After each transition the
 * test waits for its condition (links down or up, heartbeats seen in Redis), never for a time.
 *
 * Left out, because the budget does not promise them (found by this property when they were in):
 * - Redis lost before every replica has heartbeat since the last admission anywhere: a replica
 *   spends its outage share of the counts and replica count it last saw, so others' sends since its
 *   last heartbeat (up to 200 ms of them), or replicas it has not seen yet, are not in its share.
 * - A replica started while Redis is away: it spends `localShare` of each rule whatever the others
 *   spent. Replicas restart here only while Redis is up, and are waited for until they have synced.
 * - A replica spending its outage share while others spend the shared counts: one cut off alone,
 *   or one whose command took longer than the command timeout (so the timeout here is long enough
 *   for a loaded machine), or one still restoring after a loss while another has finished. The
 *   steps wait, after a loss, until every replica has restored and seen the others restore.
 * - Per-endpoint rules: during an outage a replica spends `allowed ÷ replicas` of an endpoint it
 *   has not itself sent to within the span (the heartbeat carries only the account-wide sums).
 */
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, it, vi } from 'vitest';
import { AccountBudget } from '../src/core/budget.js';
import { RedisLink } from '../src/core/redis.js';
import { countedRule } from '../src/core/sliding-window.js';
import { maxInAnySpan, OwnRedis, uniquePrefix } from './support/redis.js';
import { until } from './support/wait.js';

const RULES = [
  { name: 'second', limit: 6, windowMs: 1_000, perEndpoint: false },
  { name: 'five-seconds', limit: 15, windowMs: 5_000, perEndpoint: false },
];
const MARGIN = 1;
const COUNTED = RULES.map((r) => countedRule(r, MARGIN));
const REPLICAS = 3;
const ENDPOINTS = ['GET /v1/entities/:id', 'POST /v1/entities/search'];
const SEED = Number(process.env.BUDGET_PROPERTY_SEED ?? 28);
const RUNS = Number(process.env.BUDGET_PROPERTY_RUNS ?? 20);

type Step =
  | { kind: 'take'; replica: number; endpoint: number; caller: number; n: number }
  | { kind: 'release'; replica: number; pick: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'redis-restart' }
  | { kind: 'redis-down' }
  | { kind: 'redis-up' }
  | { kind: 'redis-flush' }
  | { kind: 'replica-restart'; replica: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('take' as const),
      replica: fc.nat(REPLICAS - 1),
      endpoint: fc.nat(ENDPOINTS.length - 1),
      caller: fc.nat(2),
      n: fc.integer({ min: 1, max: 8 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('release' as const), replica: fc.nat(REPLICAS - 1), pick: fc.nat() }),
  },
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 600 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'redis-restart' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'redis-down' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'redis-up' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'redis-flush' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replica-restart' as const), replica: fc.nat(REPLICAS - 1) }) },
);

interface Admission {
  at: number;
  endpoint: string;
  /** Which replica (and which start of it) admitted it, and whether through the shared counts. */
  by: string;
  refund?: () => void;
}

interface Replica {
  link: RedisLink;
  budget: AccountBudget;
  /** Admitted and not given back: each counts as a request on the wire at `at`. */
  held: Admission[];
  generation: number;
}

/** The rule (and scope) whose span holds the most admissions, if any holds more than allowed. */
function overspent(sent: Admission[]): string | undefined {
  for (const rule of COUNTED) {
    const scopes = rule.perEndpoint ? ENDPOINTS : ['*'];
    for (const scope of scopes) {
      const times = sent.filter((a) => scope === '*' || a.endpoint === scope).map((a) => a.at);
      const most = maxInAnySpan(times, rule.spanMs);
      if (most > rule.allowed)
        return `${rule.name} ${scope}: ${most} in a span of ${rule.spanMs} ms (allowed ${rule.allowed})`;
    }
  }
  return undefined;
}

let redis: OwnRedis;
let admin: Redis;
let run = true;
beforeAll(async () => {
  redis = new OwnRedis();
  try {
    admin = new Redis(await redis.start());
    // Reconnects by itself after the kills below; its commands wait for that.
    admin.on('error', () => undefined);
  } catch (e) {
    if (process.env.CI === 'true') throw e;
    console.warn(
      `Skipping the budget property: ${(e as Error).message} (install redis-server; it fails instead when CI=true).`,
    );
    run = false;
  }
});
afterAll(async () => {
  vi.useRealTimers();
  admin?.disconnect();
  await redis?.stop();
});

/** One interleaving, from a fresh key prefix; the clock starts at `start`. */
async function play(steps: Step[], start: number): Promise<void> {
  const prefix = uniquePrefix();
  vi.setSystemTime(start);
  let up = true;
  const sent: Admission[] = [];
  let generation = 0;
  const replica = (): Replica => {
    const link = new RedisLink({ url: redis.url, prefix, commandTimeoutMs: 5_000 });
    const budget = new AccountBudget({
      upstream: 'governance',
      rules: RULES,
      margin: MARGIN,
      localShare: 0.5,
      redis: link,
    });
    return { link, budget, held: [], generation: generation++ };
  };
  const close = async (r: Replica) => {
    r.budget.close();
    await r.link.close();
  };
  const replicas = Array.from({ length: REPLICAS }, replica);
  const linksAre = (ready: boolean, what: string) =>
    until(() => replicas.every((r) => r.link.ready === ready), what, { timeout: 15_000 });
  /**
   * Every replica has read the shared counts after everything sent so far (a heartbeat at a later
   * moment than the last admission): how Redis is lost in these steps, see the file's header.
   */
  const polled = async () => {
    const since = Date.now() + 1;
    await until(
      async () => (await admin.zrangebyscore(`${prefix}budget:governance:replicas`, since, '+inf')).length === REPLICAS,
      'every replica to heartbeat',
    );
  };
  /**
   * After a loss: every replica has restored its counts into the new data set (its first heartbeat
   * there), then seen that the others have (its second), so none spends an outage share any more.
   */
  const rebuilt = async () => {
    await polled();
    await polled();
  };
  /** Killed (SIGKILL): the data set is gone; the replicas notice and count offline. */
  const redisDown = async () => {
    if (!up) return;
    await polled();
    await redis.stop();
    await linksAre(false, 'every replica to notice Redis gone');
    up = false;
  };
  /** Started again, empty, on the port the replicas know. */
  const redisUp = async () => {
    if (up) return;
    await redis.start();
    await linksAre(true, 'every replica reconnected');
    up = true;
    await rebuilt();
  };
  /** The replicas that have synced with the current data set and heartbeat into it. */
  const heartbeats = () => admin.zrange(`${prefix}budget:governance:replicas`, 0, -1);
  try {
    await until(async () => (await heartbeats()).length === REPLICAS, 'every replica synced');
    for (const s of steps) {
      switch (s.kind) {
        case 'take': {
          const r = replicas[s.replica]!;
          const endpoint = ENDPOINTS[s.endpoint]!;
          const at = Date.now();
          const claim = { caller: `caller-${s.caller}`, weight: s.caller + 1, priority: 4 };
          const answers = await Promise.all(Array.from({ length: s.n }, () => r.budget.take(endpoint, at, claim)));
          for (const answer of answers) {
            if (!answer.ok) continue;
            const by = `${s.replica}.${r.generation}${answer.shared ? ' shared' : ' offline'}`;
            const admission = { at, endpoint, by, refund: answer.refund };
            r.held.push(admission);
            sent.push(admission);
          }
          break;
        }
        case 'release': {
          // An admission that went stale before it was sent gives its point back: it never reached the upstream.
          const r = replicas[s.replica]!;
          if (r.held.length === 0) break;
          const [admission] = r.held.splice(s.pick % r.held.length, 1);
          admission!.refund?.();
          sent.splice(sent.indexOf(admission!), 1);
          break;
        }
        case 'advance':
          // Time passes with the replicas' heartbeats running, as they do every 200 ms.
          vi.setSystemTime(Date.now() + s.ms);
          if (up) await polled();
          break;
        case 'redis-restart':
          await redisDown();
          await redisUp();
          break;
        case 'redis-down':
          await redisDown();
          break;
        case 'redis-up':
          await redisUp();
          break;
        case 'redis-flush':
          if (!up) break;
          await polled();
          await redis.deleteKeys(prefix);
          await rebuilt();
          break;
        case 'replica-restart': {
          // Only while Redis is up (see the file's header): the new process joins the shared counts.
          if (!up) break;
          const before = new Set(await heartbeats());
          await close(replicas[s.replica]!);
          replicas[s.replica] = replica();
          await until(async () => (await heartbeats()).some((id) => !before.has(id)), 'the restarted replica synced');
          break;
        }
      }
      const over = overspent(sent);
      if (over) {
        const log = sent.map((a) => `+${a.at - start} ${a.by}`).join(', ');
        throw new Error(`after ${JSON.stringify(s)} at +${Date.now() - start} ms: ${over}; admissions: ${log}`);
      }
    }
  } finally {
    await Promise.all(replicas.map(close));
    if (!up) await redis.start();
  }
}

describe('account budget property', () => {
  it(`no span of any rule holds more than it allows, over ${RUNS} random interleavings with Redis loss and replica restarts`, async () => {
    if (!run) return;
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    let start = Date.UTC(2030, 0, 1);
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), async (steps) => {
          // Each run an hour later: nothing of an earlier run is in any span.
          start += 3_600_000;
          await play(steps, start);
        }),
        {
          numRuns: RUNS,
          seed: SEED,
          path: process.env.BUDGET_PROPERTY_PATH,
        },
      );
    } finally {
      vi.useRealTimers();
    }
  }, 180_000);
});
