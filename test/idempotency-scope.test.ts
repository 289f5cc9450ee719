/**
 * Idempotency keys belong to the caller, over real HTTP: two callers writing with the gateway's
 * one upstream credential and the same `clientMutationId` (or `Idempotency-Key`) each create their
 * own event; neither is answered the other's.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startStack } from './support/stack.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

async function post(url: string, query: string, key: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
    body: JSON.stringify({ query }),
  });
  return (await res.json()) as { data?: any; errors?: any[] };
}

describe('idempotency keys are scoped to the caller', () => {
  it("another caller's same key creates its own record", async () => {
    const stack = await startStack({
      env: {
        AUTH_ANONYMOUS: 'none',
        AUTH_API_KEYS: `alice|${sha256('alice-key')}|calendar:write,bob|${sha256('bob-key')}|calendar:write`,
      },
    });
    const url = await stack.listen();
    const posts = () => stack.calendar.control.requests().requests.filter((r) => r.route === 'POST /events').length;
    const key = `shared-${Date.now()}`;
    const create = (how: string) =>
      `mutation { createEvent(input: { title: "Same key", startDate: "2027-09-01 10:00:00", endDate: "2027-09-01 11:00:00" }${how}) { id } }`;
    for (const [how, headers] of [
      [`, clientMutationId: "${key}"`, {}],
      ['', { 'idempotency-key': key }],
    ] as const) {
      stack.clearRequests();
      const alice = await post(url, create(how), 'alice-key', headers);
      const again = await post(url, create(how), 'alice-key', headers);
      const bob = await post(url, create(how), 'bob-key', headers);
      expect(alice.errors).toBeUndefined();
      expect(again.data.createEvent.id).toBe(alice.data.createEvent.id);
      expect(bob.errors).toBeUndefined();
      expect(bob.data.createEvent.id).not.toBe(alice.data.createEvent.id);
      expect(posts()).toBe(2);
    }
  });
});
