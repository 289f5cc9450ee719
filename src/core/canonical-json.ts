/**
 * JSON text in which object keys come in code-unit order, so equal values give equal text (keys of
 * cache entries, ETags, idempotency keys, audit hashes). `member` may replace a member's value, or
 * drop it by returning `undefined`; members whose value is `undefined` are always dropped.
 */
import { isRecord } from './records.js';

export function canonicalJson(value: unknown, member: (key: string, value: unknown) => unknown = keep): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, member)).join(',')}]`;
  if (!isRecord(value)) return JSON.stringify(value) ?? 'null';
  const parts: string[] = [];
  // Code-unit order: a stable text needs no collation (and localeCompare is slow).
  for (const key of Object.keys(value).sort()) {
    const kept = member(key, value[key]);
    if (kept !== undefined) parts.push(`${JSON.stringify(key)}:${canonicalJson(kept, member)}`);
  }
  return `{${parts.join(',')}}`;
}

const keep = (_key: string, value: unknown): unknown => value;
