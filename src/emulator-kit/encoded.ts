/**
 * Records kept encoded between writes. The emulators run in the bench's process, so their CPU is in
 * every wall time the bench measures, and list pages re-serialized the same records on every read
 * (a calendar page of 50 events took about 4 ms). Routes change records in place, and one record
 * shows inside others (a venue inside its events), so nothing tracks a single record: every write
 * request starts a new epoch of the whole store, and an encoding is reused only within its epoch.
 */
export class Epoch {
  private changes = 0;

  get value(): number {
    return this.changes;
  }

  bump(): void {
    this.changes++;
  }
}

/** `encode(record)`, computed once per record and epoch. */
export function encodedPerEpoch<R extends object>(epoch: Epoch, encode: (record: R) => string): (record: R) => string {
  const kept = new WeakMap<R, { epoch: number; json: string }>();
  return (record) => {
    const hit = kept.get(record);
    if (hit && hit.epoch === epoch.value) return hit.json;
    const json = encode(record);
    kept.set(record, { epoch: epoch.value, json });
    return json;
  };
}

/** `compute()`, computed once per epoch (a derived view of the store, such as a sorted list). */
export function perEpoch<T>(epoch: Epoch, compute: () => T): () => T {
  let kept: { epoch: number; value: T } | undefined;
  return () => {
    if (kept?.epoch !== epoch.value) kept = { epoch: epoch.value, value: compute() };
    return kept.value;
  };
}

/**
 * `encode({ [key]: items, ...rest })` with the items already encoded: the same bytes, since `key`
 * comes first and a JSON array is its items joined by commas (both JSON.stringify and
 * `wp_json_encode` encode character by character).
 */
export function withEncodedList(
  key: string,
  items: readonly string[],
  rest: Record<string, unknown>,
  encode: (value: unknown) => string,
): string {
  const open = `{${JSON.stringify(key)}:[`;
  return `${open}${items.join(',')}${encode({ [key]: [], ...rest }).slice(open.length)}`;
}
