/**
 * The fair queue and the per-caller counts behind the fair share of an account (src/core/fair-queue.ts,
 * src/core/fair-share.ts): callers take turns inside a priority, weights bias the turns, an idle caller
 * gains no credit, priorities still come first, and a caller's cap and operations per minute hold
 * for it alone (clocks passed in).
 */
import { describe, expect, it } from 'vitest';
import { FairQueue } from '../src/core/fair-queue.js';
import { CallerShares, OperationRates, pacingRules, policyOf } from '../src/core/fair-share.js';
import { countedAt, countedRule } from '../src/core/sliding-window.js';
import { LocalBudget } from '../src/core/budget-local.js';
import { AccountBudget } from '../src/core/budget.js';
import { SharedBudget } from '../src/core/budget-redis.js';
import { RedisLink } from '../src/core/redis.js';
import { loadConfig } from '../src/config/config.js';
import { Registry } from 'prom-client';
import { registerCallerBudget, TOP_CALLERS } from '../src/observability/metrics.js';

const drain = <T>(q: FairQueue<T>) => {
  const out: T[] = [];
  for (let item = q.shift(); item !== undefined; item = q.shift()) out.push(item);
  return out;
};

describe('fair queue', () => {
  it('one caller alone is first come, first served', () => {
    const q = new FairQueue<number>();
    for (let i = 0; i < 5; i++) q.push(5, 'a', i);
    expect(drain(q)).toEqual([0, 1, 2, 3, 4]);
  });

  it('a caller with one request waiting behind a backlog of another goes next, and says so', () => {
    const q = new FairQueue<string>();
    for (let i = 0; i < 100; i++) q.push(5, 'greedy', `g${i}`);
    expect(q.shift()).toBe('g0');
    // Nothing is ahead of it: it is served before the greedy caller's next request.
    expect(q.push(5, 'polite', 'p0')).toBe(0);
    expect(q.push(5, 'polite', 'p1')).toBe(2);
    expect(drain(q).slice(0, 4)).toEqual(['p0', 'g1', 'p1', 'g2']);
  });

  it('callers alternate; weights give more turns; an idle caller earns no credit', () => {
    const q = new FairQueue<string>((k) => (k === 'heavy' ? 3 : 1));
    for (let i = 0; i < 8; i++) q.push(5, 'heavy', 'h');
    for (let i = 0; i < 8; i++) q.push(5, 'light', 'l');
    const first8 = drain(q).slice(0, 8).join('');
    expect(first8.split('h').length - 1).toBe(6);
    expect(first8.split('l').length - 1).toBe(2);

    const r = new FairQueue<string>();
    for (let i = 0; i < 10; i++) r.push(5, 'a', 'a');
    for (let i = 0; i < 6; i++) r.shift();
    // 'b' was idle while 'a' was served six times: it takes turns from now on, not six turns in a row.
    for (let i = 0; i < 4; i++) r.push(5, 'b', 'b');
    expect(drain(r).join('')).toBe('babababa');
  });

  it('an item that leaves unserved costs its caller no turn: backlogged callers share by weight whatever expires', () => {
    // Two callers asking faster than they are served, one faster than the other; what waits too
    // long leaves unserved (a queue deadline), as on the admission line.
    const q = new FairQueue<{ key: string; at: number }>((k) => (k === 'heavy' ? 2 : 1));
    const served = { fast: 0, slow: 0, heavy: 0 };
    for (let t = 0; t < 20_000; t += 100) {
      for (let i = 0; i < 4; i++) q.push(5, 'fast', { key: 'fast', at: t });
      for (let i = 0; i < 3; i++) q.push(5, 'slow', { key: 'slow', at: t });
      for (let i = 0; i < 3; i++) q.push(5, 'heavy', { key: 'heavy', at: t });
      q.remove((item) => item.at < t - 1_500);
      for (let i = 0; i < 4; i++) if (t >= 10_000) served[q.shift()!.key as keyof typeof served]++;
      // (before 10 s: the same service, not counted)
      if (t < 10_000) for (let i = 0; i < 4; i++) q.shift();
    }
    // Weights 1, 1 and 2: a quarter, a quarter and half of the service, whatever each asked for.
    expect(served).toEqual({ fast: 100, slow: 100, heavy: 200 });
  });

  it('priorities come first, callers take turns inside each', () => {
    const q = new FairQueue<string>();
    q.push(7, 'a', 'a-bulk');
    q.push(4, 'a', 'a-single');
    q.push(7, 'b', 'b-bulk');
    q.push(2, 'c', 'c-write');
    expect(drain(q)).toEqual(['c-write', 'a-single', 'a-bulk', 'b-bulk']);
  });

  it('delete, remove and waitingOf keep the count', () => {
    const q = new FairQueue<string>();
    q.push(5, 'a', 'a1');
    q.push(5, 'a', 'a2');
    q.push(5, 'b', 'b1');
    expect(q.delete(5, 'a', 'a2')).toBe(true);
    expect(q.delete(5, 'a', 'nope')).toBe(false);
    expect(q.waitingOf('a')).toBe(1);
    expect(q.remove((x) => x.startsWith('b'))).toEqual(['b1']);
    expect(q.size).toBe(1);
    expect(drain(q)).toEqual(['a1']);
  });
});

