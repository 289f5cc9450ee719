/**
 * The scheduler's priorities come from what a call is for, decided in the core (`PRIORITY_OF` in
 * src/core/upstream-pipeline.ts), the same for both upstreams: the page a query asked for waits at
 * `list`, the pages that fill out a larger `first` at `bulk`, single records at `single`. Seen from
 * outside through the queue-wait metric, which is labelled with the priority each call waited at.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './support/stack.js';

let s: Stack;
beforeAll(async () => {
  s = await startStack({ env: { CACHE_TTL_MS: '0' } });
});
afterAll(() => s.close());

async function waits(upstream: string): Promise<Record<string, number>> {
  const text = await (await s.gateway.yoga.fetch('http://gateway.test/metrics')).text();
  const out: Record<string, number> = {};
  const re = new RegExp(
    `^gateway_upstream_queue_wait_seconds_count\\{upstream="${upstream}",priority="(\\w+)"\\} (\\d+)$`,
    'gm',
  );
  for (const m of text.matchAll(re)) out[m[1]!] = Number(m[2]);
  return out;
}

const delta = (after: Record<string, number>, before: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(after)
      .map(([k, v]) => [k, v - (before[k] ?? 0)])
      .filter(([, v]) => v !== 0),
  );

describe('priorities follow the kind of call', () => {
  it('calendar: the first page of a long list is a list read, the pages filling it out are bulk', async () => {
    const before = await waits('calendar');
    const res = await s.query<{ events: { totalCount: number } }>(`{ events(first: 120) { totalCount nodes { id } } }`);
    expect(res.errors).toBeUndefined();
    // Upstream pages hold 50: the first page, then as many more as the list has rows for.
    const pages = Math.ceil(Math.min(120, res.data!.events.totalCount) / 50);
    expect(pages).toBeGreaterThan(1);
    expect(delta(await waits('calendar'), before)).toEqual({ list: 1, bulk: pages - 1 });
  });

  it('governance: the same split, and a record read by id is a single read', async () => {
    const before = await waits('governance');
    const res = await s.query<{ entities: { nodes: { id: string }[] } }>(`{ entities(first: 120) { nodes { id } } }`);
    expect(res.errors).toBeUndefined();
    const id = res.data!.entities.nodes[0]!.id;
    await s.query(`query($id: ID!) { entity(id: $id) { id name } }`, { id });
    const d = delta(await waits('governance'), before);
    expect(d.list).toBe(1);
    expect(d.bulk).toBeGreaterThanOrEqual(1);
    expect(d.single).toBeGreaterThanOrEqual(1);
  });
});
