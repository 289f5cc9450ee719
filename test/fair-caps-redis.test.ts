/**
 * Callers' caps across replicas sharing Redis (budget-redis.ts): a caller's cap, and its issuer's
 * aggregate cap, are counted in the shared budget with the account's rules, so two replicas hold a
 * caller to one cap together; a caller refused by its cap leaves no claim that holds the others up;
 * and while Redis is away each replica spends only its share of what the last seen counts left of
 * each cap: exactly for a cap the heartbeat listed as hot, at most half for the others. Two
 * `AccountBudget`s, each with its own `RedisLink`, on the suite's Redis behind a proxy that can be
 * cut; the takes are given their clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AccountBudget, type Claim } from '../src/core/budget.js';
import { RedisLink } from '../src/core/redis.js';
import { RedisProxy, requireRedis, uniquePrefix } from './support/redis.js';
import { until } from './support/wait.js';

const run = await requireRedis();
const ENDPOINT = 'GET /v1/entities/:id';
/** 40 in any 10.5 s span (the guard of a 10 s window is 500 ms): long enough that no span slides during a test. */
const RULES = [{ name: 'long', limit: 40, windowMs: 10_000, perEndpoint: false }];
const capped = (caller: string, share = 0.25, group?: number): Claim => ({
  caller,
  weight: 1,
  priority: 4,
  caps: [
    { scope: `caller:${caller}`, share },
    ...(group ? [{ scope: `group:${caller.split('|')[0]}`, share: group }] : []),
  ],
});

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

/** Two replicas on one prefix through one proxy, past the hold a replica joining fresh counters keeps. */
async function replicas(): Promise<{ a: AccountBudget; b: AccountBudget; proxy: RedisProxy }> {
  const proxy = new RedisProxy();
  const url = await proxy.start();
  const prefix = uniquePrefix();
  const links = [0, 1].map(() => new RedisLink({ url, prefix, commandTimeoutMs: 2_000 }));
  const [a, b] = links.map(
    (redis) => new AccountBudget({ upstream: 'governance', rules: RULES, margin: 1, localShare: 0.5, redis }),
  ) as [AccountBudget, AccountBudget];
  open.push(async () => {
    a.close();
    b.close();
    await Promise.all(links.map((l) => l.close()));
    await proxy.close();
  });
  await until(() => links.every((l) => l.ready));
  expect(await a.take(ENDPOINT, Date.now())).toMatchObject({ ok: true, shared: true });
  // The other replica's first take waits out its hold (it joined counters started just now).
  await until(async () => (await b.take(ENDPOINT, Date.now())).ok, 'the second replica past its hold');
  return { a, b, proxy };
}

/** How many of `n` takes for `claim` on `budget` are admitted. */
async function admitted(budget: AccountBudget, claim: Claim, n: number): Promise<number> {
  let ok = 0;
  for (let i = 0; i < n; i++) if ((await budget.take(ENDPOINT, Date.now(), claim)).ok) ok++;
  return ok;
}

describe.skipIf(!run)("callers' caps across replicas sharing Redis", () => {
  it('two replicas hold a caller to one cap together; refused by its cap, it holds no one else up', async () => {
    const { a, b } = await replicas();
    const greedy = capped('https://a.example/|greedy');
    // A quarter of 40: 10, whichever replica asks.
    expect(await admitted(a, greedy, 6)).toBe(6);
    expect(await admitted(b, greedy, 6)).toBe(4);
    expect(await a.take(ENDPOINT, Date.now(), greedy)).toMatchObject({ ok: false, rule: 'long', share: true });
    expect(a.capWaitMs(greedy.caps!)).toBeGreaterThan(5_000);
    // Its refusal left no claim: another caller on the other replica goes at once, not after a turn.
    expect(await b.take(ENDPOINT, Date.now(), capped('https://a.example/|polite'))).toMatchObject({ ok: true });
  });

  it("an issuer's callers are held together to its aggregate cap, on both replicas", async () => {
    const { a, b } = await replicas();
    let sent = 0;
    // Three subjects of one issuer, a quarter each, 30 % together: 12 of 40.
    for (const [i, sub] of ['u1', 'u2', 'u3'].entries())
      sent += await admitted(i % 2 ? b : a, capped(`https://a.example/|${sub}`, 0.25, 0.3), 10);
    expect(sent).toBe(12);
    // Another issuer's caller is not held by it.
    expect(await admitted(b, capped('https://b.example/|u1', 0.25, 0.3), 10)).toBe(10);
  });

  it("Redis lost: each replica spends its share of what the heartbeat's counts left of each cap", async () => {
    const { a, b, proxy } = await replicas();
    const hot = capped('https://a.example/|hot');
    const cool = capped('https://a.example/|cool');
    // 8 of its 10: past half its cap, so the heartbeat lists it; the other spends 2 and is not listed.
    expect(await admitted(b, hot, 8)).toBe(8);
    expect(await admitted(b, cool, 2)).toBe(2);
    // One more point through a: once both replicas see the account at 13, each has had a heartbeat
    // since the takes above, with the account's count and the hot cap's (a saw neither cap).
    expect(await a.take(ENDPOINT, Date.now())).toMatchObject({ ok: true });
    await until(() => [a, b].every((r) => r.status().rules[0]!.remaining === 40 - 13), 'both heartbeats');
    proxy.cut();
    // The hot cap: (10 − 8) ÷ 2 replicas.
    expect(await admitted(a, hot, 5)).toBe(1);
    // A cap the heartbeat did not list had less than half of its 10 spent: (10 − 5) ÷ 2.
    expect(await admitted(a, cool, 5)).toBe(2);
    expect(await admitted(a, capped('https://a.example/|new'), 5)).toBe(2);
    // Replica b: the same shares, so that together they never pass a cap.
    expect(await admitted(b, hot, 5)).toBe(1);
    expect(await admitted(b, cool, 5)).toBe(2);
  });
});
