/**
 * `extensions.cost`: what an operation cost the upstreams it used, under the names of the `budget`
 * field. By default the short form: per upstream the estimate (an upper bound), the calls sent, the
 * cache hits and the least budget left across the account's rules. The full form adds the account's
 * status (`shared`, `pausedForMs`, `ramping`, `rules`) and the caller's share: on request (the
 * `Cost-Detail: full` header), or by itself when the account is close to its limit. Only the
 * upstreams the operation read from are listed; an operation that used none carries none.
 */
import type { UpstreamName } from './errors.js';
import type { RuleStatus } from './budget-types.js';
import type { CallerCost, UpstreamCost } from './usage.js';
import { entriesOf } from './records.js';

/** The request header that asks for the full form. */
export const COST_DETAIL_HEADER = 'cost-detail';

/** Below this fraction of a rule's allowance left, the full form is sent unasked. */
const CLOSE_TO_LIMIT = 0.1;

export interface CostEntry {
  /**
   * Upstream calls estimated before the operation ran: an upper bound (token reads and reads before a
   * write included) where plain lists hold at most the model's assumed size and a site's terms fit one
   * page a taxonomy; retries come on top.
   */
  estimated: number;
  /** Upstream calls sent. */
  actual: number;
  cacheHits: number;
  /** The least left across the account's rules, as last known; absent when the account has none. */
  remaining?: number;
  /** Answers from an expired cache entry (a 429 pause or its ramp, a failing upstream, a low budget); short form: only when some. */
  staleHits?: number;
  /** Of `actual`, the calls that repeated a failed one (on top of the estimate); short form: only when some. */
  retries?: number;
  /** Answered whole from the response cache; short form: only when true. */
  cached?: boolean;
  shared?: boolean;
  pausedForMs?: number;
  ramping?: boolean;
  rules?: RuleStatus[];
  caller?: CallerCost;
}

/** The least `remaining` across the rules; undefined when there are none. */
export function leastRemaining(rules: readonly RuleStatus[]): number | undefined {
  return rules.length ? Math.min(...rules.map((r) => r.remaining)) : undefined;
}

/** Paused, ramping, or a rule with less than a tenth of its allowance left. */
function closeToLimit(c: UpstreamCost): boolean {
  const s = c.throttleStatus;
  return s.pausedForMs > 0 || s.ramping || s.rules.some((r) => r.remaining < r.allowed * CLOSE_TO_LIMIT);
}

function entry(c: UpstreamCost, full: boolean): CostEntry {
  const out: CostEntry = { estimated: c.estimated, actual: c.requests, cacheHits: c.cacheHits };
  const remaining = leastRemaining(c.throttleStatus.rules);
  if (remaining !== undefined) out.remaining = remaining;
  if (!full && !closeToLimit(c)) {
    if (c.staleHits > 0) out.staleHits = c.staleHits;
    if (c.retries > 0) out.retries = c.retries;
    if (c.cached) out.cached = true;
    return out;
  }
  const { shared, pausedForMs, ramping, rules } = c.throttleStatus;
  Object.assign(out, {
    staleHits: c.staleHits,
    retries: c.retries,
    cached: c.cached,
    shared,
    pausedForMs,
    ramping,
    rules,
  });
  if (c.caller) out.caller = c.caller;
  return out;
}

/**
 * The extension for these costs, or undefined when the operation used no upstream. An upstream is
 * used when the operation read from it: a call sent, an answer from the cache (fresh or stale), or,
 * for an answer the response cache served whole, a read the stored answer's estimate counts. An
 * estimate alone is no use: a refused field, or one the gateway answers itself (`viewer`), sent nothing.
 */
export function costExtension(
  costs: Record<UpstreamName, UpstreamCost>,
  full: boolean,
): Partial<Record<UpstreamName, CostEntry>> | undefined {
  const used = entriesOf(costs).filter(([, c]) => c.requests > 0 || c.cacheHits > 0 || (c.cached && c.estimated > 0));
  if (used.length === 0) return undefined;
  return Object.fromEntries(used.map(([u, c]) => [u, entry(c, full)]));
}

/** Whether a request asked for the full form. */
export function wantsFullCost(header: string | null | undefined): boolean {
  return header?.trim().toLowerCase() === 'full';
}
