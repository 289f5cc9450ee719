/**
 * The refusals before execution, from the one cost model of `operation-cost.ts` (upstream calls per
 * upstream, the same for literals, variables and defaults), and the Retry-After header:
 * - an operation whose estimate exceeds the per-operation budget of an upstream is refused with
 *   REQUEST_BUDGET_EXCEEDED (HTTP 400), saying the estimate, the limit, the field that weighs most
 *   and what to change; it costs no upstream call. During execution the same budget is enforced
 *   call by call by the request's `UsageTracker` (calls beyond it fail their fields, the rest is kept);
 * - an operation the account cannot serve before the operation's deadline (a 429 pause that outlasts
 *   it, or more calls than the budget can give by then) is refused with RATE_LIMITED, HTTP 429,
 *   `Retry-After` and `extensions.retryAfter`;
 * - an operation that ran and has RATE_LIMITED fields stays 2xx but carries `Retry-After` too;
 * - a result with an answer from an expired cache entry (during a 429 pause) is marked `extensions.stale: true`.
 */
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { UpstreamError, type UpstreamName } from '../../core/errors.js';
import type { Context } from '../../graph/context.js';
import { ErrorCode } from '../../graph/errors.js';
import { defaultCostModel, estimateOperationCost, type CostModel, type DetailedEstimate } from './operation-cost.js';
import { executionOf, graphqlErrors } from './hook-args.js';
import { entriesOf } from '../../core/records.js';

export interface OperationBudgetOptions {
  /** Upstream calls one operation may make per upstream. */
  maxCallsPerOperation: number;
  /** The gateway's largest accepted `first`/`last`. */
  maxPageSize?: number;
  model?: CostModel;
  /** Counts an operation of a caller; ms until it may start one when over its rate (`FAIR_SHARE` rpm). */
  rate?: (client: string) => number;
  /** Ms until a caller may spend another point of an upstream's budget under its cap (`FAIR_SHARE` share). */
  capWait?: (client: string, upstream: UpstreamName) => number;
}

const fmt = (n: number) => n.toLocaleString('en-US');

export function useOperationBudget(options: OperationBudgetOptions): Plugin<Context> {
  const model = {
    ...(options.model ?? defaultCostModel),
    ...(options.maxPageSize ? { maxPageSize: options.maxPageSize } : {}),
  };
  const retryAfterOf = new WeakMap<Request, number>();
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const execution = executionOf(args);
      const context = execution.contextValue;
      const estimate = estimateOperationCost(
        execution.schema,
        execution.document,
        execution.operationName,
        execution.variableValues ?? undefined,
        model,
      );
      if (context.usage) context.usage.estimate = withSetupCalls(estimate, context.usage).total;
      // GraphQL over HTTP: 4xx for the application/graphql-response+json media type; a multipart or
      // event-stream answer (@defer, subscriptions) carries the error in its first part instead.
      const responseJson = /application\/graphql-response\+json/.test(context.request?.headers.get('accept') ?? '');
      const refusal =
        costRefusal(estimate, options.maxCallsPerOperation, responseJson) ??
        (context.usage ? budgetRefusal(estimate, context) : undefined) ??
        shareRefusal(estimate, context, options.capWait) ??
        rateRefusal(options.rate?.(context.client ?? 'anonymous') ?? 0);
      if (refusal) {
        const retryAfter = refusal.extensions.retryAfter as number | undefined;
        if (retryAfter !== undefined && context.request) retryAfterOf.set(context.request, retryAfter);
        setResultAndStopExecution({ errors: [refusal] });
      }
      return {
        onExecuteDone({ args: done, result, setResult }) {
          if (!('data' in result) && !('errors' in result)) return; // streamed results are left alone
          const ctx = executionOf(done).contextValue;
          // The longest retryAfter of the RATE_LIMITED fields becomes the response's Retry-After.
          // (Errors are masked into their codes later: the upstream error is still the original here.)
          const waits = graphqlErrors(result.errors ?? []).flatMap((e) => {
            const upstream = e.originalError instanceof UpstreamError ? e.originalError : undefined;
            if (upstream?.kind === 'rate-limited') return [upstream.retryAfter ?? 1];
            return e.extensions?.code === ErrorCode.RATE_LIMITED ? [Number(e.extensions.retryAfter) || 1] : [];
          });
          if (waits.length > 0 && ctx.request)
            retryAfterOf.set(ctx.request, Math.max(...waits, retryAfterOf.get(ctx.request) ?? 0));
          if (ctx.usage?.stale) setResult({ ...result, extensions: { ...result.extensions, stale: true } });
        },
      };
    },
    onResponse({ request, response }) {
      const retryAfter = retryAfterOf.get(request);
      if (retryAfter !== undefined) response.headers.set('Retry-After', String(retryAfter));
    },
  };
}

