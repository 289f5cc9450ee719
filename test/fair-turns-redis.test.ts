/**
 * Callers in turn across replicas sharing Redis (budget-redis.ts): a point goes to the caller whose
 * claim is lowest in (priority, virtual tag) over every replica, so a polite caller asking on one
 * replica is served before a greedy caller asking on another, whichever asks first; a claim whose
 * replica never asks again holds no one up past its time, and one given up holds no one at all.
 * Two `AccountBudget`s, each with its own `RedisLink`, on the suite's Redis; the clock is the `now`
 * each take is given, so nothing here waits for time to pass.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AccountBudget } from '../src/core/budget.js';
import { RedisLink } from '../src/core/redis.js';
import { REDIS_URL, requireRedis, uniquePrefix } from './support/redis.js';
import { until } from './support/wait.js';

const run = await requireRedis();
const ENDPOINT = 'GET /v1/entities/:id';
/** Two a second; with the guard band a point frees 1,250 ms (and at most one 25 ms bucket) after it was taken. */
const RULES = [{ name: 'second', limit: 2, windowMs: 1_000, perEndpoint: false }];
const FREED = 1_300;
const greedy = { caller: 'greedy', weight: 1, priority: 4 };
const polite = { caller: 'polite', weight: 1, priority: 4 };

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

/** Two replicas on one prefix, past the hold a replica joining fresh counters keeps; and the clock they start at. */
async function replicas(): Promise<[AccountBudget, AccountBudget, number]> {
  const prefix = uniquePrefix();
  const links = [0, 1].map(() => new RedisLink({ url: REDIS_URL, prefix, commandTimeoutMs: 2_000 }));
  const budgets = links.map(
    (redis) => new AccountBudget({ upstream: 'governance', rules: RULES, margin: 1, localShare: 0.5, redis }),
  ) as [AccountBudget, AccountBudget];
  open.push(async () => {
    budgets.forEach((b) => b.close());
    await Promise.all(links.map((l) => l.close()));
  });
  await until(() => links.every((l) => l.ready));
  const start = Date.now();
  // The first take starts the counters; the other replica's first take comes after its hold.
  expect(await budgets[0].take(ENDPOINT, start)).toMatchObject({ ok: true, shared: true });
  return [...budgets, start + 5_000];
}

describe.skipIf(!run)('callers in turn across replicas sharing Redis', () => {
  it('a polite caller waiting on one replica gets the next point before a greedy one on another, which asks first', async () => {
    const [a, b, t] = await replicas();
    expect(await b.take(ENDPOINT, t, greedy)).toMatchObject({ ok: true, shared: true });
    expect(await a.take(ENDPOINT, t, greedy)).toMatchObject({ ok: true, shared: true });
    // Spent: both wait for a point, and each leaves its caller's claim.
    expect(await a.take(ENDPOINT, t + 10, greedy)).toMatchObject({ ok: false, rule: 'second' });
    expect(await b.take(ENDPOINT, t + 20, polite)).toMatchObject({ ok: false, rule: 'second' });
    // A point is free again: a asks first, but it is the polite caller's turn.
    expect(await a.take(ENDPOINT, t + FREED, greedy)).toMatchObject({ ok: false, rule: 'turn' });
    expect(await b.take(ENDPOINT, t + FREED + 1, polite)).toMatchObject({ ok: true, shared: true });
    expect(await a.take(ENDPOINT, t + FREED + 2, greedy)).toMatchObject({ ok: true, shared: true });
  });

  it('one caller asking on both replicas is never held back by its own claim', async () => {
    const [a, b, t] = await replicas();
    expect(await a.take(ENDPOINT, t, greedy)).toMatchObject({ ok: true });
    expect(await b.take(ENDPOINT, t, greedy)).toMatchObject({ ok: true });
    expect(await b.take(ENDPOINT, t + 1, greedy)).toMatchObject({ ok: false, rule: 'second' });
    expect(await a.take(ENDPOINT, t + 2, greedy)).toMatchObject({ ok: false, rule: 'second' });
    expect(await b.take(ENDPOINT, t + FREED, greedy)).toMatchObject({ ok: true });
    expect(await a.take(ENDPOINT, t + FREED + 1, greedy)).toMatchObject({ ok: true });
  });

  it('a claim whose replica does not ask again holds the others up only until its time is past', async () => {
    const [a, b, t] = await replicas();
    await a.take(ENDPOINT, t, greedy);
    await a.take(ENDPOINT, t, greedy);
    const refused = await b.take(ENDPOINT, t + 20, polite);
    expect(refused).toMatchObject({ ok: false, rule: 'second' });
    // b was told to come back after waitMs; it does not (a replica gone, a request cancelled).
    const due = t + 20 + (refused.ok ? 0 : refused.waitMs);
    expect(await a.take(ENDPOINT, due + 1, greedy)).toMatchObject({ ok: false, rule: 'turn' });
    expect(await a.take(ENDPOINT, due + 251, greedy)).toMatchObject({ ok: true, shared: true });
  });

  it('a claim given up (nothing of that caller waits on its replica any more) holds no one', async () => {
    const [a, b, t] = await replicas();
    await a.take(ENDPOINT, t, greedy);
    await a.take(ENDPOINT, t, greedy);
    expect(await b.take(ENDPOINT, t + 20, polite)).toMatchObject({ ok: false, rule: 'second' });
    expect(await a.take(ENDPOINT, t + FREED, greedy)).toMatchObject({ ok: false, rule: 'turn' });
    b.release('polite');
    await until(async () => (await a.take(ENDPOINT, t + FREED + 1, greedy)).ok, 'the released claim gone');
  });
});
