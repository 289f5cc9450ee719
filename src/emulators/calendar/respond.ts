/**
 * Response helpers: WordPress's JSON content type and headers, and the paged collection wrappers with
 * `rest_url`, optional `next_rest_url`/`previous_rest_url` (absent, not null) and `X-TEC-*` totals.
 */
import type { Context } from 'hono';
import type { Env } from '../kit/control.js';
import { RestError } from './errors.js';
import type { CalendarStore } from './store.js';
import type { Site } from './serialize.js';

export interface RouteDeps {
  store: CalendarStore;
  site: Site;
  pluginVersion: '6.17.2' | '6.17.1';
  /** Site "now": the fixed `now` option or the wall clock. */
  now(): Date;
}

/**
 * What PHP's `wp_json_encode` writes with WordPress's default flags: `/` as `\/` and every
 * character past ASCII as a `\uXXXX` escape (UTF-16 units, lower-case hex), so the bytes are
 * ASCII. Parsed, it is the same value as plain JSON.
 */
function wpJsonEncode(value: unknown): string {
  return (JSON.stringify(value) ?? '').replace(/[/\u0080-\uffff]/g, (ch) =>
    ch === '/' ? '\\/' : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function sendJson(c: Context<Env>, body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return c.body(wpJsonEncode(body), status as 200, jsonHeaders(headers));
}

function jsonHeaders(headers: Record<string, string>): Record<string, string> {
  return {
    'content-type': 'application/json; charset=UTF-8',
    'x-robots-tag': 'noindex',
    'x-content-type-options': 'nosniff',
    'access-control-expose-headers': 'X-WP-Total, X-WP-TotalPages, Link',
    ...headers,
  };
}

/** `base?k=v&…`, values URL-encoded, skipping undefined ones. */
function withQuery(base: string, query: [string, unknown][]): string {
  const parts = query
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(Array.isArray(v) ? v.join(',') : String(v))}`);
  return parts.length ? `${base}?${parts.join('&')}` : base;
}

export function slicePage<T>(all: T[], page: number, perPage: number) {
  return {
    items: all.slice((page - 1) * perPage, page * perPage),
    total: all.length,
    totalPages: Math.ceil(all.length / perPage),
  };
}

/** next/previous URLs: same query, page ± 1; the previous URL of page 2 simply drops `page`. */
export function pageLinks(base: string, query: [string, unknown][], page: number, totalPages: number) {
  const rest = query.filter(([k]) => k !== 'page');
  const links: { next_rest_url?: string; previous_rest_url?: string } = {};
  if (page < totalPages) links.next_rest_url = withQuery(base, [['page', page + 1], ...rest]);
  if (page > 1 && page - 1 <= Math.max(totalPages, 1))
    links.previous_rest_url = withQuery(base, page === 2 ? rest : [['page', page - 1], ...rest]);
  return links;
}

export const totalsHeaders = (total: number, totalPages: number) => ({
  'X-TEC-Total': String(total),
  'X-TEC-TotalPages': String(totalPages),
});

/** A post archive page (events, venues, organizers); a page past the end (beyond page 1) is a 404. */
export function sendArchive<T>(
  c: Context<Env>,
  archive: { kind: string; base: string; query: [string, unknown][]; page: number; perPage: number },
  rows: T[],
  render: (row: T) => unknown,
): Response {
  const { kind, base, query, page, perPage } = archive;
  const { items, total, totalPages } = slicePage(rows, page, perPage);
  if (page > 1 && items.length === 0) {
    throw new RestError(404, `${kind}-archive-page-not-found`, `The requested ${kind} archive page does not exist`);
  }
  const body = {
    [`${kind}s`]: items.map(render),
    rest_url: withQuery(base, query),
    ...pageLinks(base, query, page, totalPages),
    total,
    total_pages: totalPages,
  };
  return sendJson(c, body, 200, totalsHeaders(total, totalPages));
}
