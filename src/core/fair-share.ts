/**
 * Each caller's share of an upstream account: its weight in the fair queues (fair-queue.ts), the
 * caps on what it, and all callers of its group together, may spend of every account rule (counted
 * and enforced by the account budget, shared through Redis: budget.ts), and the operations per
 * minute it may start (this process's count). A caller is a fair-share key (`core/caller.ts`):
 * `<issuer>|<client>`, `key|<name>`, `forwarded|<hash>`, `anonymous`; its group is what comes
 * before the first `|` (the issuer), or the key itself. The empty key is the gateway's own work.
 */
import type { CallerPolicy, FairShareConfig } from '../config/traffic.js';
import type { AccountBudget } from './budget.js';
import type { Cap } from './budget-types.js';
import { countedRule, SlidingCounter, type CountedRule } from './sliding-window.js';

/** `key`'s policy: its entry, and what `*` (which holds the default share) says where the entry says nothing. */
export function policyOf(config: FairShareConfig, key: string): CallerPolicy {
  return { ...config.callers.get('*'), ...config.callers.get(key) };
}

/** The group a fair-share key belongs to: its issuer, `key`, `forwarded`; a key without one is its own. */
export function groupOf(key: string): string {
  const bar = key.indexOf('|');
  return bar < 0 ? key : key.slice(0, bar);
}

/**
 * What the budget counts and caps for `key`: the caller itself (always counted, capped at its share)
 * and its group when the group has an aggregate cap. The gateway's own work (`''`) is not capped.
 */
export function capsOf(config: FairShareConfig, key: string): Cap[] {
  if (!key) return [];
  const caps: Cap[] = [{ scope: `caller:${key}`, share: policyOf(config, key).share ?? 1 }];
  const group = groupOf(key);
  const share = config.groups.get(group) ?? config.groups.get('*');
  if (share !== undefined && share < 1) caps.push({ scope: `group:${group}`, share });
  return caps;
}

/** The pacing rules `smooth` adds: each account-wide rule over about 1/smooth of its span, with no guard. */
export function pacingRules(account: readonly CountedRule[], smooth: number): CountedRule[] {
  if (smooth <= 1) return [];
  return account.map((r) => {
    // The rule's even pace (allowed / span), never faster: a faster pace lets a backlog run ahead
    // until the rule itself is spent, and then every span repeats that run and the gap after it,
    // in which a newcomer waits. A loop that was late for its point catches up instead (see
    // `countedAt`).
    const allowed = Math.max(1, Math.round(r.allowed / smooth));
    const spanMs = Math.max(1, Math.ceil((r.spanMs * allowed) / r.allowed));
    const rule = { name: `${r.name}/${smooth}`, limit: allowed, windowMs: spanMs, perEndpoint: false };
    return { ...countedRule(rule, 1, 0), pacing: true };
  });
}

/** `key`'s counter, made on first use; past 4096 keys, those idle at `now` are forgotten first. */
function counterOf(
  counters: Map<string, SlidingCounter>,
  key: string,
  rule: Pick<CountedRule, 'bucketMs' | 'spanMs'>,
  now: number,
): SlidingCounter {
  let counter = counters.get(key);
  if (!counter) {
    if (counters.size >= 4096) for (const [k, c] of counters) if (c.sum(now) === 0) counters.delete(k);
    counters.set(key, (counter = new SlidingCounter(rule)));
  }
  return counter;
}

/** What one caller spent of the account, as last known. */
export interface CallerShare {
  /** The largest fraction of an account-wide rule this caller spent in that rule's last span. */
  share: number;
  /** Its cap (1: none). */
  cap: number;
}

/** Each caller's weight and caps on one upstream's account, and what it spent of it (counted by its budget). */
export class CallerShares {
  /** Each caller's caps, worked out once (the policy is fixed); forgotten past 4096 callers. */
  private readonly caps = new Map<string, Cap[]>();

  constructor(
    private readonly config: FairShareConfig,
    private readonly budget: AccountBudget,
  ) {}

  weightOf = (key: string): number => policyOf(this.config, key).weight ?? 1;

  capsOf(key: string): Cap[] {
    let caps = this.caps.get(key);
    if (!caps) {
      if (this.caps.size >= 4096) this.caps.clear();
      this.caps.set(key, (caps = capsOf(this.config, key)));
    }
    return caps;
  }

  of(key: string, now = Date.now()): CallerShare {
    return {
      share: key ? this.budget.spent(`caller:${key}`, now) : 0,
      cap: key ? (policyOf(this.config, key).share ?? 1) : 1,
    };
  }

  /** Milliseconds until `key` may take another point under its caps (0: now), as last known. */
  capWaitMs(key: string, now = Date.now()): number {
    return this.budget.capWaitMs(this.capsOf(key), now);
  }

  /** Points of the shortest account rule each caller spent through this replica, largest first (for metrics). */
  spent(now = Date.now()): [string, number][] {
    return this.budget
      .sentHere(now)
      .flatMap(([scope, n]) => (scope.startsWith('caller:') ? [[scope.slice(7), n] as [string, number]] : []))
      .sort((a, b) => b[1] - a[1]);
  }
}

const MINUTE = { bucketMs: 1_200, spanMs: 60_000 };

/** Each caller's operations in the last minute, against its `rpm` (this process's count). */
export class OperationRates {
  private readonly counters = new Map<string, SlidingCounter>();

  constructor(private readonly config: FairShareConfig) {}

  /** Counts one operation of `key`, or answers how many ms until it may start one (nothing counted). */
  take(key: string, now = Date.now()): number {
    const limit = policyOf(this.config, key).perMinute;
    if (limit === undefined) return 0;
    const counter = counterOf(this.counters, key, MINUTE, now);
    if (counter.sum(now) >= limit) return counter.msUntilAtMost(now, limit - 1);
    counter.add(now);
    return 0;
  }
}
