/** What a budget answers and reports; shared by the account budget and its local and Redis halves. */

/**
 * `validUntil`: a request not on the wire by then asks again; `refund` gives its point back (it was
 * never sent, so removing it from the counts is safe).
 */
export type BudgetAnswer =
  | { ok: true; shared: boolean; validUntil: number; refund?: () => void }
  | {
      ok: false;
      waitMs: number;
      rule: string;
      perEndpoint: boolean;
      /** Refused by a cap of the caller's (its own or its group's), not by the account: others may go. */
      share?: boolean;
    };

/** One account-wide rule as last known: what the gateway allows itself and what is left of it. */
export interface RuleStatus {
  rule: string;
  /** The platform's limit. */
  limit: number;
  /** margin × limit: what the gateway allows itself in any span of `windowMs`. */
  allowed: number;
  windowMs: number;
  remaining: number;
  /** Milliseconds until a point frees (0 while some remain). */
  nextSlotInMs: number;
}

export interface BudgetStatus {
  /** Counted together with the other replicas (through Redis). */
  shared: boolean;
  rules: RuleStatus[];
}

/**
 * Who a point is for, so that replicas sharing the budget serve callers in turn across replicas
 * (budget-redis.ts): the caller's fair-share key, its weight and its priority lane (lower first).
 */
export interface Claim {
  caller: string;
  weight: number;
  priority: number;
  /** What the caller may spend of every account-wide rule (fair-share.ts `capsOf`); none: uncapped. */
  caps?: readonly Cap[];
}

/**
 * A cap on one scope of callers (`caller:<key>`, `group:<issuer>`): at most `share` of each
 * account-wide rule in any span of that rule, counted with the rule (locally, or shared through Redis).
 */
export interface Cap {
  scope: string;
  share: number;
}
