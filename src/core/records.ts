/**
 * `Object.fromEntries` and `Object.entries` for records keyed by a union of strings: the built-ins
 * type keys as plain strings, so without these every caller would cast.
 */

/** A record holding `value(key)` for every one of `keys`. */
export function recordOf<K extends string, V>(keys: readonly K[], value: (key: K) => V): Record<K, V> {
  // Each key of K gets its entry here; fromEntries only types the result by string keys.
  return Object.fromEntries(keys.map((k) => [k, value(k)])) as Record<K, V>;
}

/** The entries of a record keyed by `K`, with their keys as `K`. */
export function entriesOf<K extends string, V>(record: Partial<Record<K, V>>): [K, V][] {
  // The record's keys are of K by its type; entries only types them as strings.
  return Object.entries(record) as [K, V][];
}

/** A JSON object (not null, not an array), its members still unknown. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * JSON the gateway wrote itself (Redis entries and messages between its replicas, files it keeps,
 * codegen's safelist), read back as the type it was written from. Text from elsewhere is checked
 * instead (`core/contract.ts`).
 */
export function ownJson<T>(text: string): T {
  // Only this code base writes these keys, channels and files, each from a value of type T.
  return JSON.parse(text) as T;
}
