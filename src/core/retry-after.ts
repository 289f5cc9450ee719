/**
 * Reading a 429: how long to pause (`Retry-After` in seconds or as an HTTP date, a default when it is
 * missing or unreadable, capped) and the platform's rate-limit headers, which the contract spells
 * `svc-…` and the real platform `ot-…`. Only these non-secret headers are ever logged.
 */
export interface RateLimitNotice {
  /** Pause length in ms, after the default and the cap. */
  pauseMs: number;
  /** `Retry-After` as sent, or undefined when missing. */
  retryAfter?: string;
  eventId?: string;
  allowed?: number;
  made?: number;
  period?: string;
  /** Which prefixes carried the headers (`svc`, `ot`, or both). */
  prefixes: string[];
}

export interface RetryAfterPolicy {
  defaultMs: number;
  maxMs: number;
}

/** Milliseconds from `now` that a `Retry-After` value asks for, or undefined when unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

export function readRateLimitNotice(
  headers: Record<string, string>,
  policy: RetryAfterPolicy,
  now = Date.now(),
): RateLimitNotice {
  const retryAfter = headers['retry-after'];
  const asked = parseRetryAfter(retryAfter, now);
  const pauseMs = Math.min(policy.maxMs, asked ?? policy.defaultMs);
  const prefixes = ['svc', 'ot'].filter((p) => Object.keys(headers).some((h) => h.startsWith(`${p}-`)));
  const pick = (suffix: string) => headers[`svc-${suffix}`] ?? headers[`ot-${suffix}`];
  const num = (s: string | undefined) => (s !== undefined && /^\d+$/.test(s.trim()) ? Number(s) : undefined);
  return {
    pauseMs,
    retryAfter,
    eventId: pick('ratelimit-event-id'),
    allowed: num(pick('requests-allowed')),
    made: num(pick('request-made')),
    period: pick('period'),
    prefixes,
  };
}
