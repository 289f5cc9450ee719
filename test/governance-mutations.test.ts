/**
 * The governance graph's writes against the emulator: each contract mutation, what a later read
 * sees (the shared cache and the request's loaders must not hide a write), and the upstream's
 * refusals (unknown ids, unknown stages, types without a workflow) as typed errors.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { apiCalls } from './support/governance.js';
import { operation as op } from './support/operations.js';
import { startStack, type Stack } from './support/stack.js';
import { databaseIdOf, globalId } from './support/global-ids.js';

type Any = any;

let stack: Stack;
let organizationId: string;
let system: { id: string; name: string };

async function data(query: string, variables?: Record<string, unknown>): Promise<Any> {
  const res = await stack.query<Any>(query, variables);
  expect(res.errors).toBeUndefined();
  return res.data;
}

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  stack = await startStack();
  const d = await data('{ entities(kind: AI_SYSTEM, first: 1) { nodes { id name organizationId } } }');
  ({ organizationId } = d.entities.nodes[0]);
  system = d.entities.nodes[0];
});

describe('entities', () => {
  it('CreateDataset creates a record that reads and searches show at once', async () => {
    const name = `Graph dataset ${Date.now()}`;
    // Warm the shared cache with a search that does not find it yet.
    expect((await data(op('EntitySearch'), { text: name })).entities.totalCount).toBe(0);
    const created = (await data(op('CreateDataset'), { organizationId, name })).createEntity;
    expect(created).toMatchObject({ name, kind: 'DATASET' });
    expect(created.attributes).toContainEqual({
      name: 'description',
      values: [{ value: "written by the gateway's tests" }],
    });
    const found = await data(op('EntitySearch'), { text: name });
    expect(found.entities.nodes.map((n: Any) => n.id)).toEqual([created.id]);
    const read = await data('query($id: ID!) { entity(id: $id) { id workflowStage { name } type { name } } }', {
      id: created.id,
    });
    expect(read.entity).toEqual({ id: created.id, workflowStage: null, type: { name: 'datasets' } });
  });

  it('RenameEntity changes the name that later reads show, and an unknown id is NOT_FOUND', async () => {
    const { id } = (await data(op('CreateDataset'), { organizationId, name: 'Before rename' })).createEntity;
    await data(op('EntityById'), { id }); // cached now
    const renamed = (await data(op('RenameEntity'), { id, name: 'After rename' })).updateEntity;
    expect(renamed).toMatchObject({ id, name: 'After rename' });
    expect((await data(op('EntityById'), { id })).entity.name).toBe('After rename');
    // The write and a read of it in one operation: the loader holds the written record.
    const both = await data(
      'mutation($id: ID!) { updateEntity(id: $id, input: { attributes: [{ name: "datasetVersion", values: [{ value: "9.9" }] }] }) { attribute(name: "datasetVersion") { values { value } } } }',
      { id },
    );
    expect(both.updateEntity.attribute.values).toEqual([{ value: '9.9' }]);
    const unknown = await stack.query<Any>(op('RenameEntity'), { id: UNKNOWN, name: 'x' });
    expect(unknown.data?.updateEntity).toBeNull();
    expect(unknown.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', argument: 'id' });
  });

  it('DeleteEntity deletes; the record then reads as null, and deleting again is NOT_FOUND', async () => {
    const { id } = (await data(op('CreateDataset'), { organizationId, name: 'To delete' })).createEntity;
    await data(op('EntityById'), { id });
    expect((await data(op('DeleteEntity'), { id })).deleteEntity).toEqual({ deletedId: id });
    expect((await data(op('EntityById'), { id })).entity).toBeNull();
    const again = await stack.query<Any>(op('DeleteEntity'), { id });
    expect(again.data?.deleteEntity).toBeNull();
    expect(again.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('an upstream refusal is BAD_USER_INPUT naming the argument it concerns, free of URLs', async () => {
    const res = await stack.query<Any>(op('CreateDataset'), { organizationId: UNKNOWN, name: 'Nowhere' });
    expect(res.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      upstream: 'governance',
      upstreamStatus: 400,
      argument: 'input.organizationId',
    });
    expect(res.errors?.[0]?.message).toBe('"input.organizationId" names an organization that does not exist.');
    expect(JSON.stringify(res.errors)).not.toMatch(/http:|127\.0\.0\.1|Bearer/);
  });
});

describe('workflow', () => {
  it('MoveToStage takes the workflow type from the record, returns the stage, and the record shows it', async () => {
    stack.gateway.upstreams.cache.clear();
    stack.clearRequests();
    const moved = (await data(op('MoveToStage'), { entityId: system.id, stage: 'Testing' })).moveEntityToStage;
    const moveCalls = apiCalls(stack);
    expect(moved).toMatchObject({ name: 'Testing', sequence: 3, id: expect.any(String) });
    const type = await data(
      'query($id: ID!) { entity(id: $id) { type { databaseId workflowType } workflowStage { databaseId name workflowType } } }',
      { id: system.id },
    );
    expect(type.entity.workflowStage).toMatchObject({
      databaseId: databaseIdOf(moved.id, 'WorkflowStage'),
      name: 'Testing',
      workflowType: type.entity.type.workflowType,
    });
    // The uuid is read from the record's entity type, not from the label-like `workflowAndStage.type`.
    expect(moveCalls.map((r) => r.path)).toEqual([
      `/entities/${databaseIdOf(system.id)}`,
      `/entity-types/${type.entity.type.databaseId}`,
      `/assignments/entities/${databaseIdOf(system.id)}/types/${type.entity.type.workflowType}/stage`,
    ]);
  });

  it('the record an update returns is primed: a move in the same operation reads no record', async () => {
    stack.clearRequests();
    const d = await data(
      'mutation($id: ID!) { updateEntity(id: $id, input: { name: "Primed system" }) { id } moveEntityToStage(input: { entityId: $id, nextStageName: "Development" }) { name } }',
      { id: system.id },
    );
    expect(d.moveEntityToStage).toEqual({ name: 'Development' });
    // No GET /entities/:entityId; the workflow type comes from the entity type (its own read).
    expect(
      apiCalls(stack)
        .map((r) => r.route)
        .filter((r) => r !== 'GET /entity-types/:entityTypeId'),
    ).toEqual(['PATCH /entities/:entityId', 'POST /assignments/entities/:entityId/types/:type/stage']);
  });

  it('an explicit workflow type is used as given', async () => {
    const t = await data('query($id: ID!) { entity(id: $id) { type { workflowType } } }', { id: system.id });
    const d = await data(
      'mutation($id: ID!, $wt: ID!) { moveEntityToStage(input: { entityId: $id, nextStageName: "Approved", workflowType: $wt }) { name sequence } }',
      { id: system.id, wt: t.entity.type.workflowType },
    );
    expect(d.moveEntityToStage).toEqual({ name: 'Approved', sequence: 4 });
  });

  it('an unknown stage is BAD_USER_INPUT listing the known stages, a record without a workflow is BAD_USER_INPUT, an unknown record is NOT_FOUND', async () => {
    const bad = await stack.query<Any>(op('MoveToStage'), { entityId: system.id, stage: 'Nirvana' });
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'input.nextStageName' });
    // The documented first stage of the models workflow, and the stages seen on records so far.
    expect(bad.errors?.[0]?.message).toMatch(/known stages: .*"/);
    const { id } = (await data(op('CreateDataset'), { organizationId, name: 'No workflow' })).createEntity;
    const none = await stack.query<Any>(op('MoveToStage'), { entityId: id, stage: 'Testing' });
    expect(none.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'input.entityId' });
    const unknown = await stack.query<Any>(op('MoveToStage'), { entityId: UNKNOWN, stage: 'Testing' });
    expect(unknown.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', argument: 'input.entityId' });
  });
});

describe('links', () => {
  it('LinkEntities links two records, the links list shows it at once, UnlinkEntities removes it', async () => {
    const linksOf = `query($id: ID!) { entity(id: $id) { links(first: 50) { totalCount nodes { id databaseId label direction counterpart { id kind } } } } }`;
    const before = (await data(linksOf, { id: system.id })).entity.links;
    const g = await data(
      '{ entities(kind: AI_SYSTEM, first: 1) { nodes { links(first: 1) { nodes { relationshipType { id name } } } } } }',
    );
    const linkTypeId = g.entities.nodes[0].links.nodes[0].relationshipType.id;
    const { id: datasetId } = (await data(op('CreateDataset'), { organizationId, name: 'Linked dataset' }))
      .createEntity;

    const created = (await data(op('LinkEntities'), { linkTypeId, from: system.id, to: datasetId })).createLink;
    expect(databaseIdOf(created.linkType.id, 'GovernanceLinkType')).toBe(databaseIdOf(linkTypeId, 'RelationshipType'));
    expect(created).toMatchObject({
      entity1: { id: system.id },
      entity2: { id: datasetId, name: 'Linked dataset' },
    });

    // Each end lists the link under an id of its own, seen from that end; the uuid is the same.
    const key = databaseIdOf(created.id, 'GovernanceLink');
    const databaseId = key.split(':')[0];
    const listedBy = (entityId: string) => globalId('GovernanceLink', `${key}:${databaseIdOf(entityId, 'Entity')}`);
    const after = (await data(linksOf, { id: system.id })).entity.links;
    expect(after.totalCount).toBe(before.totalCount + 1);
    expect(after.nodes).toContainEqual({
      id: listedBy(system.id),
      databaseId,
      label: 'is composed of',
      direction: 'OUTGOING',
      counterpart: { id: datasetId, kind: 'DATASET' },
    });
    const fromDataset = (await data(linksOf, { id: datasetId })).entity.links.nodes;
    expect(fromDataset).toEqual([
      {
        id: listedBy(datasetId),
        databaseId,
        label: 'is a component of',
        direction: 'INCOMING',
        counterpart: { id: system.id, kind: 'AI_SYSTEM' },
      },
    ]);

    const link = await data(op('LinkById'), { id: created.id, linkTypeId });
    expect(link.link).toMatchObject({ forwardLabel: 'is composed of', reverseLabel: 'is a component of' });
    // Unlinked by the id a list gave it, the answer names that id, so a cache drops the listed link.
    expect((await data(op('UnlinkEntities'), { id: fromDataset[0].id, linkTypeId })).deleteLink).toEqual({
      deletedId: fromDataset[0].id,
    });
    expect((await data(op('LinkById'), { id: created.id, linkTypeId })).link).toBeNull();
    expect((await data(linksOf, { id: system.id })).entity.links.totalCount).toBe(before.totalCount);
    const again = await stack.query<Any>(op('UnlinkEntities'), { id: created.id, linkTypeId });
    expect(again.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', argument: 'id' });
  });

  it('a vendor end has no kind and no entity, and links to unknown records are refused', async () => {
    const d = await data(
      '{ entities(kind: AI_SYSTEM, first: 10) { nodes { links(first: 10) { nodes { counterpart { typeName kind entity { id } } } } } } }',
    );
    const ends = d.entities.nodes.flatMap((n: Any) => n.links.nodes.map((l: Any) => l.counterpart));
    const vendor = ends.find((c: Any) => c.typeName === 'vendors');
    expect(vendor).toEqual({ typeName: 'vendors', kind: null, entity: null });
    const res = await stack.query<Any>(op('LinkEntities'), { linkTypeId: UNKNOWN, from: system.id, to: UNKNOWN });
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

/** A model-to-vendor link of the seed (its link type and vendor), and a model not linked to that vendor yet. */
async function modelAndVendor(): Promise<{ sourced: Any; model: Any }> {
  const d = await data(
    '{ entities(kind: MODEL, first: 30) { nodes { id links(first: 5) { nodes { relationshipType { id } counterpart { id typeName } } } } } }',
  );
  const models: Any[] = d.entities.nodes;
  const sourced = models.flatMap((m) => m.links.nodes).find((l: Any) => l.counterpart.typeName === 'vendors');
  expect(sourced).toBeDefined();
  const model = models.find((m) => !m.links.nodes.some((l: Any) => l.counterpart.id === sourced.counterpart.id))!;
  return { sourced, model };
}

