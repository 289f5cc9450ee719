/**
 * The MCP server one request meets (the SDK builds one per HTTP request, for either protocol era):
 * `tools/list` with the caller's tools and cache hints, `tools/call` (arguments checked, then a
 * confirmation when one is needed, then the call through the gateway's door, answered with a task
 * when the budget is short and the client takes tasks), `tasks/get` and `tasks/cancel`.
 * `server/discover` is the SDK's, from the capabilities and cache hints given here.
 */
import { createHash } from 'node:crypto';
import {
  acceptedContent,
  inputResponse,
  MissingRequiredClientCapabilityError,
  Server,
  type CallToolResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { estimateOperationCost, type CostEstimate } from '../http/plugins/operation-cost.js';
import { missingPermission, type Principal } from '../identity/principal.js';
import { argumentProblems } from './arguments.js';
import { callTool, type CallOptions } from './call.js';
import { question, type Confirmations } from './confirm.js';
import { taskView, type TaskStore, type TaskRecord } from './tasks.js';
import { traceContextOf } from './trace.js';
import type { Tool } from './tools.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** How long a client may keep a tool list (it changes with a deploy, or the caller's permissions). */
export const TOOL_LIST_TTL_MS = 5 * 60_000;

export interface ServerParts {
  tools: Tool[];
  call: CallOptions;
  confirmations: Confirmations;
  tasks: TaskStore;
  /** When the account budget of `upstream` frees its next point (0: it has some now). */
  freesInMs: (upstream: string) => number;
  /** A digest of the whole tool set, for the lists' `_meta` (clients key their cache by it). */
  manifest: string;
}

/** The tools a caller may call: every permission each needs is held. */
export function toolsFor(tools: Tool[], principal: Principal, mutations: boolean): Tool[] {
  return tools.filter((t) => (!t.write || mutations) && !missingPermission(principal, t.permissions));
}

export function mcpServer(parts: ServerParts, principal: Principal, era: 'modern' | 'legacy', visible: Tool[]): Server {
  const server = new Server(
    { name: 'governance-calendar-gateway', version: '2' },
    {
      capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
      instructions:
        'Tools over an AI governance inventory and a calendar of events. Every result reports the upstream calls it spent; AccountBudget shows what is left.',
      cacheHints: { 'server/discover': { ttlMs: TOOL_LIST_TTL_MS, cacheScope: 'public' } },
      inputRequired: { legacyShim: false },
    },
  );
  const key = createHash('sha256')
    .update(parts.manifest + [...principal.permissions].sort().join(' '))
    .digest('base64url')
    .slice(0, 16);
  server.setRequestHandler('tools/list', () => ({
    tools: visible.map((t) => withConfirmation(t, parts.confirmations)),
    ttlMs: TOOL_LIST_TTL_MS,
    cacheScope: 'private' as const,
    _meta: { 'gateway/tool-list': key },
  }));
  server.setRequestHandler(
    'tools/call',
    (request, ctx) =>
      onCall(
        parts,
        principal,
        era,
        visible,
        request.params.name,
        request.params.arguments ?? {},
        ctx,
      ) as Promise<CallToolResult>,
  );
  const byId = z.object({ taskId: z.string() }).passthrough();
  // A client that did not declare the tasks extension on the request is told it must (SEP-2663).
  const declared = (ctx: ServerContext) => {
    if (!clientCapabilities(ctx, era)?.extensions?.[TASKS_EXTENSION])
      throw new MissingRequiredClientCapabilityError({
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      });
  };
  server.setRequestHandler('tasks/get', { params: byId }, ({ taskId }, ctx) => {
    declared(ctx);
    return onTaskGet(parts, principal, taskId, traceContextOf(ctx));
  });
  server.setRequestHandler('tasks/cancel', { params: byId }, ({ taskId }, ctx) => {
    declared(ctx);
    return onTaskCancel(parts, principal, taskId);
  });
  // These tasks never wait for input: an update names a task of the caller's or is refused.
  server.setRequestHandler('tasks/update', { params: byId }, async ({ taskId }, ctx) => {
    declared(ctx);
    await owned(parts, principal, taskId);
    return {};
  });
  return server;
}

