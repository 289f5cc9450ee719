/**
 * WordPress-style argument handling: each route declares its args (JSON-schema-ish, also used by the
 * namespace index and /doc); `checkArgs` reports missing required args first
 * (`rest_missing_callback_param`, arg order), then every invalid one (`rest_invalid_param`).
 * Validation runs before the permission check, as in core's `dispatch()`.
 */
import type { Context } from 'hono';
import type { Env } from '../kit/control.js';
import { invalidParams, missingParams, RestError } from './errors.js';
import { parseDate } from './dates.js';

export type Params = Record<string, unknown>;

export interface ArgSpec {
  type: 'integer' | 'number' | 'string' | 'boolean' | 'array' | 'object';
  description: string;
  default?: unknown;
  required?: boolean;
  enum?: string[];
  items?: { type: string };
  /** Returns false for an invalid value (the value is present, defaults included). */
  validate?: (value: unknown) => boolean;
}
export type ArgSpecs = Record<string, ArgSpec>;

export const arg = (type: ArgSpec['type'], description: string, more: Partial<ArgSpec> = {}): ArgSpec => ({
  type,
  description,
  ...more,
});
/** An array arg whose items are ids (also names or slugs where the route says so). */
export const idsArg = (description: string, more: Partial<ArgSpec> = {}): ArgSpec =>
  arg('array', description, { items: { type: 'integer' }, ...more });

export function checkArgs(params: Params, specs: ArgSpecs): void {
  const missing = Object.entries(specs)
    .filter(([name, spec]) => spec.required && (params[name] === undefined || params[name] === null))
    .map(([name]) => name);
  if (missing.length) throw missingParams(missing);
  const invalid = Object.entries(specs)
    .filter(([name, spec]) => params[name] !== undefined && spec.validate && !spec.validate(params[name]))
    .map(([name]) => name);
  if (invalid.length) throw invalidParams(invalid);
}

/** Query string → params; `a[]=1&a[]=2` and `a[0]=1` become arrays, as PHP parses them. */
function queryParams(url: string): Params {
  const out: Params = {};
  for (const [rawKey, value] of new URL(url).searchParams) {
    const m = /^([^[]+)\[[^\]]*\]$/.exec(rawKey);
    if (m) {
      const list = Array.isArray(out[m[1]!]) ? (out[m[1]!] as unknown[]) : [];
      list.push(value);
      out[m[1]!] = list;
    } else out[rawKey] = value;
  }
  return out;
}

/** Query + body (JSON or form) + path params; the body wins over the query, the path over both. */
export async function readParams(c: Context<Env>, path: Params = {}): Promise<Params> {
  const query = queryParams(c.req.url);
  let body: Params = {};
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    const type = c.req.header('content-type') ?? '';
    const text = await c.req.text();
    if (text.trim() !== '') {
      if (type.includes('application/json')) {
        try {
          const parsed: unknown = JSON.parse(text);
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Params;
        } catch {
          throw new RestError(400, 'rest_invalid_json', 'Invalid JSON body passed.');
        }
      } else if (type.includes('application/x-www-form-urlencoded')) {
        body = queryParams(`http://x/?${text}`);
      }
    }
  }
  return { ...query, ...body, ...path };
}

// -- value helpers ---------------------------------------------------------------------------

export const isPositiveInt = (v: unknown) => /^\d+$/.test(String(v).trim()) && Number(v) > 0;
export const isNonEmptyString = (v: unknown) => typeof v === 'string' && v.trim() !== '';

/** CSV string, number or array → trimmed non-empty strings. */
export function toList(v: unknown): string[] {
  if (v === undefined || v === null || v === '') return [];
  const items = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v];
  return items.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x)).trim()).filter((x) => x !== '');
}

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off', ''];
export const isBoolish = (v: unknown) =>
  typeof v === 'boolean' || TRUE.includes(String(v).toLowerCase()) || FALSE.includes(String(v).toLowerCase());
/** `tribe_is_truthy`: anything not recognised as true is false (null included). */
export const truthy = (v: unknown) => v === true || TRUE.includes(String(v).toLowerCase());

export const isDate = (v: unknown) =>
  typeof v === 'string' || typeof v === 'number' ? parseDate(String(v), new Date()) !== undefined : false;

export const isUrlOrEmpty = (v: unknown) => {
  if (v === '' || v === null) return true;
  if (typeof v !== 'string') return false;
  try {
    return /^https?:$/.test(new URL(v).protocol);
  } catch {
    return false;
  }
};

export const pageArgs = (perPageDefault = 10): ArgSpecs => ({
  page: arg('integer', 'The archive page to return', { default: 1, validate: isPositiveInt }),
  per_page: arg('integer', 'The number of items to return per page (at most 50)', {
    default: perPageDefault,
    validate: isPositiveInt,
  }),
});

/** per_page is silently clamped to 50 (`sanitize_per_page`). */
export function paging(params: Params): { page: number; perPage: number } {
  return { page: Number(params.page ?? 1), perPage: Math.min(50, Number(params.per_page ?? 10)) };
}
