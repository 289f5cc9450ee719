/** Request reading shared by the route files: uuid parameters and JSON bodies, with the platform's 400s. */
import type { Context, MiddlewareHandler } from 'hono';
import type { Env } from '../kit/control.js';
import type { GovernanceScope } from '../../governance/wire.js';
import { invalid, unparsable } from './errors.js';
import type { GovernanceStore } from './store.js';

export interface RouteDeps {
  store: GovernanceStore;
  requireScopes: (scopes: readonly GovernanceScope[]) => MiddlewareHandler<Env>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function uuidParam(c: Context<Env>, name: string): string {
  const value = c.req.param(name) ?? '';
  if (!UUID.test(value)) throw invalid(`${name} must be a uuid`);
  return value.toLowerCase();
}

export function uuidQuery(c: Context<Env>, name: string, required: true): string;
export function uuidQuery(c: Context<Env>, name: string, required?: false): string | undefined;
export function uuidQuery(c: Context<Env>, name: string, required = false): string | undefined {
  const value = c.req.query(name);
  if (value === undefined || value === '') {
    if (required) throw invalid(`Required request parameter '${name}' is not present`);
    return undefined;
  }
  if (!UUID.test(value)) throw invalid(`${name} must be a uuid`);
  return value.toLowerCase();
}

/** The JSON body; `undefined` for an empty optional body, 400 for unparsable or a missing required one. */
export async function readJson<T>(c: Context<Env>, required: boolean): Promise<T | undefined> {
  const text = await c.req.text();
  if (text.trim() === '') {
    if (required) throw unparsable();
    return undefined;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw unparsable();
  }
}

export function objectBody<T extends object>(value: unknown, what: string): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid(`${what} must be a JSON object`);
  return value as T;
}