describe('per-caller shares and rates', () => {
  const rule = countedRule({ name: 'minute', limit: 100, windowMs: 1_000, perEndpoint: false }, 1, 0);

  it("a caller's cap holds on every account rule, the longest above all; the others go on; its share is reported", async () => {
    const rules = [
      { name: 'second', limit: 100, windowMs: 1_000, perEndpoint: false },
      { name: 'minute', limit: 1_000, windowMs: 60_000, perEndpoint: false },
    ];
    const budget = new AccountBudget({ upstream: 'governance', rules, margin: 1, guardMs: 0, localShare: 1 });
    const callers = new Map([
      ['iss|batch', { share: 0.2 }],
      ['*', { share: 0.25 }],
    ]);
    const config = { callers, groups: new Map(), smooth: 0 };
    const shares = new CallerShares(config, budget);
    const take = (key: string, at: number) =>
      budget.take('/e', at, { caller: key, weight: 1, priority: 4, caps: shares.capsOf(key) });
    const t = 1_000_000;
    // 20 % of the second rule: 20 a second (a second and a bucket apart: a bucket the span touches
    // counts whole); ten seconds of that is 20 % of the minute rule.
    for (let s = 0; s < 10; s++) {
      for (let i = 0; i < 20; i++) expect((await take('iss|batch', t + s * 1_020)).ok).toBe(true);
      expect(await take('iss|batch', t + s * 1_020)).toMatchObject({ ok: false, rule: 'second', share: true });
    }
    // A new second, but the minute's cap is spent: refused for the minute, for it alone.
    expect(await take('iss|batch', t + 10_200)).toMatchObject({ ok: false, rule: 'minute', share: true });
    expect(shares.capWaitMs('iss|batch', t + 10_200)).toBeGreaterThan(40_000);
    expect(shares.of('iss|batch', t + 10_200)).toEqual({ share: 0.2, cap: 0.2 });
    // Another caller (`*`, 25 %) is served meanwhile.
    for (let i = 0; i < 25; i++) expect((await take('iss|ui', t + 10_200)).ok).toBe(true);
    expect(await take('iss|ui', t + 10_200)).toMatchObject({ ok: false, share: true });
    expect(shares.capWaitMs('iss|ui', t + 10_200)).toBeGreaterThan(0);
    expect(shares.spent(t + 10_200)).toEqual([['iss|ui', 25]]);
    // Once the minute slid past its first second, the capped caller goes again.
    expect(shares.capWaitMs('iss|batch', t + 61_300)).toBe(0);
    expect((await take('iss|batch', t + 61_300)).ok).toBe(true);
    // The gateway's own work ('') is never capped.
    expect(shares.capsOf('')).toEqual([]);
  });

  it("an issuer's callers together are held to its aggregate cap; a client id is counted per issuer", async () => {
    const rules = [{ name: 'second', limit: 100, windowMs: 1_000, perEndpoint: false }];
    const budget = new AccountBudget({ upstream: 'governance', rules, margin: 1, guardMs: 0, localShare: 1 });
    const config = loadConfig({
      NODE_ENV: 'test',
      GOVERNANCE_URL: 'http://127.0.0.1:9',
      GOVERNANCE_AUTH_MODE: 'forward',
      CALENDAR_URL: 'http://127.0.0.1:9',
      FAIR_SHARE: 'https://a.example/|*:share=30%,https://a.example/|app:share=100%',
    }).traffic.fairShare;
    const shares = new CallerShares(config, budget);
    const take = async (key: string, at: number) =>
      (await budget.take('/e', at, { caller: key, weight: 1, priority: 4, caps: shares.capsOf(key) })).ok;
    const t = 2_000_000;
    let a = 0;
    // Three subjects of issuer A, 25 % each by default, 30 % together.
    for (const sub of ['u1', 'u2', 'u3'])
      for (let i = 0; i < 25; i++) if (await take(`https://a.example/|${sub}`, t)) a++;
    expect(a).toBe(30);
    // Issuer B's client named like A's uncapped entry gets B's default, not A's entry.
    let b = 0;
    for (let i = 0; i < 40; i++) if (await take('https://b.example/|app', t)) b++;
    expect(b).toBe(25);
    expect(shares.capsOf('https://a.example/|app')).toEqual([
      { scope: 'caller:https://a.example/|app', share: 1 },
      { scope: 'group:https://a.example/', share: 0.3 },
    ]);
  });

  it('operations per minute: the caller over its rate waits, the others do not', () => {
    const rates = new OperationRates({ callers: new Map([['*', { perMinute: 3 }]]), groups: new Map(), smooth: 0 });
    const t = 5_000_000;
    expect([rates.take('a', t), rates.take('a', t), rates.take('a', t)]).toEqual([0, 0, 0]);
    const wait = rates.take('a', t + 10);
    expect(wait).toBeGreaterThan(55_000);
    expect(wait).toBeLessThanOrEqual(61_200);
    expect(rates.take('b', t + 10)).toBe(0);
    expect(rates.take('a', t + 61_300)).toBe(0);
  });

  it('pacing holds each account rule over a fraction of its span', () => {
    const [pace] = pacingRules([rule], 20);
    // 100 per second: 5 per 50 ms, the rule's even pace.
    expect(pace).toMatchObject({ allowed: 5, spanMs: 50, pacing: true, perEndpoint: false });
    // 25 per 1250 ms (the window and its guard): 1 per 50 ms.
    const [slow] = pacingRules([countedRule({ name: 'm', limit: 25, windowMs: 1_000, perEndpoint: false }, 1)], 20);
    expect(slow).toMatchObject({ allowed: 1, spanMs: 50 });
    expect(pacingRules([rule], 0)).toEqual([]);
  });

  it('pacing counts a take that came late for its point from when the point freed, up to a quarter of a pace', () => {
    const account = countedRule({ name: 'm', limit: 25, windowMs: 1_000, perEndpoint: false }, 1);
    const [pace] = pacingRules([account], 25);
    const budget = new LocalBudget([account, pace!]);
    const t = 5_000_000;
    expect(budget.take('/e', t).ok).toBe(true);
    const refused = budget.take('/e', t + 10);
    expect(refused).toMatchObject({ ok: false, rule: pace!.name });
    const due = t + 10 + (refused.ok ? 0 : refused.waitMs);
    // 5 ms late: counted at `due`, so the next point frees a pace after `due`, not after the take.
    expect(budget.take('/e', due + 5, [], due).ok).toBe(true);
    expect(budget.take('/e', due + 51).ok).toBe(true);
    // 30 ms late: only a quarter of the 50 ms pace (12 ms) is caught up.
    const late = t + 500;
    expect(budget.take('/e', late + 30, [], late).ok).toBe(true);
    expect(budget.take('/e', late + 30 - 12 + 50).ok).toBe(false);
    expect(budget.take('/e', late + 30 - 12 + 51).ok).toBe(true);
    // The platform's rules are counted when the request goes, however late it is.
    expect(countedAt(account, t + 30, t)).toBe(t + 30);
  });

  it('FAIR_SHARE is read into weights, caps, rates and pacing; a bad entry is named', () => {
    const base = {
      NODE_ENV: 'test',
      GOVERNANCE_URL: 'http://127.0.0.1:9',
      GOVERNANCE_AUTH_MODE: 'forward',
      CALENDAR_URL: 'http://127.0.0.1:9',
    };
    const config = loadConfig({
      ...base,
      FAIR_SHARE:
        'smooth=20, *:share=50%:rpm=600, https://idp.example:8443/|ui:weight=4, key|nightly:share=10%, *|*:share=80%',
    });
    const { fairShare } = config.traffic;
    expect(fairShare.smooth).toBe(20);
    expect(fairShare.callers.get('*')).toEqual({ share: 0.5, perMinute: 600 });
    expect(fairShare.callers.get('https://idp.example:8443/|ui')).toEqual({ weight: 4 });
    expect(fairShare.groups.get('*')).toBe(0.8);
    // What an entry leaves out comes from `*`, then the defaults.
    expect(policyOf(fairShare, 'https://idp.example:8443/|ui')).toEqual({ weight: 4, share: 0.5, perMinute: 600 });
    expect(policyOf(fairShare, 'key|nightly')).toEqual({ share: 0.1, perMinute: 600 });
    // Nothing configured: each caller at most a quarter of every rule.
    expect(policyOf(loadConfig(base).traffic.fairShare, 'https://idp.example/|x').share).toBe(0.25);
    expect(() => loadConfig({ ...base, FAIR_SHARE: 'https://i/|ui:weight=0' })).toThrow(
      /FAIR_SHARE: "weight=0" of "https:\/\/i\/\|ui:weight=0"/,
    );
    // A bare client id would match that id at every issuer.
    expect(() => loadConfig({ ...base, FAIR_SHARE: 'ui:weight=2' })).toThrow(/"ui" names no issuer/);
    expect(() => loadConfig({ ...base, FAIR_SHARE: 'https://i/|*:weight=2' })).toThrow(/a share of its own/);
  });

  it('the per-caller budget metric names the top callers and sums the rest as other', async () => {
    const registry = new Registry();
    const byCaller: [string, number][] = Array.from({ length: 14 }, (_, i) => [`client-${i}`, 100 - i]);
    registerCallerBudget(registry, () => [['governance', byCaller]]);
    const text = await registry.metrics();
    const lines = text.split('\n').filter((l) => l.startsWith('gateway_caller_budget_points{'));
    expect(lines.length).toBe(TOP_CALLERS + 1);
    expect(lines).toContain('gateway_caller_budget_points{upstream="governance",client="client-0"} 100');
    // 14 callers: the last four (90, 89, 88, 87) summed.
    expect(lines).toContain('gateway_caller_budget_points{upstream="governance",client="other"} 354');
  });
});

describe('pacing while Redis is away', () => {
  it("paces each replica at the rule's pace and holds it to its share of the account", async () => {
    const account = countedRule({ name: 'm', limit: 25, windowMs: 1_000, perEndpoint: false }, 1);
    const [pace] = pacingRules([account], 25);
    // Nothing listens there: every take is an offline one.
    const redis = new RedisLink({ url: 'redis://127.0.0.1:1', prefix: 'offline:', commandTimeoutMs: 50 });
    const budget = new SharedBudget({ upstream: 'governance', rules: [account, pace!], redis, localShare: 0.5 });
    try {
      const t = 1_000_000;
      expect(budget.takeOffline('/e', t).ok).toBe(true);
      // The next point of the pace, 50 ms on.
      expect(budget.takeOffline('/e', t + 10).ok).toBe(false);
      let sent = 1;
      for (let at = t + 50; at < t + 1_250; at += 50) if (budget.takeOffline('/e', at).ok) sent++;
      // Half of 25 in the span: the replica's share of the account.
      expect(sent).toBe(12);
    } finally {
      budget.close();
      await redis.close();
    }
  });
});