describe('links to records of other kinds', () => {
  it('links a model to a vendor given by type name, reading no record when both ends say what they are', async () => {
    const { sourced, model } = await modelAndVendor();
    stack.clearRequests();
    const created = await data(
      'mutation($t: ID!, $m: ID!, $v: ID!) { createLink(input: { linkTypeId: $t, entity1: { id: $m, kind: MODEL }, entity2: { id: $v, typeName: "vendors" } }) { id entity2 { typeName kind entity { id } } } }',
      { t: sourced.relationshipType.id, m: model.id, v: sourced.counterpart.id },
    );
    expect(created.createLink.entity2).toEqual({ typeName: 'vendors', kind: null, entity: null });
    expect(apiCalls(stack).map((r) => r.route)).toEqual(['POST /links']);
    expect(
      (await data(op('UnlinkEntities'), { id: created.createLink.id, linkTypeId: sourced.relationshipType.id }))
        .deleteLink,
    ).toEqual({ deletedId: created.createLink.id });
  });
});

describe('one mutation, several writes', () => {
  it("a later field sees an earlier write in the lists it reads again (the request's loaders forget)", async () => {
    const { sourced, model } = await modelAndVendor();
    const res = await data(
      `mutation($t: ID!, $m: ID!, $v: ID!) {
        a: updateEntity(id: $m, input: { name: "Linked model ${Date.now()}" }) { links(first: 50) { totalCount } }
        b: createLink(input: { linkTypeId: $t, entity1: { id: $m, kind: MODEL }, entity2: { id: $v, typeName: "vendors" } }) {
          id entity1 { entity { links(first: 50) { totalCount } } } } }`,
      { t: sourced.relationshipType.id, m: model.id, v: sourced.counterpart.id },
    );
    // The same links page, read again after the link was made: not the copy read before it.
    expect(res.b.entity1.entity.links.totalCount).toBe(res.a.links.totalCount + 1);
    await data(op('UnlinkEntities'), { id: res.b.id, linkTypeId: sourced.relationshipType.id });
  });
});

