/**
 * Helpers for the governance graph tests: counting the emulator's API requests apart from token
 * requests. The operations themselves are in test/operations (see ./operations.ts).
 */
import type { Stack } from './stack.js';

export interface LoggedCall {
  method: string;
  path: string;
  route: string;
  query: string;
  status: number;
  requestId?: string;
}

/** Requests the governance emulator saw, token requests included. */
export function governanceCalls(stack: Stack): LoggedCall[] {
  return stack.governance.control.requests().requests;
}

/** Requests to the governance API proper (the token endpoint sits outside the API root). */
export function apiCalls(stack: Stack): LoggedCall[] {
  return governanceCalls(stack).filter((r) => !/oauth\/token/.test(r.route) && !/oauth\/token/.test(r.path));
}

export function tokenCalls(stack: Stack): LoggedCall[] {
  return governanceCalls(stack).filter((r) => /oauth\/token/.test(r.route) || /oauth\/token/.test(r.path));
}

/** A bearer token from the stack's governance emulator, as a caller that forwards its own would hold. */
export async function fetchToken(
  stack: Pick<Stack, 'governance'>,
  client: 'full' | 'read' | 'write' = 'full',
): Promise<string> {
  const form = new FormData();
  form.set('grant_type', 'client_credentials');
  form.set('client_id', stack.governance.clients[client].clientId);
  form.set('client_secret', stack.governance.clients[client].clientSecret);
  const res = await fetch(stack.governance.tokenUrl, { method: 'POST', body: form });
  return ((await res.json()) as { access_token: string }).access_token;
}
