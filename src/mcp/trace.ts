/**
 * W3C trace context from an MCP request: `traceparent` and `tracestate` in `params._meta` (2026-07-28),
 * else the HTTP request's own `traceparent` header. A tool call's GraphQL request carries them as
 * headers, so its operation's span (observability/tracing.ts) is the caller's span's child. Only
 * well-formed values pass: a header never holds what a client put in its body unchecked.
 */
import { TRACEPARENT_META_KEY, TRACESTATE_META_KEY, type ServerContext } from '@modelcontextprotocol/server';

const TRACEPARENT = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/;
/** At most 32 list members of printable ASCII (W3C Trace Context's limit). */
const TRACESTATE = /^[\x20-\x7e]{1,1024}$/;

export function traceContextOf(ctx: ServerContext): Record<string, string> {
  const meta = ctx.mcpReq._meta;
  const traceparent = meta?.[TRACEPARENT_META_KEY] ?? ctx.http?.req?.headers.get('traceparent');
  if (typeof traceparent !== 'string' || !TRACEPARENT.test(traceparent)) return {};
  const tracestate = meta?.[TRACEPARENT_META_KEY]
    ? meta[TRACESTATE_META_KEY]
    : ctx.http?.req?.headers.get('tracestate');
  return { traceparent, ...(typeof tracestate === 'string' && TRACESTATE.test(tracestate) ? { tracestate } : {}) };
}
