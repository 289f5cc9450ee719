/**
 * Contract tests of the AI governance emulator over real HTTP: token endpoint, scopes, the 15
 * operations, paging/sort/search, writes, account rate limits, request log, faults and reset.
 * Expectations come from `buildSeed` (the same deterministic seed the emulator serves).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  buildSeed,
  startGovernanceEmulator,
  type GovernanceEmulator,
  type GovernanceEmulatorOptions,
} from '../src/emulators/governance/index.js';
import type {
  AttributeInformation,
  BasicEntity,
  EntityInformation,
  EntityTypeInformation,
  ErrorBody,
  LinkInformation,
  LinksPage,
  RelatedEntityLink,
  SpringPage,
  TokenResponse,
  WorkflowStageInformation,
} from '../src/governance/wire.js';
import { until, untilNextWindow } from './support/wait.js';

type Client = 'full' | 'read' | 'write';
interface Reply<T> {
  status: number;
  body: T;
  headers: Headers;
}

const seed = buildSeed();
const live = (type: string) => seed.entities.filter((e) => e.typeName === type && !e.deleted);
const typeId = (name: string) => seed.entityTypes.find((t) => t.name === name)!.id;
const RANDOM_UUID = '0b7e3f0e-5d1c-4b8a-9a51-2f0e6c1d9a77';

async function tokenFor(e: GovernanceEmulator, client: Client = 'full'): Promise<string> {
  const { clientId, clientSecret } = e.clients[client];
  const res = await fetch(e.tokenUrl, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as TokenResponse).access_token;
}

/** A small REST caller bound to one emulator and one token. */
function caller(e: GovernanceEmulator, token: () => string | undefined) {
  return async <T = unknown>(method: string, path: string, body?: unknown): Promise<Reply<T>> => {
    const headers: Record<string, string> = {};
    const t = token();
    if (t) headers.authorization = `Bearer ${t}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${e.apiRoot}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
  };
}

async function started(options: GovernanceEmulatorOptions = {}) {
  const e = await startGovernanceEmulator(options);
  const tokens = {
    full: await tokenFor(e, 'full'),
    read: await tokenFor(e, 'read'),
    write: await tokenFor(e, 'write'),
  };
  return { e, tokens, as: (client: Client) => caller(e, () => tokens[client]) };
}

const code = (r: Reply<unknown>) => (r.body as ErrorBody).errors[0]!.code;
const relatedPath = (type: string, id: string, query = '') =>
  `/linked-entity-types/entity-types/names/${type}/entities/${id}/links/pages${query}`;

describe('token endpoint', () => {
  let e: GovernanceEmulator;
  beforeAll(async () => {
    e = await startGovernanceEmulator({ tokenTtlSeconds: 0.4 });
  });
  afterAll(() => e.close());

  it('issues a bearer token for a multipart form, with the platform fields', async () => {
    const form = new FormData();
    form.set('grant_type', 'client_credentials');
    form.set('client_id', 'gateway');
    form.set('client_secret', 'gateway-secret');
    const res = await fetch(e.tokenUrl, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    const body = (await res.json()) as TokenResponse;
    expect(body.token_type).toBe('bearer');
    expect(body.access_token.length).toBeGreaterThan(20);
    expect(body['ot-scopes']).toBe('AI_GOVERNANCE');
    expect(body.tenantGuid).toBe(seed.tenantGuid);
    expect(body.email).toBe(`${seed.tenantGuid.replace(/-/g, '')}@api.onetrust.com`);
    expect(typeof body.expires_in).toBe('number');
  });

  it('accepts url-encoded forms and HTTP Basic client credentials', async () => {
    const encoded = await fetch(e.tokenUrl, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'reader',
        client_secret: 'reader-secret',
      }),
    });
    expect(((await encoded.json()) as TokenResponse)['ot-scopes']).toBe('AI_GOVERNANCE_READ');
    const basic = await fetch(e.tokenUrl, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('writer:writer-secret').toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(basic.status).toBe(200);
    expect(((await basic.json()) as TokenResponse)['ot-scopes']).toBe('AI_GOVERNANCE_WRITE');
  });

  it('rejects a bad grant with 400 and a bad secret with 401', async () => {
    const grant = await fetch(e.tokenUrl, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', client_id: 'gateway', client_secret: 'gateway-secret' }),
    });
    expect(grant.status).toBe(400);
    expect(await grant.json()).toMatchObject({ error: 'unsupported_grant_type' });
    const secret = await fetch(e.tokenUrl, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'gateway', client_secret: 'nope' }),
    });
    expect(secret.status).toBe(401);
    const body = (await secret.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_client');
    expect(JSON.stringify(body)).not.toContain('nope');
  });

  it('expires tokens after tokenTtlSeconds', async () => {
    const token = await tokenFor(e);
    const get = caller(e, () => token);
    expect((await get('GET', `/entity-types/${typeId('models')}`)).status).toBe(200);
    // The emulator runs in this process: its clock moves past the 0.4 s lifetime at once (only Date
    // is faked; timers stay real).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 450, shouldAdvanceTime: true });
    let expired: Awaited<ReturnType<typeof get>>;
    try {
      expired = await get('GET', `/entity-types/${typeId('models')}`);
    } finally {
      vi.useRealTimers();
    }
    expect(expired.status).toBe(401);
    expect(code(expired)).toBe('UNAUTHORIZED');
  });
});

describe('scopes', () => {
  let ctx: Awaited<ReturnType<typeof started>>;
  beforeAll(async () => {
    ctx = await started();
  });
  afterAll(() => ctx.e.close());
  const model = live('models')[0]!;
  const system = live('aisystems')[0]!;

  it('answers 401 without a token, with a made-up token, and with the token in the query', async () => {
    const none = await caller(ctx.e, () => undefined)('GET', `/entities/${model.id}`);
    expect(none.status).toBe(401);
    expect((none.body as ErrorBody).traceId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await caller(ctx.e, () => 'forged')('GET', `/entities/${model.id}`)).status).toBe(401);
    const query = await fetch(
      `${ctx.e.apiRoot}/entities/${model.id}?Authorization=${encodeURIComponent(`Bearer ${ctx.tokens.full}`)}`,
    );
    expect(query.status).toBe(401);
  });

  it('follows the scope table: reads for all three, writes without READ, deletes with the full scope only', async () => {
    expect((await ctx.as('read')('GET', `/entities/${model.id}`)).status).toBe(200);
    expect((await ctx.as('write')('GET', `/entities/${model.id}`)).status).toBe(200);
    expect((await ctx.as('write')('POST', '/entity-types/search', {})).status).toBe(200);
    const create = await ctx.as('read')('POST', '/entities?entityTypeName=models', {
      name: 'x',
      organization: { id: seed.organizations[0]!.id },
    });
    expect(create.status).toBe(403);
    expect(code(create)).toBe('FORBIDDEN');
    const del = await ctx.as('write')('DELETE', `/entities/${model.id}`);
    expect(del.status).toBe(403);
    expect((await ctx.as('write')('DELETE', `/links/${RANDOM_UUID}?linkTypeId=${seed.linkTypes[0]!.id}`)).status).toBe(
      403,
    );
    expect(
      (await ctx.as('read')('POST', `/schema-attributes?schemaName=models`, { name: 'a', responseType: 'Text' }))
        .status,
    ).toBe(403);
  });

  it('lets READ but not WRITE list related entities (the links/pages quirk)', async () => {
    expect((await ctx.as('read')('POST', relatedPath('aisystems', system.id), { fullText: '' })).status).toBe(200);
    expect((await ctx.as('write')('POST', relatedPath('aisystems', system.id), { fullText: '' })).status).toBe(403);
  });
});

describe('reads, paging, sort and search', () => {
  let ctx: Awaited<ReturnType<typeof started>>;
  let api: ReturnType<typeof caller>;
  beforeAll(async () => {
    ctx = await started();
    api = ctx.as('full');
  });
  afterAll(() => ctx.e.close());

  it('seeds enough records of every kind', () => {
    expect(live('models').length).toBeGreaterThanOrEqual(75);
    expect(live('datasets').length).toBeGreaterThanOrEqual(40);
    expect(live('aisystems').length).toBeGreaterThanOrEqual(60);
    expect(live('aiagents').length).toBeGreaterThanOrEqual(25);
    expect(live('vendors').length).toBe(12);
    for (const type of ['models', 'datasets', 'aisystems', 'aiagents']) {
      const numbers = seed.entities.filter((e) => e.typeName === type).map((e) => e.number);
      expect(numbers[0]).toBe(1);
      expect(numbers.at(-1)!).toBeGreaterThan(numbers.length); // gaps
    }
    expect(buildSeed().entities.map((e) => e.id)).toEqual(seed.entities.map((e) => e.id));
  });

  it('reads one entity in the platform shape', async () => {
    const dataset = live('datasets').find((d) => Object.keys(d.options).length > 0)!;
    const r = await api<EntityInformation>('GET', `/entities/${dataset.id}?entityTypeName=datasets`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: dataset.id,
      number: dataset.number,
      name: dataset.name,
      workflowAndStage: null,
      entityType: { name: 'datasets', moduleName: 'AIGovernance', seeded: true },
    });
    const [field, values] = Object.entries(dataset.options)[0]!;
    expect(r.body.entityDetail.extendedBaseAttributes?.[field]?.[0]).toMatchObject({
      id: values[0]!.id,
      value: values[0]!.value,
      disabled: false,
    });
    expect(r.body.auditFields.createdBy).toHaveProperty('initials');
    const model = await api<EntityInformation>('GET', `/entities/${live('models')[0]!.id}`);
    expect(model.body.workflowAndStage).toMatchObject({ type: typeId('models'), stageName: expect.any(String) });
  });

  it('answers unknown ids with 400 ERROR_ONETRUST_ENTITY_NOT_FOUND and bad ids with 400 INVALID_REQUEST', async () => {
    for (const path of [
      `/entities/${RANDOM_UUID}`,
      `/entity-types/${RANDOM_UUID}`,
      `/links/${RANDOM_UUID}?linkTypeId=${seed.linkTypes[0]!.id}`,
      `/entities/${live('vendors')[0]!.id}`,
    ]) {
      const r = await api('GET', path);
      expect(r.status, path).toBe(400);
      expect(code(r)).toBe('ERROR_ONETRUST_ENTITY_NOT_FOUND');
    }
    expect(code(await api('GET', `/entities/${live('models')[0]!.id}?entityTypeName=datasets`))).toBe(
      'ERROR_ONETRUST_ENTITY_NOT_FOUND',
    );
    expect(code(await api('GET', '/entities/not-a-uuid'))).toBe('INVALID_REQUEST');
    expect(code(await api('GET', `/links/${RANDOM_UUID}`))).toBe('INVALID_REQUEST');
  });

  it('pages with size 1..50, zero-based pages and Spring page envelopes', async () => {
    for (const size of [0, 51]) {
      const r = await api<ErrorBody>('POST', `/entities/search?entityTypeName=models&size=${size}`, {});
      expect(r.status).toBe(400);
      expect(r.body.errors[0]).toMatchObject({ code: 'INVALID_REQUEST', title: 'Bad Request' });
    }
    expect((await api('POST', '/entities/search?page=-1', {})).status).toBe(400);
    const models = live('models');
    const first = await api<SpringPage<EntityInformation>>(
      'POST',
      '/entities/search?entityTypeName=models&size=50',
      {},
    );
    const second = await api<SpringPage<EntityInformation>>(
      'POST',
      '/entities/search?entityTypeName=models&size=50&page=1',
      {},
    );
    expect(first.body).toMatchObject({
      totalElements: models.length,
      totalPages: 2,
      size: 50,
      number: 0,
      first: true,
      last: false,
      numberOfElements: 50,
      empty: false,
    });
    expect(first.body.pageable).toMatchObject({ pageNumber: 0, pageSize: 50, offset: 0, paged: true, unpaged: false });
    expect(second.body).toMatchObject({ number: 1, first: false, last: true, numberOfElements: models.length - 50 });
    const ids = [...first.body.content, ...second.body.content].map((m) => m.id);
    expect(new Set(ids)).toEqual(new Set(models.map((m) => m.id)));
    const beyond = await api<SpringPage<EntityInformation>>(
      'POST',
      '/entities/search?entityTypeName=models&size=50&page=7',
      {},
    );
    expect(beyond.body).toMatchObject({ content: [], totalElements: models.length, empty: true, numberOfElements: 0 });
    const defaults = await api<SpringPage<EntityInformation>>('POST', '/entities/search', {});
    expect(defaults.body.size).toBe(20);
    const allAi = ['models', 'datasets', 'aisystems', 'aiagents'].reduce((n, t) => n + live(t).length, 0);
    expect(defaults.body.totalElements).toBe(allAi);
  });

  it('sorts by name case-insensitively with ties broken by id, and rejects other sorts', async () => {
    const expected = live('datasets')
      .map((d) => ({ id: d.id, key: d.name.toLowerCase() }))
      .sort((a, b) => (a.key !== b.key ? (a.key < b.key ? -1 : 1) : a.id < b.id ? -1 : 1))
      .map((d) => d.id);
    const asc = await api<SpringPage<EntityInformation>>(
      'POST',
      '/entities/search?entityTypeName=datasets&size=50',
      {},
    );
    expect(asc.body.content.map((d) => d.id)).toEqual(expected);
    const desc = await api<SpringPage<BasicEntity>>('POST', '/entity-basic-details/search?size=50&sort=name,desc', {
      criteria: { filters: [{ field: 'name', operator: 'EQUAL_TO', value: live('aiagents')[0]!.name }] },
    });
    expect(desc.body.content[0]!.name).toBe(live('aiagents')[0]!.name);
    const basicDesc = await api<SpringPage<BasicEntity>>(
      'POST',
      '/entity-basic-details/search?size=50&sort=name,desc',
      {},
    );
    const names = basicDesc.body.content.map((b) => b.name.toLowerCase());
    expect(names).toEqual([...names].sort().reverse());
    expect((await api('POST', '/entities/search?sort=number,asc', {})).status).toBe(400);
  });

  it('searches by fullText, option filters, plain fields and kind', async () => {
    const byText = await api<SpringPage<EntityInformation>>('POST', '/entities/search?entityTypeName=models&size=50', {
      queryRequest: { criteria: { fullText: 'FRAUD' } },
    });
    const expected = live('models').filter((m) => m.name.toLowerCase().includes('fraud'));
    expect(byText.body.totalElements).toBe(expected.length);
    expect(expected.length).toBeGreaterThan(0);

    const sourceOption = seed.entityTypes
      .find((t) => t.name === 'datasets')!
      .attributes.find((a) => a.field === 'source')!.options![0]!;
    const withSource = live('datasets').filter((d) => d.options.source?.some((o) => o.id === sourceOption.id));
    const filtered = await api<SpringPage<EntityInformation>>(
      'POST',
      '/entities/search?entityTypeName=datasets&size=50',
      {
        queryRequest: { criteria: { filters: [{ field: 'source', operator: 'EQUAL_TO', value: [sourceOption.id] }] } },
      },
    );
    expect(filtered.body.content.map((d) => d.id).sort()).toEqual(withSource.map((d) => d.id).sort());

    const org = seed.organizations[1]!.id;
    const inOrg = await api<SpringPage<BasicEntity>>('POST', '/entity-basic-details/search?size=50', {
      criteria: { filters: [{ field: 'orgGroupId', operator: 'EQUAL_TO', value: org }] },
    });
    expect(inOrg.body.content.every((b) => b.orgGroupId === org)).toBe(true);
    expect(inOrg.body.totalElements).toBe(
      seed.entities.filter((e) => !e.deleted && e.typeName !== 'vendors' && e.orgGroupId === org).length,
    );

    const agent = live('aiagents')[3]!;
    const byLabel = await api<SpringPage<BasicEntity>>('POST', '/entity-basic-details/search', {
      criteria: { fullText: `${agent.number} | ${agent.name}` },
    });
    expect(byLabel.body.content[0]).toMatchObject({ id: agent.id, displayLabel: `${agent.number} | ${agent.name}` });
    expect((await api('POST', '/entities/search?entityTypeName=vendors', {})).status).toBe(400);
  });

  it('compares with the other filter operators', async () => {
    const total = async (filters: object[]) =>
      (
        await api<SpringPage<EntityInformation>>('POST', '/entities/search?entityTypeName=models', {
          queryRequest: { criteria: { filters } },
        })
      ).body.totalElements;
    const models = live('models');
    expect(await total([{ field: 'number', operator: 'GREATER_THAN', value: ['40'] }])).toBe(
      models.filter((m) => m.number > 40).length,
    );
    expect(await total([{ field: 'number', operator: 'BETWEEN', value: ['10'], toValue: '20' }])).toBe(
      models.filter((m) => m.number >= 10 && m.number <= 20).length,
    );
    expect(await total([{ field: 'orgGroupId', operator: 'NOT_EQUAL_TO', value: [seed.organizations[0]!.id] }])).toBe(
      models.filter((m) => m.orgGroupId !== seed.organizations[0]!.id).length,
    );
    expect(
      (
        await api('POST', '/entities/search', {
          queryRequest: { criteria: { filters: [{ field: 'name', operator: 'LIKE', value: 'x' }] } },
        })
      ).status,
    ).toBe(400);
  });

  it('scopes searches to the org tree by traversal strategy', async () => {
    // Tree: root → Europe, root → Americas → Research Lab.
    const [root, europe, americas, lab] = [0, 1, 2, 3].map((i) => seed.organizations[i]!);
    if (!root || !europe || !americas || !lab) throw new Error('org tree');
    expect(lab.parentId).toBe(americas.id);
    const count = (orgs: string[]) =>
      seed.entities.filter((e) => !e.deleted && e.typeName !== 'vendors' && orgs.includes(e.orgGroupId)).length;
    const total = async (body: object) =>
      (await api<SpringPage<BasicEntity>>('POST', '/entity-basic-details/search', body)).body.totalElements;
    expect(await total({ requestedOrganizationId: americas.id })).toBe(count([americas.id, lab.id]));
    expect(
      await total({ requestedOrganizationId: lab.id, organizationTraversalStrategy: 'ANCESTORS_AND_DESCENDANTS' }),
    ).toBe(count([lab.id, americas.id, root.id]));
    expect(await total({ requestedOrganizationId: europe.id, organizationTraversalStrategy: 'all' })).toBe(
      count(seed.organizations.map((o) => o.id)),
    );
    expect(
      (await api('POST', '/entity-basic-details/search', { organizationTraversalStrategy: 'SIDEWAYS' })).status,
    ).toBe(400);
  });

  it('reads and searches entity types with module, enabled and seeded filters', async () => {
    const one = await api<EntityTypeInformation>('GET', `/entity-types/${typeId('datasets')}`);
    expect(one.body).toMatchObject({
      name: 'datasets',
      workflowType: null,
      moduleScopes: ['AIG'],
      settings: { enableWorkflow: false },
    });
    const models = await api<EntityTypeInformation>('GET', `/entity-types/${typeId('models')}`);
    expect(models.body).toMatchObject({ workflowType: typeId('models'), settings: { enableWorkflow: true } });
    const search = (body: object) =>
      api<SpringPage<EntityTypeInformation>>('POST', '/entity-types/search', body).then((r) =>
        r.body.content.map((t) => t.name),
      );
    expect(await search({})).toContain('vendors');
    expect(await search({ filters: [{ field: 'moduleScopes.module', operator: 'EQUAL_TO', value: ['AIG'] }] })).toEqual(
      ['aiagents', 'aisystems', 'datasets', 'model-cards', 'models'],
    );
    expect(
      await search({
        filters: [
          { field: 'moduleScopes.module', operator: 'EQUAL_TO', value: ['AIG'] },
          { field: 'seeded', operator: 'EQUAL_TO', value: [true] },
          { field: 'enabled', operator: 'EQUAL_TO', value: [true] },
        ],
      }),
    ).toEqual(['aiagents', 'aisystems', 'datasets', 'models']);
    expect(await search({ fullText: 'data' })).toEqual(expect.arrayContaining(['datasets']));
  });

  it('lists the related entities of an entity in the links page envelope', async () => {
    const busiest = live('aisystems')
      .map((s) => ({ s, n: seed.links.filter((l) => l.entity1Id === s.id || l.entity2Id === s.id).length }))
      .sort((a, b) => b.n - a.n)[0]!;
    const page = await api<LinksPage<RelatedEntityLink>>('POST', relatedPath('aisystems', busiest.s.id), {
      fullText: '',
    });
    expect(page.status).toBe(200);
    expect(page.body).not.toHaveProperty('pageable');
    expect(page.body).toMatchObject({ number: 0, size: 10, totalElements: busiest.n, hasContent: true, first: true });
    const ids = page.body.content.map((l) => l.id);
    expect(ids).toEqual([...ids].sort().reverse());
    const item = page.body.content[0]!;
    const link = seed.links.find((l) => l.id === item.id)!;
    expect(item.relationshipTypeDetail.id).toBe(link.linkTypeId);
    expect([item.source.id, item.target.id]).toContain(busiest.s.id);
    expect(item.source.number).toEqual(expect.any(Number));
    expect(item.source.linkEntityDetail).toHaveProperty('displayLabel');
    const asc = await api<LinksPage<RelatedEntityLink>>(
      'POST',
      relatedPath('aisystems', busiest.s.id, '?sort=id,asc&size=2'),
      { fullText: '' },
    );
    expect(asc.body.content.map((l) => l.id)).toEqual([...ids].sort().slice(0, 2));
    expect((await api('POST', relatedPath('aisystems', busiest.s.id, '?sort=name,asc'), {})).status).toBe(400);
    expect((await api('POST', relatedPath('vendors', busiest.s.id), {})).status).toBe(400);
    expect(code(await api('POST', relatedPath('models', busiest.s.id), {}))).toBe('ERROR_ONETRUST_ENTITY_NOT_FOUND');
  });

  it('seeds overlapping links, vendors and links to deleted entities', () => {
    for (const s of live('aisystems')) {
      const n = seed.links.filter((l) => l.entity1Id === s.id || l.entity2Id === s.id).length;
      expect(n).toBeGreaterThanOrEqual(2);
      expect(n).toBeLessThanOrEqual(8);
    }
    const modelUse = new Map<string, number>();
    for (const l of seed.links)
      if (live('models').some((m) => m.id === l.entity2Id))
        modelUse.set(l.entity2Id, (modelUse.get(l.entity2Id) ?? 0) + 1);
    expect(Math.max(...modelUse.values())).toBeGreaterThanOrEqual(5);
    const deletedIds = new Set(seed.entities.filter((e) => e.deleted).map((e) => e.id));
    expect(seed.links.filter((l) => deletedIds.has(l.entity2Id)).length).toBeGreaterThanOrEqual(2);
    expect(seed.links.some((l) => live('vendors').some((v) => v.id === l.entity2Id))).toBe(true);
  });
});

describe('writes', () => {
  let ctx: Awaited<ReturnType<typeof started>>;
  let api: ReturnType<typeof caller>;
  beforeAll(async () => {
    ctx = await started();
    api = ctx.as('full');
  });
  afterAll(() => ctx.e.close());
  const root = seed.organizations[0]!.id;

  it('creates an entity with text and option attributes, numbered after the highest, in Ideation', async () => {
    const typeOption = seed.entityTypes
      .find((t) => t.name === 'models')!
      .attributes.find((a) => a.field === 'taskType')!.options![1]!;
    const r = await ctx.as('write')<EntityInformation>('POST', '/entities?entityTypeName=models', {
      name: 'Fraud Scoring Model v9',
      organization: { id: root },
      attributes: {
        description: [{ value: 'Scores card transactions' }],
        taskType: [{ id: typeOption.id }],
        limitations: [],
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.number).toBe(
      Math.max(...seed.entities.filter((e) => e.typeName === 'models').map((e) => e.number)) + 1,
    );
    expect(r.body.workflowAndStage).toMatchObject({ stageName: 'Ideation', type: typeId('models') });
    expect(r.body.entityDetail.description).toEqual([{ id: null, value: 'Scores card transactions', disabled: false }]);
    expect(r.body.entityDetail.extendedBaseAttributes?.taskType?.[0]).toMatchObject({
      id: typeOption.id,
      value: typeOption.value,
    });
    const read = await api<EntityInformation>('GET', `/entities/${r.body.id}`);
    expect(read.body.name).toBe('Fraud Scoring Model v9');
    const dataset = await api<EntityInformation>('POST', `/entities?entityTypeId=${typeId('datasets')}`, {
      name: 'Customer Churn Dataset 2026',
      organization: { id: root },
    });
    expect(dataset.body.workflowAndStage).toBeNull();
  });

  it('rejects bad creates', async () => {
    expect(code(await api('POST', '/entities?entityTypeName=models', { organization: { id: root } }))).toBe(
      'INVALID_REQUEST',
    );
    expect(
      code(await api('POST', '/entities?entityTypeName=models', { name: 'x'.repeat(256), organization: { id: root } })),
    ).toBe('INVALID_REQUEST');
    expect(code(await api('POST', '/entities?entityTypeName=models', { name: 'No org' }))).toBe('INVALID_REQUEST');
    expect(
      code(
        await api('POST', '/entities?entityTypeName=models', { name: 'Ghost org', organization: { id: RANDOM_UUID } }),
      ),
    ).toBe('ERROR_ONETRUST_ENTITY_NOT_FOUND');
    expect(code(await api('POST', '/entities', { name: 'No type', organization: { id: root } }))).toBe(
      'INVALID_REQUEST',
    );
    expect(
      code(
        await api('POST', '/entities?entityTypeName=models', {
          name: 'Bad attr',
          organization: { id: root },
          attributes: { colour: [{ value: 'red' }] },
        }),
      ),
    ).toBe('INVALID_REQUEST');
  });

  it('searches show every write at once (the emulator keeps rendered entities between writes)', async () => {
    const search = async () =>
      (await api<SpringPage<EntityInformation>>('POST', '/entities/search?entityTypeName=models&size=50', {})).body
        .content;
    const before = await search();
    const model = before[before.length - 1]!;
    expect((await api('PATCH', `/entities/${model.id}`, { name: 'Aaaa Renamed Model' })).status).toBe(200);
    // The name order follows the rename too (the emulator keeps the sorted records between writes).
    const renamed = await search();
    expect(renamed[0]).toMatchObject({ id: model.id, name: 'Aaaa Renamed Model' });
    const names = renamed.map((e) => e.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    // A stage move changes the record in place, from another route.
    const moved = await api('POST', `/assignments/entities/${model.id}/types/${typeId('models')}/stage`, {
      nextStageName: 'Testing',
    });
    expect(moved.status).toBe(200);
    expect((await search()).find((e) => e.id === model.id)!.workflowAndStage?.stageName).toBe('Testing');
  });

  it('searches drop a deleted record at once, and show the seed again after a reset', async () => {
    const own = await started();
    try {
      const call = own.as('full');
      const search = async () =>
        (await call<SpringPage<EntityInformation>>('POST', '/entities/search?entityTypeName=datasets&size=50', {})).body
          .content;
      const before = await search();
      const gone = before[1]!;
      expect((await call('DELETE', `/entities/${gone.id}`)).status).toBe(204);
      expect((await search()).map((e) => e.id)).toEqual(before.filter((e) => e.id !== gone.id).map((e) => e.id));
      // A reset goes through no write route; the seed is back all the same.
      own.e.control.reset();
      expect((await search()).map((e) => e.id)).toEqual(before.map((e) => e.id));
    } finally {
      await own.e.close();
    }
  });

  it('a search that ran while a write waited shows the write once it is applied, even if its answer stalls', async () => {
    const search = async () =>
      (await api<SpringPage<EntityInformation>>('POST', '/entities/search?entityTypeName=models&size=50', {})).body
        .content;
    const model = (await search())[1]!;
    ctx.e.control.setLatency({ fixedMs: 150 });
    ctx.e.control.setFaults([{ kind: 'apply-then-stall', method: 'PATCH', delayMs: 3_000, times: 1 }]);
    try {
      // The search is handled during the write's latency, before the write is applied.
      const seen = ctx.e.control.requests().total;
      const during = search();
      await until(() => ctx.e.control.requests().total === seen + 1, 'the search to arrive');
      const write = api('PATCH', `/entities/${model.id}`, { name: 'Aaab Renamed While Searched' }).catch(() => null);
      expect((await during).find((e) => e.id === model.id)!.name).toBe(model.name);
      ctx.e.control.setLatency({});
      await vi.waitFor(
        async () =>
          expect((await api<EntityInformation>('GET', `/entities/${model.id}`)).body.name).not.toBe(model.name),
        { timeout: 2_500, interval: 20 },
      );
      // Applied, its answer still held back: a search shows it already.
      expect((await search()).find((e) => e.id === model.id)!.name).toBe('Aaab Renamed While Searched');
      void write;
    } finally {
      ctx.e.control.setLatency({});
      ctx.e.control.clearFaults();
    }
  });

  it('under latency, a search (a POST that only reads) is handled as it arrives, a write at the end of its latency', async () => {
    const search = async () =>
      (await api<SpringPage<EntityInformation>>('POST', '/entities/search?entityTypeName=models&size=50', {})).body
        .content;
    const model = (await search())[2]!;
    const seen = ctx.e.control.requests().total;
    ctx.e.control.setLatency({ fixedMs: 1_000 });
    try {
      const write = api<EntityInformation>('PATCH', `/entities/${model.id}`, { name: 'Aaac Renamed Later' });
      await vi.waitFor(() => expect(ctx.e.control.requests().total).toBe(seen + 1), { interval: 5 });
      const during = search();
      await vi.waitFor(() => expect(ctx.e.control.requests().total).toBe(seen + 2), { interval: 5 });
      ctx.e.control.setLatency({});
      expect((await during).find((e) => e.id === model.id)!.name).toBe(model.name);
      expect((await write).body.name).toBe('Aaac Renamed Later');
      expect((await search()).find((e) => e.id === model.id)!.name).toBe('Aaac Renamed Later');
    } finally {
      ctx.e.control.setLatency({});
    }
  });

  it('patches only the fields given', async () => {
    const target = live('datasets')[5]!;
    const before = await api<EntityInformation>('GET', `/entities/${target.id}`);
    const r = await api<EntityInformation>('PATCH', `/entities/${target.id}?entityTypeName=datasets`, {
      attributes: { datasetVersion: [{ value: '42' }] },
    });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe(target.name);
    expect(r.body.orgGroupId).toBe(target.orgGroupId);
    expect(r.body.entityDetail.datasetVersion).toEqual([{ id: null, value: '42', disabled: false }]);
    expect(r.body.entityDetail.extendedBaseAttributes).toEqual(before.body.entityDetail.extendedBaseAttributes);
    expect(r.body.auditFields.lastUpdatedDate > before.body.auditFields.lastUpdatedDate).toBe(true);
    const renamed = await api<EntityInformation>('PATCH', `/entities/${target.id}`, {
      name: 'Renamed Dataset',
      organization: { id: seed.organizations[2]!.id },
    });
    expect(renamed.body).toMatchObject({ name: 'Renamed Dataset', orgGroupId: seed.organizations[2]!.id });
    expect(renamed.body.entityDetail.datasetVersion).toEqual([{ id: null, value: '42', disabled: false }]);
  });

  it('moves an entity between workflow stages and rejects unknown stages and wrong types', async () => {
    const model = live('models')[2]!;
    const r = await api<WorkflowStageInformation>(
      'POST',
      `/assignments/entities/${model.id}/types/${typeId('models')}/stage`,
      { nextStageName: 'Testing', parameters: { executeRule: true } },
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'Testing', sequence: 3 });
    expect(Array.isArray(r.body)).toBe(false);
    expect((await api<EntityInformation>('GET', `/entities/${model.id}`)).body.workflowAndStage).toMatchObject({
      stageName: 'Testing',
      stageId: r.body.id,
    });
    expect(
      code(
        await api('POST', `/assignments/entities/${model.id}/types/${typeId('models')}/stage`, {
          nextStageName: 'Shipped',
        }),
      ),
    ).toBe('INVALID_REQUEST');
    expect(
      code(
        await api('POST', `/assignments/entities/${model.id}/types/${typeId('aisystems')}/stage`, {
          nextStageName: 'Testing',
        }),
      ),
    ).toBe('INVALID_REQUEST');
    expect(
      code(
        await api('POST', `/assignments/entities/${live('datasets')[0]!.id}/types/${typeId('datasets')}/stage`, {
          nextStageName: 'Testing',
        }),
      ),
    ).toBe('INVALID_REQUEST');
    expect(
      code(
        await api('POST', `/assignments/entities/${RANDOM_UUID}/types/${typeId('models')}/stage`, {
          nextStageName: 'Testing',
        }),
      ),
    ).toBe('ERROR_ONETRUST_ENTITY_NOT_FOUND');
  });

  it('creates, reads and deletes a link; duplicates and a wrong link type are rejected', async () => {
    const composition = seed.linkTypes.find((t) => t.name === 'ai-system-composition')!;
    const system = live('aisystems')[10]!;
    const linked = new Set(seed.links.filter((l) => l.entity1Id === system.id).map((l) => l.entity2Id));
    const model = live('models').find((m) => !linked.has(m.id))!;
    const body = {
      entity1: { id: system.id, entityType: { name: 'aisystems' } },
      entity2: { id: model.id, entityType: { name: 'models' } },
      attributes: null,
      context: null,
    };
    expect((await api('POST', '/links', body)).status).toBe(400);
    const created = await ctx.as('write')<LinkInformation>('POST', `/links?linkTypeId=${composition.id}`, body);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      linkType: { id: composition.id, name: 'ai-system-composition' },
      linkTypeLabel: { entityType1ToEntityType2EntityLinkName: 'is composed of' },
    });
    expect(created.body.entity1).toMatchObject({ id: system.id, number: null, deleted: false, linkEntityDetail: null });
    expect(code(await api('POST', `/links?linkTypeId=${composition.id}`, body))).toBe('INVALID_REQUEST');
    const training = seed.linkTypes.find((t) => t.name === 'model-training-data')!;
    expect((await api('POST', `/links?linkTypeId=${training.id}`, body)).status).toBe(400);

    const got = await api<LinkInformation>('GET', `/links/${created.body.id}?linkTypeId=${composition.id}`);
    expect(got.body.id).toBe(created.body.id);
    expect(code(await api('GET', `/links/${created.body.id}?linkTypeId=${training.id}`))).toBe(
      'ERROR_ONETRUST_ENTITY_NOT_FOUND',
    );
    const related = await api<LinksPage<RelatedEntityLink>>('POST', relatedPath('models', model.id, '?size=50'), {
      fullText: system.name,
    });
    expect(related.body.content.map((l) => l.id)).toContain(created.body.id);

    const deleted = await fetch(`${ctx.e.apiRoot}/links/${created.body.id}?linkTypeId=${composition.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ctx.tokens.full}` },
    });
    expect(deleted.status).toBe(200);
    expect(await deleted.text()).toBe('');
    expect(code(await api('GET', `/links/${created.body.id}?linkTypeId=${composition.id}`))).toBe(
      'ERROR_ONETRUST_ENTITY_NOT_FOUND',
    );
  });

  it('deletes an entity with 204; it then reads as not found and its links show the end as deleted', async () => {
    const model = live('models').find((m) =>
      seed.links.some((l) => l.entity2Id === m.id && live('aisystems').some((s) => s.id === l.entity1Id)),
    )!;
    const system = seed.links.find(
      (l) => l.entity2Id === model.id && live('aisystems').some((s) => s.id === l.entity1Id),
    )!.entity1Id;
    const r = await api('DELETE', `/entities/${model.id}?entityTypeName=models`);
    expect(r.status).toBe(204);
    expect(r.body).toBeUndefined();
    expect(code(await api('GET', `/entities/${model.id}`))).toBe('ERROR_ONETRUST_ENTITY_NOT_FOUND');
    expect(code(await api('DELETE', `/entities/${model.id}`))).toBe('ERROR_ONETRUST_ENTITY_NOT_FOUND');
    const page = await api<LinksPage<RelatedEntityLink>>('POST', relatedPath('aisystems', system, '?size=50'), {
      fullText: '',
    });
    expect(page.body.content.find((l) => l.target.id === model.id)?.target.deleted).toBe(true);
  });

  it('adds a schema attribute with generated field name and sorted options, then more options', async () => {
    const r = await api<AttributeInformation>('POST', '/schema-attributes?schemaName=datasets', {
      name: 'Data Residency',
      description: 'Where the data lives',
      responseType: 'SingleSelect',
      required: false,
      encrypted: false,
      optionType: 'none',
      options: [{ option: 'USA' }, { option: 'Germany' }, { option: 'India' }],
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: 'Data Residency',
      schemaName: 'datasets',
      enabled: true,
      optionAllowed: true,
      mappedFieldName: null,
    });
    expect(r.body.fieldName).toMatch(/^attributeSingleSelectValue\.value\d+_\d+$/);
    expect(r.body.options!.map((o) => o.option)).toEqual(['Germany', 'India', 'USA']);
    expect(
      code(
        await api('POST', '/schema-attributes?schemaName=datasets', { name: 'data residency', responseType: 'Text' }),
      ),
    ).toBe('INVALID_REQUEST');
    expect(
      code(await api('POST', '/schema-attributes?schemaName=datasets', { name: 'Bad', responseType: 'Checkbox' })),
    ).toBe('INVALID_REQUEST');
    const text = await api<AttributeInformation>('POST', '/schema-attributes?schemaName=datasets', {
      name: 'Steward Notes',
      responseType: 'Text',
    });
    expect(text.body).toMatchObject({
      responseType: 'Text',
      responseMaxLength: 1000,
      mappedFieldName: 'attributeTextValue.value1',
    });
    expect(text.body).not.toHaveProperty('options');

    const more = await api<AttributeInformation>('POST', `/schema-attribute-options?attributeId=${r.body.id}`, [
      { option: 'Brazil' },
      { option: 'Japan', optionKey: 'Custom.Japan' },
    ]);
    expect(more.status).toBe(200);
    expect(more.body.options!.map((o) => o.option)).toEqual(['Brazil', 'Germany', 'India', 'Japan', 'USA']);
    expect(more.body.options!.find((o) => o.option === 'Japan')?.optionKey).toBe('Custom.Japan');
    expect(code(await api('POST', `/schema-attribute-options?attributeId=${RANDOM_UUID}`, [{ option: 'x' }]))).toBe(
      'ERROR_ONETRUST_ENTITY_NOT_FOUND',
    );
    expect(code(await api('POST', `/schema-attribute-options?attributeId=${r.body.id}`, [{ option: 'usa' }]))).toBe(
      'INVALID_REQUEST',
    );

    const created = await api<EntityInformation>('POST', '/entities?entityTypeName=datasets', {
      name: 'EU Claims Dataset',
      organization: { id: root },
      attributes: { 'Data Residency': [{ value: 'Germany' }] },
    });
    expect(created.body.attributes[r.body.fieldName]?.[0]).toMatchObject({ value: 'Germany' });
  });

  it('restores the seed on control.reset()', async () => {
    const removed = live('aiagents')[0]!;
    expect((await api('DELETE', `/entities/${removed.id}`)).status).toBe(204);
    ctx.e.control.reset();
    expect((await api<EntityInformation>('GET', `/entities/${removed.id}`)).status).toBe(200);
    const page = await api<SpringPage<EntityInformation>>('POST', '/entities/search?entityTypeName=models&size=1', {});
    expect(page.body.totalElements).toBe(live('models').length);
    expect(ctx.e.control.requests().total).toBe(2);
  });
});

/** Just after a window boundary of the emulator's clock windows, so a burst of requests lands in one window. */
const alignTo = (windowMs: number) => untilNextWindow(windowMs);

describe('account rate limits', () => {
  const emulators: GovernanceEmulator[] = [];
  afterAll(() => Promise.all(emulators.map((e) => e.close())));
  const start = async (options: GovernanceEmulatorOptions) => {
    const e = await startGovernanceEmulator(options);
    emulators.push(e);
    return e;
  };

  it('blocks the whole account after the minute rule until the window ends, counting every request', async () => {
    const e = await start({ rateLimits: { minute: 5 }, windows: { minuteMs: 1500 } });
    await alignTo(1500);
    const token = await tokenFor(e); // request 1, the token endpoint counts too
    const get = caller(e, () => token);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await get('GET', `/entity-types/${typeId('models')}`)).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    const limited = await get('GET', `/entity-types/${typeId('models')}`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('svc-period')).toBe('MINUTE');
    expect(limited.headers.get('svc-requests-allowed')).toBe('5');
    expect(limited.headers.get('svc-request-made')).toBe('6');
    expect(limited.headers.get('svc-ratelimit-event-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(limited.headers.get('ot-period')).toBeNull();
    const retryAfter = Number(limited.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);
    // Every request of the account is blocked, other routes and the token endpoint included.
    const other = await get('POST', '/entity-types/search', {});
    expect(other.status).toBe(429);
    expect(other.headers.get('svc-request-made')).toBe('7');
    expect(other.headers.get('svc-ratelimit-event-id')).toBe(limited.headers.get('svc-ratelimit-event-id'));
    const tokenRes = await fetch(e.tokenUrl, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'gateway',
        client_secret: 'gateway-secret',
      }),
    });
    expect(tokenRes.status).toBe(429);
    expect(e.control.requests().requests.filter((r) => r.status === 429)).toHaveLength(3);
    await alignTo(1500);
    expect((await get('GET', `/entity-types/${typeId('models')}`)).status).toBe(200);
  });

  it('blocks for the rest of the hour window in production and for two minutes in sandbox', async () => {
    const production = await start({
      rateLimits: { hour: 3, minute: 1000 },
      windows: { minuteMs: 1000, hourMs: 60_000 },
      headerPrefix: 'ot',
    });
    const sandbox = await start({
      rateProfile: 'sandbox',
      rateLimits: { hour: 3 },
      windows: { minuteMs: 1000, hourMs: 60_000 },
      headerPrefix: 'both',
    });
    // Keep the burst inside one (shrunk) hour window.
    if (60_000 - (Date.now() % 60_000) < 3000) await alignTo(60_000);
    const hit = async (e: GovernanceEmulator) => {
      let last: Response | undefined;
      for (let i = 0; i < 4; i++) last = await fetch(`${e.apiRoot}/entity-types/${typeId('models')}`);
      return last!;
    };
    const prod = await hit(production);
    expect(prod.status).toBe(429);
    expect(prod.headers.get('ot-period')).toBe('HOUR');
    expect(prod.headers.get('ot-requests-allowed')).toBe('3');
    expect(prod.headers.get('ot-request-made')).toBe('4');
    expect(prod.headers.get('svc-period')).toBeNull();
    const untilHourEnd = Math.ceil((60_000 - (Date.now() % 60_000)) / 1000);
    expect(Math.abs(Number(prod.headers.get('Retry-After')) - untilHourEnd)).toBeLessThanOrEqual(1);

    const sand = await hit(sandbox);
    expect(sand.status).toBe(429);
    expect(sand.headers.get('Retry-After')).toBe('2');
    expect(sand.headers.get('svc-period')).toBe('HOUR');
    expect(sand.headers.get('ot-period')).toBe('HOUR');
    expect(sand.headers.get('ot-requests-allowed')).toBe('3');
    // The sandbox minute rule default is 5,000: the 429 came from the hour rule.
    expect(sandbox.control.requests().total).toBe(4);
  });

  it('counts requests answered by an injected fault', async () => {
    const e = await start({
      rateLimits: { minute: 3 },
      windows: { minuteMs: 2000 },
      faults: [{ kind: 'status', status: 502, times: 2 }],
    });
    await alignTo(2000);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await fetch(`${e.apiRoot}/entity-types/${typeId('models')}`)).status);
    expect(statuses).toEqual([502, 502, 401, 429]);
    expect(e.control.requests().requests.map((r) => r.status)).toEqual([502, 502, 401, 429]);
  });

  it('optionally limits each endpoint per minute without blocking the others', async () => {
    const e = await start({ rateLimits: { perEndpointMinute: 2 }, windows: { minuteMs: 2000 }, headerPrefix: 'ot' });
    await alignTo(2000);
    const token = await tokenFor(e);
    const get = caller(e, () => token);
    const models = `/entity-types/${typeId('models')}`;
    expect((await get('GET', models)).status).toBe(200);
    expect((await get('GET', `/entity-types/${typeId('datasets')}`)).status).toBe(200);
    const third = await get('GET', models);
    expect(third.status).toBe(429);
    expect(third.headers.get('ot-requests-allowed')).toBe('2');
    expect(third.headers.get('ot-request-made')).toBe('3');
    expect((await get('POST', '/entity-types/search', {})).status).toBe(200);
  });
});

describe('request log and faults', () => {
  let ctx: Awaited<ReturnType<typeof started>>;
  beforeAll(async () => {
    ctx = await started({ controlRoutes: true });
  });
  afterAll(() => ctx.e.close());

  it('logs every request with its route pattern and status', async () => {
    ctx.e.control.clearRequests();
    const api = ctx.as('full');
    const model = live('models')[0]!;
    await api('GET', `/entities/${model.id}`);
    await api('GET', `/entities/${live('models')[1]!.id}`);
    await api('POST', '/entities/search', {});
    await caller(ctx.e, () => undefined)('GET', `/entities/${model.id}`);
    const log = ctx.e.control.requests();
    expect(log.total).toBe(4);
    expect(log.byRoute['GET /entities/:entityId']).toBe(3);
    expect(log.byRoute['POST /entities/search']).toBe(1);
    expect(log.requests.map((r) => r.status)).toEqual([200, 200, 200, 401]);
    expect(log.requests[0]!.path).toBe(`/entities/${model.id}`);
    const overHttp = await fetch(`${ctx.e.origin}/_emulator/requests`);
    expect(((await overHttp.json()) as { total: number }).total).toBe(4);
  });

  it('injects faults in the platform error shape, then recovers', async () => {
    ctx.e.control.setFaults([
      { kind: 'status', status: 503, times: 1, pathPrefix: '/entities' },
      { kind: 'rate-limit', retryAfter: 3, times: 1, pathPrefix: '/entity-types' },
    ]);
    const api = ctx.as('full');
    const failed = await api<ErrorBody>('POST', '/entities/search', {});
    expect(failed.status).toBe(503);
    expect(failed.body.errors[0]!.title).toBe('Service Unavailable');
    expect((await api('POST', '/entities/search', {})).status).toBe(200);
    const limited = await api('POST', '/entity-types/search', {});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toBe('3');
    expect(limited.headers.get('svc-period')).toBe('MINUTE');
    expect(ctx.e.control.requests().requests.at(-1)!.fault).toBe('rate-limit');
    ctx.e.control.clearFaults();
  });
});
