/**
 * The governance graph's reads over real HTTP against the governance emulator: the contract
 * operations, paging across upstream pages, unknown ids, bad input (refused before any upstream
 * call) and the headline traversal's upstream cost, counted in the emulator's request log.
 */
import { parse, validate } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/app/schema.js';
import { apiCalls, governanceCalls, tokenCalls } from './support/governance.js';
import { operation as op, operationNames } from './support/operations.js';
import { startStack, type Stack } from './support/stack.js';
import { databaseIdOf } from './support/global-ids.js';
import { buildSeed } from '../src/emulators/governance/seed.js';

type Any = any;

let stack: Stack;
/** Runs a query that must succeed and returns its data. */
async function data(query: string, variables?: Record<string, unknown>): Promise<Any> {
  const res = await stack.query<Any>(query, variables);
  expect(res.errors).toBeUndefined();
  return res.data;
}

beforeAll(async () => {
  stack = await startStack();
  // Fetch the token once so that request counts below see API calls only.
  await data('{ entityTypes(first: 1) { totalCount } }');
});

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

it.each(operationNames('governance'))('operation %s validates against the schema', (name) => {
  expect(validate(schema, parse(op(name))).map((e) => e.message)).toEqual([]);
});

describe('reads', () => {
  it('EntityTypes lists the four AI kinds with their settings, and EntityTypeById reads one', async () => {
    const d = await data(op('EntityTypes'));
    const byName = new Map<string, Any>(d.entityTypes.nodes.map((t: Any) => [t.name, t]));
    for (const n of ['models', 'datasets', 'aisystems', 'aiagents'])
      expect(byName.get(n)?.moduleScopes).toContain('AIG');
    expect(byName.get('datasets').settings.enableWorkflow).toBe(false);
    expect(byName.get('datasets').workflowType).toBeNull();
    expect(byName.get('models').workflowType).toBe(databaseIdOf(byName.get('models').id, 'EntityType'));
    const one = await data(op('EntityTypeById'), { id: byName.get('models').id });
    expect(one.entityType).toMatchObject({ name: 'models', schemaName: 'models', enabled: true });
  });

  it('EntityById carries type, stage, attributes with option keys, audit fields and users', async () => {
    const list = await data('{ entities(kind: MODEL, first: 1) { nodes { id } } }');
    const id = list.entities.nodes[0].id;
    stack.gateway.upstreams.cache.clear();
    stack.clearRequests();
    const res = await stack.query<Any>(op('EntityById'), { id });
    const e = res.data.entity;
    expect(e).toMatchObject({ id, kind: 'MODEL', type: { name: 'models', moduleName: 'AIGovernance' } });
    expect(e.displayLabel).toBe(`${e.number} | ${e.name}`);
    expect(e.type.settings.enableWorkflow).toBe(true);
    expect(e.workflowStage.name).toMatch(/Ideation|Development|Testing|Approved|Deployed|Retired/);
    const option = e.attributes.find((a: Any) => a.values.some((v: Any) => v.valueKey));
    expect(databaseIdOf(option.values[0].id, 'AttributeValue')).toMatch(/^[0-9a-f-]{36}$/);
    expect(e.description.values[0].value).toEqual(expect.any(String));
    expect(Date.parse(e.createdAt)).toBeLessThanOrEqual(Date.parse(e.updatedAt));
    expect(databaseIdOf(e.createdBy.id, 'GovernanceUser')).toMatch(/^[0-9a-f-]{36}$/);
    // One GET for the record, one for the full type (settings are not in the embedded reference).
    expect(apiCalls(stack).map((r) => r.route)).toEqual(['GET /entities/:entityId', 'GET /entity-types/:entityTypeId']);
    expect(res.extensions?.cost?.governance?.actual).toBe(2);
  });

  it('entities carry their three groups of attributes, organization, schema and both users', async () => {
    const d = await data(
      '{ entities(kind: MODEL, first: 60) { nodes { number organizationId schemaId attributes { name group values { databaseId value valueKey disabled } } createdBy { id name email initials } lastModifiedBy { databaseId } } } }',
    );
    const nodes: Any[] = d.entities.nodes;
    const attrs = nodes.flatMap((n) => n.attributes);
    const groups = new Set(attrs.map((a: Any) => a.group));
    expect(groups).toEqual(new Set(['BASE', 'EXTENDED_BASE', 'CUSTOM']));
    // Option attributes (seeded or custom) hold option uuids and keys; text ones hold neither.
    for (const a of attrs.filter((x: Any) => x.group !== 'BASE'))
      for (const v of a.values)
        expect(v).toMatchObject({ databaseId: expect.stringMatching(/^[0-9a-f-]{36}$/), valueKey: expect.any(String) });
    expect(attrs.filter((x: Any) => x.group === 'CUSTOM').every((a: Any) => /^attribute\w+Value\./.test(a.name))).toBe(
      true,
    );
    for (const n of nodes) {
      expect(n.number).toEqual(expect.any(Number));
      expect(n.organizationId).toMatch(/^[0-9a-f-]{36}$/);
      expect(n.schemaId).toMatch(/^[0-9a-f-]{36}$/);
      expect(n.lastModifiedBy.databaseId).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(nodes.some((n) => n.createdBy.email && n.createdBy.name && n.createdBy.initials)).toBe(true);
  });

  it('an entity type carries every field and setting', async () => {
    const d = await data(
      '{ entityTypes(first: 50) { nodes { id name nameKey description descriptionKey seeded enabled moduleName moduleScopes schemaName workflowType createdAt updatedAt settings { enableWorkflow enableWorkflowStageTracking enableAudit assessable enableTask enableRisk enableDocument enableControl enableWebForm enableComment } } } }',
    );
    const models = d.entityTypes.nodes.find((t: Any) => t.name === 'models');
    for (const key of ['nameKey', 'description', 'descriptionKey', 'moduleName', 'schemaName'])
      expect(models[key], key).toEqual(expect.any(String));
    expect(models).toMatchObject({
      seeded: true,
      enabled: true,
      workflowType: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(Date.parse(models.createdAt)).toBeLessThanOrEqual(Date.parse(models.updatedAt));
    for (const [key, value] of Object.entries(models.settings)) expect(typeof value, key).toBe('boolean');
    expect(models.settings.enableWorkflow).toBe(true);
  });

  it('answers `type { name }` from the embedded reference without a call', async () => {
    stack.clearRequests();
    const d = await data(
      '{ entities(kind: DATASET, first: 5) { nodes { type { id name seeded moduleName schemaName kind } } } }',
    );
    expect(d.entities.nodes[0].type).toMatchObject({ name: 'datasets', kind: 'DATASET', seeded: true });
    expect(apiCalls(stack).map((r) => r.route)).toEqual(['POST /entities/search']);
  });

  it('EntitySearch and EntitySummaries find records by text', async () => {
    const s = await data(op('EntitySearch'), { text: 'Fraud' });
    expect(s.entities.totalCount).toBeGreaterThan(0);
    expect(s.entities.nodes.every((n: Any) => /fraud/i.test(n.name))).toBe(true);
    const b = await data(op('EntitySummaries'), { text: 'Fraud' });
    expect(b.entitySummaries.nodes.length).toBeGreaterThan(0);
    for (const n of b.entitySummaries.nodes) expect(n.displayLabel).toBe(`${n.number} | ${n.name}`);
  });

  it('organizationId with organizationTraversal narrows or widens the organizations searched', async () => {
    const orgs = buildSeed().organizations;
    const byName = (name: string) => orgs.find((o) => o.name === name)!.id;
    const americas = byName('Acme Americas');
    const query = `query($org: ID, $how: GovernanceOrganizationTraversal) {
      entitySummaries(organizationId: $org, organizationTraversal: $how, first: 500) { totalCount nodes { organizationId } }
    }`;
    const seen = async (how: string, org?: string) => (await data(query, { org, how })).entitySummaries;
    const down = await seen('DESCENDANTS', americas);
    const upAndDown = await seen('ANCESTORS_AND_DESCENDANTS', americas);
    const all = await seen('ALL', americas);
    // Americas and its lab below it; with ancestors, the holding's own records too; ALL adds Europe's.
    const subtree = new Set([americas, byName('Acme Research Lab')]);
    expect(down.totalCount).toBeGreaterThan(0);
    expect(down.nodes.every((n: Any) => subtree.has(n.organizationId))).toBe(true);
    expect(upAndDown.nodes.some((n: Any) => n.organizationId === byName('Acme Holdings'))).toBe(true);
    expect(upAndDown.nodes.some((n: Any) => n.organizationId === byName('Acme Europe'))).toBe(false);
    expect(all.nodes.some((n: Any) => n.organizationId === byName('Acme Europe'))).toBe(true);
    expect(down.totalCount).toBeLessThan(upAndDown.totalCount);
    expect(upAndDown.totalCount).toBeLessThan(all.totalCount);
    // From the credential's own (root) organization, DESCENDANTS already covers the whole tenant.
    expect((await seen('DESCENDANTS')).totalCount).toBe(all.totalCount);

    stack.clearRequests();
    const bad = await stack.query<Any>(query, { org: 'not-a-uuid', how: 'ALL' });
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'organizationId' });
    expect(apiCalls(stack)).toEqual([]);
  });

  it('LinkById reads a link with both labels and both ends', async () => {
    const g = await data(
      '{ entities(kind: AI_SYSTEM, first: 1) { nodes { links(first: 1) { nodes { id relationshipType { id name nameKey description descriptionKey seeded moduleName schemaName forwardLabel forwardLabelKey reverseLabel reverseLabelKey enableAudit allowNewCustomLinkAssociation createdAt updatedAt } } } } } }',
    );
    const l = g.entities.nodes[0].links.nodes[0];
    const r = l.relationshipType;
    for (const key of [
      'name',
      'nameKey',
      'description',
      'descriptionKey',
      'moduleName',
      'schemaName',
      'forwardLabel',
      'forwardLabelKey',
      'reverseLabel',
      'reverseLabelKey',
    ])
      expect(r[key]).toEqual(expect.any(String));
    expect(Date.parse(r.createdAt)).toBeLessThanOrEqual(Date.parse(r.updatedAt));
    const d = await data(op('LinkById'), { id: l.id, linkTypeId: l.relationshipType.id });
    expect(d.link).toMatchObject({
      id: l.id,
      forwardLabel: expect.any(String),
      reverseLabel: expect.any(String),
    });
    expect(databaseIdOf(d.link.linkType.id, 'GovernanceLinkType')).toBe(databaseIdOf(l.relationshipType.id));
    const keys = await data(
      'query($id: ID!, $t: ID!) { link(id: $id, linkTypeId: $t) { forwardLabel forwardLabelKey reverseLabelKey } }',
      { id: l.id, t: r.id },
    );
    expect(keys.link).toEqual({
      forwardLabel: r.forwardLabel,
      forwardLabelKey: r.forwardLabelKey,
      reverseLabelKey: r.reverseLabelKey,
    });
    expect(d.link.entity1.entity?.id ?? null).toBe(d.link.entity1.kind ? d.link.entity1.id : null);
  });

  it('Entity.links: both orders reach the upstream, and link ends carry number, label and option keys', async () => {
    const q =
      'query($o: EntityLinkOrder!) { entities(kind: AI_SYSTEM, first: 1) { nodes { links(first: 50, orderBy: $o) { totalCount nodes { id counterpart { kind number displayLabel options { name values { databaseId valueKey } } } } } } } }';
    stack.gateway.upstreams.cache.clear();
    stack.clearRequests();
    const newest = (await data(q, { o: 'ID_DESC' })).entities.nodes[0].links;
    const oldest = (await data(q, { o: 'ID_ASC' })).entities.nodes[0].links;
    expect(newest.totalCount).toBeGreaterThan(1);
    expect(newest.nodes).toHaveLength(newest.totalCount);
    expect(oldest.nodes.map((n: Any) => n.id)).toEqual([...newest.nodes.map((n: Any) => n.id)].reverse());
    const sorts = apiCalls(stack)
      .filter((r) => r.route.endsWith('/links/pages'))
      .map((r) => new URLSearchParams(r.query).get('sort'));
    expect(sorts).toEqual(['id,desc', 'id,asc']);
    for (const { counterpart: c } of newest.nodes.filter((n: Any) => n.counterpart.kind)) {
      expect(c.number).toEqual(expect.any(Number));
      expect(c.displayLabel).toEqual(expect.any(String));
      for (const o of c.options)
        for (const v of o.values)
          expect(v).toMatchObject({
            databaseId: expect.stringMatching(/^[0-9a-f-]{36}$/),
            valueKey: expect.stringMatching(/^CE\./),
          });
    }
    expect(newest.nodes.some((n: Any) => n.counterpart.options.length > 0)).toBe(true);
  });

  it('filters reach the upstream: option filters on entities, module, seeded and enabled on entity types', async () => {
    const all = await data(
      '{ entities(kind: DATASET, first: 100) { totalCount nodes { source: attribute(name: "source") { values { id } } } } }',
    );
    const optionId: string = all.entities.nodes.find((n: Any) => n.source?.values[0])?.source.values[0].id;
    const q =
      'query($v: [String!]!) { entities(kind: DATASET, first: 100, filters: [{ field: "source", values: $v }]) { totalCount nodes { source: attribute(name: "source") { values { id } } } } }';
    const filtered = await data(q, { v: [optionId] });
    expect(filtered.entities.totalCount).toBeGreaterThan(0);
    expect(filtered.entities.totalCount).toBeLessThan(all.entities.totalCount);
    for (const n of filtered.entities.nodes) expect(n.source.values.map((v: Any) => v.id)).toContain(optionId);
    const types = await data(
      '{ dm: entityTypes(moduleScope: "DM", first: 50) { nodes { moduleScopes } } custom: entityTypes(seeded: false, first: 50) { nodes { seeded } } off: entityTypes(enabled: false, first: 50) { nodes { enabled } } }',
    );
    expect(types.dm.nodes.length).toBeGreaterThan(0);
    for (const t of types.dm.nodes) expect(t.moduleScopes).toContain('DM');
    expect(types.custom.nodes.length).toBeGreaterThan(0);
    expect(types.custom.nodes.every((t: Any) => t.seeded === false)).toBe(true);
    expect(types.off.nodes.every((t: Any) => t.enabled === false)).toBe(true);
  });

  it('unknown ids are null, not errors', async () => {
    const res = await stack.query<Any>(
      `{ entity(id: "${UNKNOWN}") { id } entityType(id: "${UNKNOWN}") { id } link(id: "${UNKNOWN}", linkTypeId: "${UNKNOWN}") { id } }`,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ entity: null, entityType: null, link: null });
  });
});

