/**
 * Helpers for the governance graph tests: the acceptance operations by name (sent one at a time, as
 * a client would), and counting the emulator's API requests apart from token requests.
 */
import { readFileSync } from 'node:fs';
import type { Stack } from './stack.js';

const ACCEPTANCE = '/work/shared/acceptance/operations.graphql';

/** The text of one operation of the acceptance file (the governance part uses no fragments). */
export function acceptanceOperation(name: string): string {
  const text = readFileSync(ACCEPTANCE, 'utf8');
  const start = text.search(new RegExp(`^(query|mutation) ${name}\\b`, 'm'));
  if (start < 0) throw new Error(`no operation ${name} in the acceptance file`);
  const rest = text.slice(start);
  const next = rest.slice(1).search(/^(query|mutation) /m);
  return (next < 0 ? rest : rest.slice(0, next + 1)).replace(/\n#[^\n]*/g, '').trim();
}

export interface LoggedCall {
  method: string;
  path: string;
  route: string;
  query: string;
  status: number;
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
