/**
 * Upstream paths with values in them. `urlPath\`/events/by-slug/${slug}\`` encodes each value once,
 * as exactly one path segment, and refuses values that would not stay one: empty ones and the dot
 * segments `.` and `..`, which URL parsing would resolve away (`/venues/by-slug/..` → `/venues/`,
 * the collection, where a POST creates). `checkPath` then refuses any built URL whose path is not
 * the one intended. Arguments are validated before this; these are the last line, not the first.
 */
import { UpstreamError, type UpstreamName } from './errors.js';

export class UnsafePathError extends Error {
  override readonly name = 'UnsafePathError';
}

export function urlPath(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    const text = String(value);
    if (text === '' || text === '.' || text === '..') throw new UnsafePathError(`Refused "${text}" as a path segment.`);
    out += encodeURIComponent(text) + (strings[i + 1] ?? '');
  });
  return out;
}

/**
 * One or more segments, each of the characters URL parsing keeps exactly as they are (unreserved,
 * sub-delimiters, `:`, `@`) and escapes, and none a dot segment, encoded or not (`.`, `..`, `%2e`,
 * `.%2E`, …). `urlPath` produces nothing else.
 */
const SAFE_PATH = /^(?:\/(?!(?:\.|%2e){1,2}(?:\/|$))[a-z0-9\-._~!$&'()*+,;=:@%]+)+$/i;

/**
 * Throws unless `path` is one URL parsing keeps as it is: segments of the characters above, no dot
 * segment and no empty segment, so the request goes to exactly the resource intended. Checked on
 * the string, so that the pipeline can build its request URLs without a URL object per call.
 */
export function checkPath(upstream: UpstreamName, path: string): void {
  if (path !== '/' && !SAFE_PATH.test(path)) {
    throw new UpstreamError(
      upstream,
      'bad-request',
      'A value in this request would change the upstream address it goes to; nothing was sent.',
    );
  }
}

/** The path of a request target, without its query (`/` when there is none). */
export function pathOf(url: string | undefined): string {
  const q = url?.indexOf('?') ?? -1;
  return url === undefined ? '/' : q === -1 ? url : url.slice(0, q);
}