describe('paging', () => {
  it('first 60 spans two upstream pages and returns exactly 60, sorted by name descending', async () => {
    stack.gateway.upstreams.cache.clear();
    stack.clearRequests();
    const d = await data(op('EntitiesOfKind'), { first: 60 });
    expect(d.entities.edges).toHaveLength(60);
    expect(d.entities.pageInfo.hasNextPage).toBe(d.entities.totalCount > 60);
    const names = d.entities.edges.map((e: Any) => e.node.name.toLowerCase());
    expect([...names].sort().reverse()).toEqual(names);
    const searches = apiCalls(stack).filter((r) => r.route === 'POST /entities/search');
    expect(searches).toHaveLength(2);
    for (const s of searches) expect(Number(new URLSearchParams(s.query).get('size'))).toBeLessThanOrEqual(50);
  });

  it('a cursor walk visits every record once, and any slice is exact', async () => {
    const all = await data('{ entities(kind: MODEL, first: 500, orderBy: NAME_DESC) { totalCount nodes { id } } }');
    const ids: string[] = all.entities.nodes.map((n: Any) => n.id);
    expect(ids).toHaveLength(all.entities.totalCount);
    const walked: string[] = [];
    let after: string | null = null;
    do {
      const page: Any = await data(op('EntitiesOfKind'), { first: 25, after });
      walked.push(...page.entities.edges.map((e: Any) => e.node.id));
      after = page.entities.pageInfo.hasNextPage ? page.entities.pageInfo.endCursor : null;
    } while (after);
    expect(walked).toEqual(ids);
    const first = await data(op('EntitiesOfKind'), { first: 46 });
    const slice = await data(op('EntitiesOfKind'), { first: 7, after: first.entities.pageInfo.endCursor });
    expect(slice.entities.edges.map((e: Any) => e.node.id)).toEqual(ids.slice(46, 53));
  });

  it('first above the maximum, a negative first and a tampered cursor are BAD_USER_INPUT with no upstream call', async () => {
    const ok = await data(op('EntitiesOfKind'), { first: 2 });
    const cursor: string = ok.entities.pageInfo.endCursor;
    const tampered = Buffer.from(
      Buffer.from(cursor, 'base64url')
        .toString()
        .replace(/:[0-9a-f]{12}$/, ':000000000000'),
    ).toString('base64url');
    stack.clearRequests();
    for (const vars of [
      { first: 501 },
      { first: -1 },
      { first: 5, after: tampered },
      { first: 5, after: 'not-a-cursor' },
    ]) {
      const res = await stack.query<Any>(op('EntitiesOfKind'), vars);
      expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    const links = await stack.query<Any>(
      `{ entitySummaries(first: 1000) { totalCount } entityTypes(first: 501) { totalCount } }`,
    );
    expect(links.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT', 'BAD_USER_INPUT']);
    expect(governanceCalls(stack)).toEqual([]);
  });
});

describe('argument checks before any upstream call', () => {
  it.each([
    ['entity', '{ entity(id: "42") { id } }', 'id'],
    ['entityType', '{ entityType(id: "models") { id } }', 'id'],
    ['link', `{ link(id: "${UNKNOWN}", linkTypeId: "x") { id } }`, 'linkTypeId'],
    ['search too long', `{ entities(search: "${'x'.repeat(501)}", first: 1) { totalCount } }`, 'search'],
    ['deleteEntity', 'mutation { deleteEntity(id: "1") { deletedId } }', 'id'],
    ['updateEntity', `mutation { updateEntity(id: "${UNKNOWN}", input: { name: "  " }) { id } }`, 'input.name'],
    [
      'createEntity',
      'mutation { createEntity(input: { kind: DATASET, name: "x", organizationId: "root" }) { id } }',
      'input.organizationId',
    ],
    [
      'moveEntityToStage',
      `mutation { moveEntityToStage(input: { entityId: "${UNKNOWN}", nextStageName: " " }) { id } }`,
      'input.nextStageName',
    ],
    [
      'createLink',
      `mutation { createLink(input: { linkTypeId: "${UNKNOWN}", entity1: { id: "a" }, entity2: { id: "${UNKNOWN}" } }) { id } }`,
      'input.entity1.id',
    ],
    ['deleteLink', `mutation { deleteLink(id: "${UNKNOWN}", linkTypeId: "nope") { deletedId } }`, 'linkTypeId'],
    [
      'addSchemaAttribute',
      'mutation { addSchemaAttribute(schemaName: "", input: { name: "x", responseType: TEXT }) { id } }',
      'schemaName',
    ],
    [
      'addAttributeOptions',
      'mutation { addAttributeOptions(attributeId: "x", options: [{ option: "a" }]) { id } }',
      'attributeId',
    ],
  ])('%s', async (_name, query, argument) => {
    stack.clearRequests();
    const res = await stack.query<Any>(query);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument });
    expect(governanceCalls(stack)).toEqual([]);
    expect(tokenCalls(stack)).toEqual([]);
  });
});

