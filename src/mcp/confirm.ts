/**
 * Confirmation before a call that cannot be undone (a delete) or that is estimated to cost more
 * upstream calls than `MCP_CONFIRM_ABOVE_CALLS`. The first call sends nothing upstream: it answers
 * what would happen and its price, with a sealed token (HMAC-SHA256 with `MCP_STATE_KEY`, the SDK's
 * request-state codec) bound to the caller, the tool and the exact arguments, valid for ten minutes,
 * so any replica takes the confirmed retry. A 2026-07-28 client that can ask its user (elicitation)
 * gets it as an `input_required` result whose `requestState` is the token; any other client gets a
 * tool error carrying it, to pass back as the `confirmation` argument once the user agreed.
 */
import { createHash } from 'node:crypto';
import { createRequestStateCodec, inputRequired, type InputRequiredResult } from '@modelcontextprotocol/server';
import { canonicalJson } from '../core/canonical-json.js';
import type { CostEstimate } from '../http/plugins/operation-cost.js';
import type { Principal } from '../identity/principal.js';
import type { Tool } from './tools.js';

/** What a token vouches for: the caller, the tool and a digest of its arguments. */
interface Sealed {
  p: string;
  t: string;
  a: string;
}

/** The elicitation's form: one yes/no question. */
export const CONFIRM_FORM = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const, title: 'Go ahead', description: 'Yes: make this call now.' } },
  required: ['confirm'],
};

export const CONFIRM_TTL_SECONDS = 600;

export class Confirmations {
  private readonly codec;

  /** `aboveCalls`: calls estimated above this many (all upstreams together) ask first; 0 turns that off. */
  constructor(
    key: string,
    private readonly aboveCalls: number,
  ) {
    this.codec = createRequestStateCodec<Sealed>({ key, ttlSeconds: CONFIRM_TTL_SECONDS });
  }

  /** Why this call asks first, or undefined when it does not. */
  reason(tool: Tool, estimate: CostEstimate): string | undefined {
    if (tool.destructive) return 'it cannot be undone';
    const total = Object.values(estimate).reduce((a, b) => a + b, 0);
    if (this.aboveCalls > 0 && total > this.aboveCalls)
      return `it is estimated at ${total} upstream calls, more than the ${this.aboveCalls} that run without asking`;
    return undefined;
  }

  /** Whether a tool can ever ask (its schema then takes `confirmation`). */
  mayAsk(tool: Tool): boolean {
    return this.reason(tool, tool.estimate.max) !== undefined;
  }

  seal(principal: Principal, tool: Tool, args: Record<string, unknown>): Promise<string> {
    return this.codec.mint({ p: principal.id, t: tool.definition.name, a: digest(args) });
  }

  /** Whether `token` confirms exactly this call by this caller (and has not expired). */
  async holds(token: string, principal: Principal, tool: Tool, args: Record<string, unknown>): Promise<boolean> {
    try {
      const sealed = await this.codec.verify(token, undefined as never);
      return sealed.p === principal.id && sealed.t === tool.definition.name && sealed.a === digest(args);
    } catch {
      return false;
    }
  }

  /** The question for a client that can ask its user: the plan and its price, the token as request state. */
  ask(question: string, token: string): InputRequiredResult {
    return inputRequired({
      inputRequests: { confirm: inputRequired.elicit({ message: question, requestedSchema: CONFIRM_FORM }) },
      requestState: token,
    });
  }
}

/** What the user is asked: the tool, its arguments, why it asks and what it costs. */
export function question(tool: Tool, args: Record<string, unknown>, why: string, estimate: CostEstimate): string {
  const shown = JSON.stringify(withoutConfirmation(args));
  const price = Object.entries(estimate)
    .filter(([, n]) => n > 0)
    .map(([u, n]) => `${n} ${u}`)
    .join(' + ');
  return `${tool.definition.title} with ${shown}: ${firstSentence(tool.definition.description ?? '')} Confirm, since ${why}. Estimated upstream calls: ${price || '0'}.`;
}

function firstSentence(text: string): string {
  return /^[^.]*\./.exec(text)?.[0] ?? text;
}

function withoutConfirmation(args: Record<string, unknown>): Record<string, unknown> {
  const { confirmation: _, ...rest } = args;
  return rest;
}

function digest(args: Record<string, unknown>): string {
  return createHash('sha256')
    .update(canonicalJson(withoutConfirmation(args)))
    .digest('base64url');
}