/** A tool that may ask for confirmation takes the token of a confirmation in `confirmation`. */
function withConfirmation(tool: Tool, confirmations: Confirmations): Tool['definition'] {
  if (!confirmations.mayAsk(tool)) return tool.definition;
  const schema = tool.definition.inputSchema;
  const confirmation = {
    type: 'string',
    description:
      'Only after the user agreed to the call as a CONFIRMATION_REQUIRED error described it: the confirmation that error gave, with the same other arguments.',
  };
  return { ...tool.definition, inputSchema: { ...schema, properties: { ...schema.properties, confirmation } } };
}

async function onCall(
  parts: ServerParts,
  principal: Principal,
  era: 'modern' | 'legacy',
  visible: Tool[],
  name: string,
  args: Record<string, unknown>,
  ctx: ServerContext,
) {
  const tool = visible.find((t) => t.definition.name === name);
  if (!tool) return unknownTool(name, visible);
  const problems = argumentProblems(args, withConfirmation(tool, parts.confirmations).inputSchema);
  if (problems.length) return toolError('BAD_USER_INPUT', problems.join(' '));
  const estimate = estimateOf(tool, args, parts.call.maxRecords);
  const why = parts.confirmations.reason(tool, estimate);
  const capabilities = clientCapabilities(ctx, era);
  let confirmed: 'elicitation' | 'token' | undefined;
  if (why) {
    const step = await confirm(parts, principal, tool, args, { why, estimate, capabilities, ctx });
    if ('answer' in step) return step.answer;
    confirmed = step.confirmed;
  }
  const result = await callTool(tool, args, principal, parts.call, confirmed ? { confirmed } : {}, traceContextOf(ctx));
  const wait = budgetWait(result);
  if (wait === undefined || !capabilities?.extensions?.[TASKS_EXTENSION]) return result;
  return deferred(parts, principal, tool, args, estimate, wait);
}

/** A confirmed call goes on; otherwise the answer that asks (or refuses a bad confirmation). */
async function confirm(
  parts: ServerParts,
  principal: Principal,
  tool: Tool,
  args: Record<string, unknown>,
  at: { why: string; estimate: CostEstimate; capabilities: Capabilities | undefined; ctx: ServerContext },
): Promise<{ confirmed: 'elicitation' | 'token' } | { answer: unknown }> {
  const state = at.ctx.mcpReq.requestState();
  const token = typeof state === 'string' ? state : (args.confirmation as string | undefined);
  if (token !== undefined) {
    if (!(await parts.confirmations.holds(token, principal, tool, args)))
      return {
        answer: toolError(
          'CONFIRMATION_INVALID',
          'That confirmation is not for this call (other arguments, another caller) or has expired; nothing was sent. Call again without it to be asked anew.',
        ),
      };
    if (typeof state !== 'string') return { confirmed: 'token' };
    const answer = inputResponse(at.ctx.mcpReq.inputResponses, 'confirm');
    if (acceptedContent(at.ctx.mcpReq.inputResponses, 'confirm', z.object({ confirm: z.boolean() }))?.confirm)
      return { confirmed: 'elicitation' };
    if (answer.kind === 'elicit')
      return { answer: toolError('CANCELLED', 'The user did not confirm the call; nothing was sent upstream.') };
  }
  const sealed = await parts.confirmations.seal(principal, tool, args);
  const asked = question(tool, args, at.why, at.estimate);
  if (at.capabilities?.elicitation) return { answer: parts.confirmations.ask(asked, sealed) };
  return {
    answer: toolError(
      'CONFIRMATION_REQUIRED',
      `${asked} Nothing was sent. Ask the user; if they agree, call again with the same arguments and confirmation set to the one given here (valid ten minutes).`,
      { confirmation: sealed },
    ),
  };
}

/** The task for a call the budget could not cover: stored before it is answered. */
async function deferred(
  parts: ServerParts,
  principal: Principal,
  tool: Tool,
  args: Record<string, unknown>,
  estimate: CostEstimate,
  retryAfterS: number,
) {
  const frees = Math.max(
    0,
    ...Object.entries(estimate)
      .filter(([, n]) => n > 0)
      .map(([u]) => parts.freesInMs(u)),
  );
  const pollIntervalMs = Math.max(1, Math.ceil(frees || retryAfterS * 1000));
  const record = await parts.tasks.create({
    owner: principal.id,
    tool: tool.definition.name,
    args,
    status: 'working',
    statusMessage: `Waiting for the account budget; nothing was sent yet. It runs when polled after ${pollIntervalMs} ms.`,
    notBefore: Date.now() + pollIntervalMs,
    pollIntervalMs,
  });
  return { resultType: 'task', ...taskView(record) };
}