/** The estimate with the calls an upstream needs before its first one (a token read), where it is used at all. */
function withSetupCalls(estimate: DetailedEstimate, usage: Context['usage']): DetailedEstimate {
  for (const [upstream, calls] of entriesOf(estimate.total))
    if (calls > 0) estimate.total[upstream] = calls + usage.setupCalls(upstream);
  return estimate;
}

/** More calls than one operation may make: say the estimate, the limit, the heaviest field and what to do. */
function costRefusal(estimate: DetailedEstimate, max: number, asHttpError: boolean) {
  const over = entriesOf(estimate.total).filter(([, calls]) => calls > max);
  if (over.length === 0) return undefined;
  const names = over.map(([u, calls]) => `${fmt(calls)} ${u}`).join(' and ');
  const heaviest = over.map(([u]) => estimate.dominant[u]).filter((d) => d !== undefined);
  const where = heaviest.map((d) => `\`${d.path}\` (about ${fmt(d.calls)})`).join(' and ');
  return createGraphQLError(
    `This operation would make about ${names} requests, more than the ${fmt(max)} allowed per upstream in one operation; most come from ${where}. ` +
      'Ask for fewer items there or in the lists above it (a smaller `first`), or split the operation.',
    {
      extensions: {
        code: ErrorCode.REQUEST_BUDGET_EXCEEDED,
        estimatedCalls: estimate.total,
        budget: max,
        dominantFields: heaviest,
        ...(asHttpError ? { http: { status: 400 } } : {}),
      },
    },
  );
}

/** This caller started its operations per minute (`FAIR_SHARE` rpm): a 429 for it alone. */
function rateRefusal(waitMs: number) {
  return waitMs > 0
    ? callerRefusal('You started more operations this minute than your share allows', waitMs)
    : undefined;
}

/** This caller spent its share of an upstream's budget (`FAIR_SHARE` share) until past the deadline: a 429 for it alone. */
function shareRefusal(estimate: DetailedEstimate, context: Context, capWait: OperationBudgetOptions['capWait']) {
  if (!capWait) return undefined;
  const left = context.usage.deadline - Date.now();
  for (const [upstream, calls] of entriesOf(estimate.total)) {
    const waitMs = calls ? capWait(context.client ?? 'anonymous', upstream) : 0;
    if (waitMs > left) return callerRefusal(`You spent your share of the ${upstream} account's budget for now`, waitMs);
  }
  return undefined;
}

/** A 429 saying when to come back. */
function callerRefusal(what: string, waitMs: number, extensions: Record<string, unknown> = {}) {
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  return createGraphQLError(`${what}; retry in ${retryAfter} s.`, {
    // The Retry-After header is set once, in onResponse (here too, it would be sent twice).
    extensions: { code: ErrorCode.RATE_LIMITED, retryAfter, ...extensions, http: { status: 429 } },
  });
}

/** The account cannot serve the operation before its deadline: a 429 with when to come back. */
function budgetRefusal(estimate: DetailedEstimate, context: Context) {
  const left = context.usage.deadline - Date.now();
  if (!Number.isFinite(left)) return undefined;
  const status = context.usage.accountStatus();
  for (const [upstream, calls] of entriesOf(estimate.total)) {
    if (!calls) continue;
    const s = status[upstream];
    let waitMs = 0;
    let why = '';
    if (s.pausedForMs > left) {
      waitMs = s.pausedForMs;
      why = `the ${upstream} service asked the gateway to pause for ${Math.ceil(s.pausedForMs / 1000)} s`;
    } else {
      // An upper bound of what the rule can give before the deadline (what is left if no point frees
      // by then, else every point of this span and a full allowance per span after it), so this
      // refuses only what cannot be served.
      const capacity = (r: (typeof s.rules)[number]) =>
        r.nextSlotInMs > left ? r.remaining : r.allowed * (1 + Math.floor(left / r.windowMs));
      const short = s.rules.find((r) => calls > capacity(r));
      if (!short) continue;
      waitMs = Math.max(1_000, short.nextSlotInMs);
      why = `the ${upstream} account budget (${fmt(short.allowed)} per ${fmt(short.windowMs)} ms, ${fmt(short.remaining)} left) cannot give its ${fmt(calls)} requests before the operation's deadline`;
    }
    return callerRefusal(`This operation cannot be served now: ${why}`, waitMs, { estimatedCalls: estimate.total });
  }
  return undefined;
}
