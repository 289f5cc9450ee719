/**
 * Filters the gateway completes itself, over HTTP against the governance emulator: the stage of
 * records and the kind of a link's counterpart (the upstream filters neither), with server-side
 * paging whose cursors resume where a page stopped, an estimate that bounds the calls counted at the
 * emulator, and unknown filter fields, values and stages refused with the known ones listed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSeed } from '../src/emulators/governance/seed.js';
import { apiCalls } from './support/governance.js';
import { operation as op } from './support/operations.js';
import { startStack, type Stack } from './support/stack.js';

type Any = any;

let stack: Stack;
const seed = buildSeed();
const stageOf = (id: string | null) =>
  seed.entityTypes.flatMap((t) => t.workflow?.stages ?? []).find((s) => s.id === id)?.name;
const byName = (a: { name: string; id: string }, b: { name: string; id: string }) =>
  a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1);
/** The live AI systems in a stage, in the upstream's order (by name). */
const systemsIn = (stage: string) =>
  seed.entities.filter((e) => e.typeName === 'aisystems' && !e.deleted && stageOf(e.stageId) === stage).sort(byName);

beforeAll(async () => {
  stack = await startStack();
  await stack.query('{ entityTypes(first: 1) { totalCount } }'); // the token, apart from the counts below
});

describe('stage filter', () => {
  it('"AI systems in Development, 20 a page, with their datasets and models": one query, its estimate and its calls', async () => {
    const expected = systemsIn('Development');
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThanOrEqual(20);
    stack.gateway.upstreams.cache.clear();
    stack.clearRequests();
    const res = await stack.query<Any>(op('AiSystemsInStage'), { stage: 'Development', first: 20 });
    expect(res.errors).toBeUndefined();
    const list = res.data.entities;
    expect(list.nodes.map((n: Any) => n.id)).toEqual(expected.map((e) => e.id));
    expect(list.nodes.every((n: Any) => n.workflowStage.name === 'Development')).toBe(true);
    // The 61 live AI systems are two upstream pages of 50: the whole list was read, so the count is known.
    expect(list.totalCount).toBe(expected.length);
    expect(list.pageInfo.hasNextPage).toBe(false);
    for (const system of list.nodes) {
      expect(system.links.nodes.length).toBe(system.links.totalCount);
      for (const l of system.links.nodes) expect(['DATASET', 'MODEL']).toContain(l.counterpart.kind);
    }
    // Counted at the emulator: 2 search pages of 50 and one links page of 50 per system.
    const calls = apiCalls(stack);
    expect(calls.filter((c) => c.route === 'POST /entities/search')).toHaveLength(2);
    expect(calls.filter((c) => c.route.endsWith('/links/pages'))).toHaveLength(expected.length);
    expect(calls.every((c) => /size=50/.test(c.query))).toBe(true);
    expect(calls).toHaveLength(2 + expected.length);
    // Estimated: 4 pages for the list (ceil(20 / 50) + 3) and 2 per system for its links (ceil(10 / 50) + 1).
    const cost = res.extensions!.cost!.governance!;
    expect(cost.estimated).toBe(4 + 20 * 2);
    expect(cost.actual).toBe(calls.length);
    expect(cost.actual).toBeLessThanOrEqual(cost.estimated);
  });

  it('pages on the server: each page stops once full, and its cursor resumes where it stopped', async () => {
    const expected = systemsIn('Ideation');
    expect(expected.length).toBeGreaterThan(5);
    stack.gateway.upstreams.cache.clear();
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      stack.clearRequests();
      const res: Any = await stack.query<Any>(
        'query($after: String) { entities(kind: AI_SYSTEM, stage: "ideation", first: 5, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { id } } }',
        { after },
      );
      expect(res.errors).toBeUndefined();
      const list = res.data.entities;
      seen.push(...list.nodes.map((n: Any) => n.id));
      // No page reads more than the two upstream pages of the list, and a page from a cursor
      // starts at the page that holds it.
      expect(apiCalls(stack).length).toBeLessThanOrEqual(2);
      expect(res.extensions.cost.governance.actual).toBeLessThanOrEqual(res.extensions.cost.governance.estimated);
      if (pages > 0) expect(list.totalCount).toBeNull();
      after = list.pageInfo.hasNextPage ? list.pageInfo.endCursor : null;
      pages += 1;
    } while (after && pages < 20);
    expect(seen).toEqual(expected.map((e) => e.id));
    expect(pages).toBe(Math.ceil(expected.length / 5));
  });

  it('a page filled by the last match has no next page, though its upstream page was not the last', async () => {
    // The 8 retired AI systems all sit in the first upstream page of 50 (of 61): the page fills
    // there, and only reading the second page tells that no further match follows.
    const expected = systemsIn('Retired');
    const all = seed.entities.filter((e) => e.typeName === 'aisystems' && !e.deleted).sort(byName);
    expect(all.indexOf(expected.at(-1)!)).toBeLessThan(50);
    expect(all.length).toBeGreaterThan(50);
    stack.gateway.upstreams.cache.clear();
    stack.clearRequests();
    const res = await stack.query<Any>(
      'query($n: Int) { entities(kind: AI_SYSTEM, stage: "Retired", first: $n) { totalCount pageInfo { hasNextPage } nodes { id } } }',
      { n: expected.length },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.entities.nodes.map((n: Any) => n.id)).toEqual(expected.map((e) => e.id));
    expect(res.data.entities.pageInfo.hasNextPage).toBe(false);
    expect(res.data.entities.totalCount).toBe(expected.length);
    expect(apiCalls(stack)).toHaveLength(2);
    const cost = res.extensions!.cost!.governance!;
    expect(cost.actual).toBeLessThanOrEqual(cost.estimated);
  });

  it('stages: records in any of them; every kind when none is given', async () => {
    const res = await stack.query<Any>(
      '{ entities(stages: ["Testing", "Approved"], first: 50) { nodes { kind workflowStage { name } } } }',
    );
    expect(res.errors).toBeUndefined();
    const nodes = res.data.entities.nodes;
    expect(nodes.length).toBeGreaterThan(0);
    expect(new Set(nodes.map((n: Any) => n.workflowStage.name))).toEqual(new Set(['Testing', 'Approved']));
    expect(nodes.some((n: Any) => n.kind !== nodes[0].kind)).toBe(true);
  });

  it('an unknown stage, a cursor of another list and paging backwards are BAD_USER_INPUT before any call', async () => {
    stack.clearRequests();
    const unknown = await stack.query<Any>('{ entities(kind: AI_SYSTEM, stage: "Develop", first: 20) { totalCount } }');
    expect(unknown.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'stage' });
    expect(unknown.errors?.[0]?.message).toContain(
      '"Ideation", "Development", "Testing", "Approved", "Deployed", "Retired"',
    );
    const datasets = await stack.query<Any>('{ entities(kind: DATASET, stages: ["Ideation"]) { totalCount } }');
    expect(datasets.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'stages' });
    const backwards = await stack.query<Any>('{ entities(stage: "Testing", last: 5) { totalCount } }');
    expect(backwards.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'last' });
    const both = await stack.query<Any>('{ entities(stage: "Testing", stages: ["Retired"]) { totalCount } }');
    expect(both.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'stages' });
    expect(apiCalls(stack)).toHaveLength(0);

    const first = await stack.query<Any>('{ entities(stage: "Testing", first: 1) { pageInfo { endCursor } } }');
    const other = await stack.query<Any>(
      'query($a: String) { entities(stage: "Retired", first: 1, after: $a) { totalCount } }',
      {
        a: first.data.entities.pageInfo.endCursor,
      },
    );
    expect(other.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'after' });
  });
});