describe('attributes', () => {
  it('AddSchemaAttribute adds a typed select attribute; AddAttributeOptions adds options to it', async () => {
    const attr = (await data(op('AddSchemaAttribute'), { name: `Region ${Date.now()}` })).addSchemaAttribute;
    expect(attr.responseType).toBe('SINGLE_SELECT');
    expect(attr.options.map((o: Any) => o.option).sort()).toEqual(['EU', 'US']);
    const more = (await data(op('AddAttributeOptions'), { attributeId: attr.id })).addAttributeOptions;
    expect(more).toMatchObject({ id: attr.id, responseType: 'SINGLE_SELECT' });
    expect(more.options).toContainEqual({ option: 'Synthetic', optionKey: 'synthetic' });
    expect(more.options).toHaveLength(3);
    const unknown = await stack.query<Any>(op('AddAttributeOptions'), { attributeId: UNKNOWN });
    expect(unknown.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', argument: 'attributeId' });
  });

  it("the upstream's refusals of attribute writes are BAD_USER_INPUT naming the argument", async () => {
    const name = `Tier ${Date.now()}`;
    const attr = (await data(op('AddSchemaAttribute'), { name })).addSchemaAttribute;
    const refusals = [
      // The same name twice in one schema.
      [op('AddSchemaAttribute'), { name }, /already has an attribute of that name/, 'input.name'],
      // An option the attribute already has (EU is one of AddSchemaAttribute's options).
      [
        'mutation($id: ID!) { addAttributeOptions(attributeId: $id, options: [{ option: "EU" }]) { id } }',
        { id: attr.id },
        /already has an option of that name/,
        'options',
      ],
      // A schema that is not one of the four AI kinds.
      [
        'mutation { addSchemaAttribute(schemaName: "vendors", input: { name: "x", responseType: TEXT }) { id } }',
        {},
        /^"schemaName" names an entity type that does not exist\.$/,
        'schemaName',
      ],
    ] as const;
    for (const [query, variables, message, argument] of refusals) {
      const res = await stack.query<Any>(query, variables);
      expect(res.errors?.[0]?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        upstream: 'governance',
        upstreamStatus: 400,
        argument,
      });
      expect(res.errors?.[0]?.message).toMatch(message);
    }
    const unchanged = (
      await data(
        'mutation($id: ID!) { addAttributeOptions(attributeId: $id, options: [{ option: "APAC" }]) { options { option } } }',
        { id: attr.id },
      )
    ).addAttributeOptions;
    expect(unchanged.options.map((o: Any) => o.option).sort()).toEqual(['APAC', 'EU', 'US']);
  });

  it('a text attribute has no options and a generated field name', async () => {
    const d = await data(
      'mutation { addSchemaAttribute(schemaName: "models", input: { name: "Model card URL", responseType: TEXT, description: "Where the card lives." }) { name responseType fieldName mappedFieldName options { option } schemaName descriptionKey readOnly baseAttribute hidden optionType responseMaxLength referenceCategoryIds createdBy createdAt updatedAt } }',
    );
    const a = d.addSchemaAttribute;
    expect(a).toMatchObject({
      name: 'Model card URL',
      responseType: 'TEXT',
      options: [],
      schemaName: 'models',
      readOnly: false,
      baseAttribute: false,
      hidden: false,
      responseMaxLength: 1000,
      referenceCategoryIds: [],
    });
    expect(a.fieldName).toMatch(/^attribute\w+Value\./);
    expect(a.fieldName.startsWith(a.mappedFieldName)).toBe(true);
    expect(a.optionType.toLowerCase()).toBe('none');
    expect(a.descriptionKey).toEqual(expect.any(String));
    expect(a.createdBy).toEqual(expect.any(String));
    expect(Date.parse(a.createdAt)).toBeLessThanOrEqual(Date.parse(a.updatedAt));
  });
});
