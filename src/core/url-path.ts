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
  let out = strings[0]!;
  values.forEach((value, i) => {
    const text = String(value);
    if (text === '' || text === '.' || text === '..') throw new UnsafePathError(`Refused "${text}" as a path segment.`);
    out += encodeURIComponent(text) + strings[i + 1]!;
  });
  return out;
}

/** Dot segments, encoded or not: `.`, `..`, `%2e`, `.%2E`, … */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * Throws unless `url`'s path is exactly `basePath + path` with no dot segment and no empty
 * segment, i.e. URL parsing did not move the request to another resource.
 */
export function checkPath(upstream: UpstreamName, url: URL, basePath: string, path: string): void {
  const segments = path.split('/').slice(1);
  const intended = basePath + path;
  if (
    segments.some((s) => DOT_SEGMENT.test(s) || /[\u0000-\u001f\u007f?#\\]/.test(s)) ||
    url.pathname !== intended ||
    (path !== '/' && segments.some((s) => s === ''))
  ) {
    throw new UpstreamError(
      upstream,
      'bad-request',
      'A value in this request would change the upstream address it goes to; nothing was sent.',
    );
  }
}