describe('filters on fields', () => {
  it('a field that is not a select attribute of the kind is BAD_USER_INPUT listing the known ones, not an empty list', async () => {
    stack.clearRequests();
    const res = await stack.query<Any>(
      '{ entities(kind: AI_SYSTEM, first: 20, filters: [{ field: "workflowStage", values: ["Development"] }]) { totalCount } }',
    );
    expect(res.data?.entities ?? null).toBeNull();
    const error = res.errors?.[0];
    expect(error?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'filters[0].field' });
    expect(error?.message).toContain('"riskLevel", "type"');
    expect(error?.message).toContain('"stage" argument');
    expect(apiCalls(stack)).toHaveLength(0);
  });

  it('an option uuid the field does not offer is BAD_USER_INPUT listing the options; a known one filters upstream', async () => {
    const riskLevel = seed.entityTypes
      .find((t) => t.name === 'aisystems')!
      .attributes.find((a) => a.field === 'riskLevel')!;
    const wrong = await stack.query<Any>(
      '{ entitySummaries(first: 5, filters: [{ field: "riskLevel", values: ["00000000-0000-4000-8000-000000000000"] }]) { totalCount } }',
    );
    expect(wrong.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'filters[0].values' });
    expect(wrong.errors?.[0]?.message).toContain(`"High" ${riskLevel.options!.find((o) => o.value === 'High')!.id}`);

    const high = riskLevel.options!.find((o) => o.value === 'High')!.id;
    const res = await stack.query<Any>(
      'query($v: [String!]!) { entities(kind: AI_SYSTEM, first: 50, filters: [{ field: "riskLevel", values: $v }]) { totalCount } }',
      { v: [high] },
    );
    expect(res.errors).toBeUndefined();
    const expected = seed.entities.filter(
      (e) => e.typeName === 'aisystems' && !e.deleted && e.options.riskLevel?.[0]?.id === high,
    ).length;
    expect(res.data.entities.totalCount).toBe(expected);
  });
});

describe('counterpart kinds on links', () => {
  it('keeps the links whose other end is of the kinds asked for; the rest of the links drop out', async () => {
    const system = seed.entities.find(
      (e) =>
        e.typeName === 'aisystems' &&
        !e.deleted &&
        seed.links.some(
          (l) =>
            (l.entity1Id === e.id || l.entity2Id === e.id) &&
            seed.entities.find((x) => x.id === (l.entity1Id === e.id ? l.entity2Id : l.entity1Id))?.typeName ===
              'vendors',
        ),
    )!;
    const res = await stack.query<Any>(
      'query($id: ID!) { entity(id: $id) { all: links(first: 50) { totalCount nodes { counterpart { typeName } } } ai: links(first: 50, counterpartKinds: [MODEL, DATASET, AI_AGENT, AI_SYSTEM]) { totalCount nodes { counterpart { kind } } } } }',
      { id: system.id },
    );
    expect(res.errors).toBeUndefined();
    const { all, ai } = res.data.entity;
    const vendors = all.nodes.filter((n: Any) => n.counterpart.typeName === 'vendors').length;
    expect(vendors).toBeGreaterThan(0);
    expect(ai.totalCount).toBe(all.totalCount - vendors);
    expect(ai.nodes.every((n: Any) => n.counterpart.kind !== null)).toBe(true);
  });
});