/** A task, run first if its time has come and no other poll is running it. */
async function onTaskGet(parts: ServerParts, principal: Principal, taskId: string, trace: Record<string, string>) {
  const record = await owned(parts, principal, taskId);
  if (record.status === 'working' && Date.now() >= record.notBefore && (await parts.tasks.claim(taskId))) {
    try {
      await run(parts, principal, record, trace);
    } finally {
      await parts.tasks.release(taskId);
    }
  }
  return taskView(record);
}

/** A deferred call, run in the poll that found its time come (and in that poll's trace). */
async function run(parts: ServerParts, principal: Principal, record: TaskRecord, trace: Record<string, string>) {
  const tool = parts.tools.find((t) => t.definition.name === record.tool)!;
  const result = await callTool(tool, record.args, principal, parts.call, { task: record.taskId }, trace);
  const wait = budgetWait(result);
  const now = Date.now();
  if (wait !== undefined) {
    const frees = Math.max(0, ...Object.keys(tool.estimate.default).map((u) => parts.freesInMs(u)));
    record.pollIntervalMs = Math.max(1, Math.ceil(frees || wait * 1000));
    record.notBefore = now + record.pollIntervalMs;
  } else {
    record.status = 'completed';
    record.statusMessage = 'Done: result holds what the call answered and what it cost.';
    record.result = result;
  }
  record.lastUpdatedAt = now;
  await parts.tasks.put(record);
}

async function onTaskCancel(parts: ServerParts, principal: Principal, taskId: string) {
  const record = await owned(parts, principal, taskId);
  if (record.status === 'working') {
    record.status = 'cancelled';
    record.statusMessage = 'Cancelled before it ran: it spent nothing.';
    record.lastUpdatedAt = Date.now();
    await parts.tasks.put(record);
  }
  return {};
}

/** The caller's own task; another's, or an unknown or expired one, is the same error. */
async function owned(parts: ServerParts, principal: Principal, taskId: string): Promise<TaskRecord> {
  const record = await parts.tasks.get(taskId);
  if (!record || record.owner !== principal.id)
    throw Object.assign(new Error(`There is no task ${taskId} of yours (tasks are kept 15 minutes).`), {
      code: -32602,
    });
  return record;
}

/** The wait in seconds of a call the budget could not cover before its deadline (nothing was sent). */
function budgetWait(result: CallToolResult): number | undefined {
  const error = (result.structuredContent as { error?: { code?: string; retryAfter?: number } } | undefined)?.error;
  return result.isError && error?.code === 'RATE_LIMITED' && error.retryAfter ? error.retryAfter : undefined;
}

/** What the call would cost with these arguments (a list's `limit` counts). */
function estimateOf(tool: Tool, args: Record<string, unknown>, maxRecords: number): CostEstimate {
  const variables: Record<string, unknown> = {};
  for (const { variable, argument, field } of tool.arguments)
    if (args[argument] != null && !field) variables[variable] = args[argument];
  if (tool.list) variables.first = Math.min(Number(args.limit ?? maxRecords) || maxRecords, maxRecords);
  return estimateOperationCost(tool.schema, tool.document, tool.definition.name, variables).total;
}

interface Capabilities {
  elicitation?: unknown;
  extensions?: Record<string, unknown>;
}

/** What the client said it can do: on a 2026-07-28 request, in its `_meta`; a 2025 request's are unknown here. */
function clientCapabilities(ctx: ServerContext, era: 'modern' | 'legacy'): Capabilities | undefined {
  if (era !== 'modern') return undefined;
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.['io.modelcontextprotocol/clientCapabilities'] as Capabilities | undefined;
}

function unknownTool(name: string, visible: Tool[]): CallToolResult {
  return toolError(
    'NOT_FOUND',
    `There is no tool "${name}" for this caller; the tools are ${visible.map((t) => t.definition.name).join(', ')}.`,
  );
}

function toolError(code: string, message: string, extra: Record<string, unknown> = {}): CallToolResult {
  const error = { code, message, ...extra };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }], structuredContent: { error } };
}