describe('EntityGraph: entity -> links -> counterpart in the fewest upstream calls', () => {
  it('costs one search, one links page per AI system and one GET per counterpart no payload primed', async () => {
    stack.gateway.upstreams.cache.clear();
    stack.clearRequests();
    const res = await stack.query<Any>(op('EntityGraph'), { first: 10 });
    expect(res.errors).toBeUndefined();
    const systems: Any[] = res.data.entities.nodes;
    expect(systems).toHaveLength(10);

    const primed = new Set(systems.map((s) => s.id));
    const wanted: string[] = [];
    let vendors = 0;
    for (const s of systems) {
      expect(s.type.name).toBe('aisystems');
      for (const l of s.links.nodes) {
        const c = l.counterpart;
        // The counterpart is the end that is not the system, and the label reads from the system's side.
        expect(c.id).toBe(l.source.id === s.id ? l.target.id : l.source.id);
        if (c.kind === null) {
          vendors++;
          expect(c.entity).toBeNull();
        } else if (!c.deleted) {
          expect(c.entity).toMatchObject({ id: c.id, name: c.name, kind: c.kind });
          if (!primed.has(c.id)) wanted.push(databaseIdOf(c.id, 'Entity'));
        }
      }
    }
    const distinct = new Set(wanted);
    const aiEnds = systems
      .flatMap((s) => s.links.nodes)
      .filter((l: Any) => l.counterpart.kind && !l.counterpart.deleted).length;
    // The seed links several systems to the same records: without the loader's de-duplication this
    // would cost one GET per AI end (priming from the search is proven by the last test below).
    expect(distinct.size).toBeLessThan(aiEnds);
    expect(vendors).toBeGreaterThan(0);

    const calls = apiCalls(stack);
    const byRoute = (route: string) => calls.filter((r) => r.route === route);
    expect(byRoute('POST /entities/search')).toHaveLength(1);
    expect(
      byRoute('POST /linked-entity-types/entity-types/names/:entityTypeName/entities/:entityId/links/pages'),
    ).toHaveLength(10);
    const gets = byRoute('GET /entities/:entityId').map((r) => r.path.split('/').pop());
    // A counterpart the search's upstream page held beyond the 10 shown is answered by that record
    // (docs/caching.md, records not requests): a cache hit instead of a GET.
    const kept = res.extensions!.cost!.governance!.cacheHits;
    expect(gets.every((id) => distinct.has(id!))).toBe(true);
    expect(gets).toHaveLength(new Set(gets).size);
    expect(gets).toHaveLength(distinct.size - kept);
    expect(calls).toHaveLength(1 + 10 + distinct.size - kept);
    expect(tokenCalls(stack)).toHaveLength(0);
    expect(res.extensions?.cost?.governance).toMatchObject({ actual: calls.length });
    console.log(
      `EntityGraph(first: 10): 1 search + 10 links pages + ${distinct.size} entity GETs = ${calls.length} upstream requests (${aiEnds} AI ends, ${wanted.length} outside the page, ${vendors} vendor ends)`,
    );
  });

  it('a second run within the cache TTL is answered from the shared cache', async () => {
    stack.clearRequests();
    const res = await stack.query<Any>(op('EntityGraph'), { first: 10 });
    expect(res.errors).toBeUndefined();
    expect(apiCalls(stack)).toHaveLength(0);
    expect(res.extensions?.cost?.governance?.actual).toBe(0);
    expect(res.extensions?.cost?.governance?.cacheHits).toBeGreaterThan(10);
  });

  it('records a search returned are primed: links back to them cost no GET', async () => {
    stack.gateway.upstreams.cache.clear();
    stack.clearRequests();
    // Every AI system is in the search page, and the seed links systems to systems: those ends must
    // come from the search payloads, only the other kinds' ends are read one by one.
    const { totalCount } = (await data('{ entities(kind: AI_SYSTEM, first: 1) { totalCount } }')).entities;
    stack.clearRequests();
    const d = await data(
      'query($n: Int!) { entities(kind: AI_SYSTEM, first: $n) { totalCount nodes { id links(first: 10) { nodes { counterpart { id kind deleted entity { id name } } } } } } }',
      { n: totalCount },
    );
    const systems: Any[] = d.entities.nodes;
    expect(systems).toHaveLength(d.entities.totalCount);
    const ends: Any[] = systems
      .flatMap((s) => s.links.nodes.map((l: Any) => l.counterpart))
      .filter((c: Any) => c.kind && !c.deleted);
    const systemEnds = ends.filter((c) => c.kind === 'AI_SYSTEM');
    expect(systemEnds.length).toBeGreaterThan(0);
    for (const c of ends) expect(c.entity).toMatchObject({ id: c.id });
    const gets = apiCalls(stack)
      .filter((r) => r.route === 'GET /entities/:entityId')
      .map((r) => r.path.split('/').pop());
    expect(new Set(gets)).toEqual(new Set(ends.filter((c) => c.kind !== 'AI_SYSTEM').map((c) => databaseIdOf(c.id))));
    expect(gets.filter((id) => systemEnds.some((c) => databaseIdOf(c.id) === id))).toEqual([]);
  });
});

describe('extensions.cost', () => {
  it('can be switched off by configuration', async () => {
    const quiet = await startStack({ env: { GATEWAY_COST_EXTENSION: 'false' } });
    const res = await quiet.query<Any>('{ entityTypes(first: 1) { totalCount } }');
    expect(res.errors).toBeUndefined();
    expect(res.data.entityTypes.totalCount).toBeGreaterThan(0);
    expect(res.extensions?.cost).toBeUndefined();
    expect(apiCalls(quiet)).toHaveLength(1);
  });
});
