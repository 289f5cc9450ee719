/**
 * `Query.budget`: the figures of `extensions.cost` under the same names, for typed clients (in the
 * spirit of GitHub's `rateLimit`): per upstream, this operation's estimated and actual calls and
 * cache hits, and the account budget as last known (no extra Redis round trip). Resolved from the
 * request's usage tracker, whose snapshot the extension reuses, so both agree. Unlike the extension
 * it lists every upstream, used or not, with the full account status.
 */
import type { UpstreamCost } from '../core/usage.js';
import type { RuleStatus } from '../core/budget.js';
import { leastRemaining } from '../core/cost-report.js';
import { builder } from './builder.js';

type UpstreamBudgetShape = UpstreamCost & { upstream: string };

const BudgetRule = builder.objectRef<RuleStatus>('BudgetRule').implement({
  description: 'One account rule: what the gateway allows itself in any span of the window, and what is left.',
  fields: (t) => ({
    rule: t.exposeString('rule', { description: 'The rule, e.g. `minute`, `hour` or `5/10s`.' }),
    limit: t.exposeInt('limit', { description: "The platform's limit per window." }),
    allowed: t.exposeInt('allowed', {
      description: 'What the gateway allows itself in any span of the window (margin × limit).',
    }),
    windowMs: t.exposeInt('windowMs', {
      description: "The rule's window in milliseconds; the rule holds in every span of this length.",
    }),
    remaining: t.exposeInt('remaining', { description: 'Requests left in the current span, as last known.' }),
    nextSlotInMs: t.exposeInt('nextSlotInMs', {
      description: 'Milliseconds until a request slot frees (0 while some remain).',
    }),
  }),
});

const UpstreamBudget = builder.objectRef<UpstreamBudgetShape>('UpstreamBudget').implement({
  description: "One upstream: this operation's cost and the account budget after it.",
  fields: (t) => ({
    upstream: t.exposeString('upstream', { description: 'The upstream: `governance` or `calendar`.' }),
    estimated: t.exposeInt('estimated', {
      description:
        "Upstream calls estimated before the operation ran: an upper bound (token reads and reads before a write included), assuming plain lists such as an event's organizers hold at most 3 items and a site's categories and tags fit one page each; retries after a failure come on top.",
    }),
    actual: t.int({ description: 'Upstream calls sent so far by this operation.', resolve: (u) => u.requests }),
    estimatedCalls: t.exposeInt('estimated', {
      description: 'Upstream calls estimated before the operation ran.',
      deprecationReason: 'Use `estimated`, the name `extensions.cost` uses too.',
    }),
    actualCalls: t.int({
      description: 'Upstream requests sent so far by this operation.',
      deprecationReason: 'Use `actual`, the name `extensions.cost` uses too.',
      resolve: (u) => u.requests,
    }),
    remaining: t.int({
      description: "The least left across the account's rules, as last known; null when the account has no rules.",
      resolve: (u) => leastRemaining(u.throttleStatus.rules) ?? null,
    }),
    cacheHits: t.exposeInt('cacheHits', {
      description: 'Answers served from the shared cache or a shared in-flight request instead of an upstream call.',
    }),
    staleHits: t.exposeInt('staleHits', {
      description:
        "Answers served from an expired cache entry: during a 429 pause or the ramp after it, while the upstream fails, or while the account's budget is low.",
    }),
    retries: t.exposeInt('retries', {
      description: 'Of `actual`, the calls that repeated a failed one; they come on top of the estimate.',
    }),
    shared: t.boolean({
      description: 'Counted together with the other replicas (through Redis).',
      resolve: (u) => u.throttleStatus.shared,
    }),
    pausedForMs: t.int({
      description: 'Milliseconds left in a pause the upstream asked for with a 429.',
      resolve: (u) => u.throttleStatus.pausedForMs,
    }),
    ramping: t.boolean({
      description: 'Traffic is ramping up again after a pause.',
      resolve: (u) => u.throttleStatus.ramping,
    }),
    rules: t.field({
      type: [BudgetRule],
      description: "The account's rules (per-endpoint rules are not listed).",
      resolve: (u) => u.throttleStatus.rules,
    }),
  }),
});

builder.queryField('budget', (t) =>
  t.field({
    type: [UpstreamBudget],
    description:
      "This operation's upstream cost and each upstream account's budget: the figures of `extensions.cost`, under the same names, for every upstream.",
    resolve: (_root, _args, ctx) => {
      // Figures of this moment: an answer holding them is never cached (HTTP or response cache).
      ctx.usage.readFreshUntil(null);
      return Object.entries(ctx.usage.costs()).map(([upstream, cost]) => ({ upstream, ...cost }));
    },
  }),
);
