/**
 * The graph's conventions on both upstreams, side by side (docs/api-conventions.md): absence,
 * deletion, dates, enums and orders, the null rule of updates, and discovery for forms.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { calls } from './support/calendar.js';
import { apiCalls } from './support/governance.js';
import { startStack, type Stack } from './support/stack.js';
import { readFileSync } from 'node:fs';
import { buildSeed, EXAMPLE_DISCOVERY_FILE } from '../src/emulators/governance/index.js';

type Any = any;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const stamp = Date.now();

let stack: Stack;
let organizationId: string;

async function data(query: string, variables?: Record<string, unknown>): Promise<Any> {
  const res = await stack.query<Any>(query, variables);
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data;
}

async function createDataset(name: string): Promise<string> {
  const d = await data(
    'mutation($o: ID!, $n: String!) { createEntity(input: { kind: DATASET, name: $n, organizationId: $o }) { id } }',
    { o: organizationId, n: name },
  );
  return d.createEntity.id;
}

async function createEvent(title: string): Promise<string> {
  const d = await data(
    'mutation($t: String!) { createEvent(input: { title: $t, startDate: "2027-05-01 10:00:00", endDate: "2027-05-01 11:00:00" }) { id } }',
    { t: title },
  );
  return d.createEvent.id;
}

beforeAll(async () => {
  stack = await startStack();
  organizationId = (await data('{ entities(kind: AI_SYSTEM, first: 1) { nodes { organizationId } } }')).entities
    .nodes[0].organizationId;
});

describe('absence', () => {
  it('a lookup that finds nothing is null without an error, on both upstreams', async () => {
    const res = await stack.query<Any>(
      `{ entity(id: "${UNKNOWN}") { id } event(id: "987654321") { id } venue(id: "987654321") { id } link(id: "${UNKNOWN}", linkTypeId: "${UNKNOWN}") { id } }`,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ entity: null, event: null, venue: null, link: null });
  });

  it('a trashed event is told apart from a missing one: GONE on a read as on a mutation', async () => {
    const id = await createEvent(`Trashed ${stamp}`);
    await data('mutation($id: ID!) { deleteEvent(id: $id) { deletedId } }', { id });
    const read = await stack.query<Any>(
      'query($id: ID!) { event(id: $id) { id } missing: event(id: "987654321") { id } }',
      {
        id,
      },
    );
    expect(read.data).toEqual({ event: null, missing: null });
    expect(read.errors).toHaveLength(1);
    expect(read.errors![0]).toMatchObject({
      path: ['event'],
      extensions: { code: 'GONE', upstreamCode: 'event-no-longer-available' },
    });
    const update = await stack.query<Any>('mutation($id: ID!) { updateEvent(id: $id, input: { title: "x" }) { id } }', {
      id,
    });
    expect(update.errors?.[0]?.extensions).toMatchObject({ code: 'GONE' });
  });

  it('a mutation on a missing record is NOT_FOUND, on both upstreams', async () => {
    const res = await stack.query<Any>(`mutation {
      a: updateEntity(id: "${UNKNOWN}", input: { name: "x" }) { id }
      b: deleteEntity(id: "${UNKNOWN}") { deletedId }
      c: deleteLink(id: "${UNKNOWN}", linkTypeId: "${UNKNOWN}") { deletedId }
      d: moveEntityToStage(input: { entityId: "${UNKNOWN}", nextStageName: "Testing" }) { id }
      e: updateEvent(id: "987654321", input: { title: "x" }) { id }
      f: deleteEvent(id: "987654321") { deletedId }
      g: deleteVenue(id: "987654321") { deletedId }
      h: deleteTag(id: "987654321") { deletedId }
    }`);
    expect(res.data).toEqual({ a: null, b: null, c: null, d: null, e: null, f: null, g: null, h: null });
    expect(res.errors!.map((e) => [e.path![0], e.extensions!.code])).toEqual(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((p) => [p, 'NOT_FOUND']),
    );
  });
});

describe('deletion', () => {
  it('every delete answers { deletedId, node }; governance reads node only when it is selected', async () => {
    const quiet = await createDataset(`Delete quietly ${stamp}`);
    stack.clearRequests();
    expect(
      (await data('mutation($id: ID!) { deleteEntity(id: $id) { deletedId } }', { id: quiet })).deleteEntity,
    ).toEqual({ deletedId: quiet });
    expect(apiCalls(stack).map((r) => r.method)).toEqual(['DELETE']);

    const name = `Delete with node ${stamp}`;
    const shown = await createDataset(name);
    stack.clearRequests();
    const gov = await data('mutation($id: ID!) { deleteEntity(id: $id) { deletedId node { id name kind } } }', {
      id: shown,
    });
    expect(gov.deleteEntity).toEqual({ deletedId: shown, node: { id: shown, name, kind: 'DATASET' } });
    expect(apiCalls(stack).map((r) => r.method)).toEqual(['GET', 'DELETE']);
    const again = await stack.query<Any>('mutation($id: ID!) { deleteEntity(id: $id) { deletedId } }', { id: shown });
    expect(again.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });

    const eventId = await createEvent(`Delete event ${stamp}`);
    stack.clearRequests();
    const cal = await data(
      'mutation($id: ID!) { deleteEvent(id: $id) { deletedId node { id title postStatus } id status } }',
      { id: eventId },
    );
    expect(cal.deleteEvent).toEqual({
      deletedId: eventId,
      node: { id: eventId, title: `Delete event ${stamp}`, postStatus: 'TRASH' },
      id: eventId,
      status: 'trash',
    });
    // The calendar answers the delete with the record: node costs nothing more.
    expect(calls(stack)).toEqual([`DELETE /events/${eventId}`]);
    const twice = await stack.query<Any>('mutation($id: ID!) { deleteEvent(id: $id) { deletedId } }', { id: eventId });
    expect(twice.errors?.[0]?.extensions).toMatchObject({ code: 'GONE' });

    const tag = (await data(`mutation { createTag(input: { name: "Conv tag ${stamp}" }) { id } }`)).createTag.id;
    expect(
      (await data('mutation($id: ID!) { deleteTag(id: $id) { deletedId node { id name } } }', { id: tag })).deleteTag,
    ).toEqual({ deletedId: tag, node: { id: tag, name: `Conv tag ${stamp}` } });
  });
});

describe('dates, enums and the null rule', () => {
  it('a DateTime variable works in every date filter, in both its offset and its wall-clock form', async () => {
    const filters = ['startDate', 'endDate', 'startsBefore', 'startsAfter', 'endsBefore', 'endsAfter'];
    for (const value of ['2027-01-02T00:00:00+01:00', '2027-01-02 00:00:00']) {
      const doc = `query($d: DateTime!) { ${filters.map((f) => `${f}: events(filter: { ${f}: $d }, first: 1) { totalCount }`).join(' ')} }`;
      stack.clearRequests();
      const d = await data(doc, { d: value });
      expect(Object.keys(d).sort()).toEqual([...filters].sort());
      const sent = stack.calendar.control
        .requests()
        .requests.filter((r) => r.path === '/events')
        .map((r) => new URLSearchParams(r.query));
      expect(sent).toHaveLength(filters.length);
      // The offset form goes out as an instant, the wall clock as the site's local time.
      const wire = sent.map(
        (p) =>
          p.get('start_date') ??
          p.get('end_date') ??
          p.get('starts_before') ??
          p.get('starts_after') ??
          p.get('ends_before') ??
          p.get('ends_after'),
      );
      expect(new Set(wire)).toEqual(
        new Set([value.includes('+') ? '2027-01-02T00:00:00+01:00' : '2027-01-02 00:00:00']),
      );
    }
    const day = await data(
      'query($d: Date!) { events(filter: { startDay: $d, endDay: $d }, first: 1) { totalCount } }',
      { d: '2027-01-02' },
    );
    expect(day.events.totalCount).toBeGreaterThanOrEqual(0);
  });

  it('DateTime and Date variables work in event inputs; the output keeps ISO 8601 with the offset', async () => {
    const made = await data(
      'mutation($s: DateTime!, $e: DateTime!) { createEvent(input: { title: "Typed dates", startDate: $s, endDate: $e, timezone: "Europe/Berlin" }) { id startDate endDate allDay } }',
      { s: '2027-03-01T17:00:00Z', e: '2027-03-01 21:00:00' },
    );
    expect(made.createEvent).toMatchObject({
      startDate: '2027-03-01T18:00:00+01:00',
      endDate: '2027-03-01T21:00:00+01:00',
      allDay: false,
    });
    const allDay = await data(
      'mutation($id: ID!, $d: Date!) { updateEvent(id: $id, input: { startDay: $d, endDay: $d }) { startDate endDate allDay } }',
      { id: made.createEvent.id, d: '2027-03-02' },
    );
    expect(allDay.updateEvent).toMatchObject({ allDay: true });
    expect(allDay.updateEvent.startDate.slice(0, 10)).toBe('2027-03-02');
  });

  it('null on an update field is BAD_USER_INPUT before any call, unless documented as clearing', async () => {
    const id = await createEvent(`Null rule ${stamp}`);
    stack.clearRequests();
    const res = await stack.query<Any>(
      `mutation($id: ID!) {
      a: updateEvent(id: $id, input: { title: null }) { id }
      b: updateEntity(id: "${UNKNOWN}", input: { name: null }) { id }
      c: updateVenue(id: "10", input: { city: null }) { id }
    }`,
      { id },
    );
    expect(res.errors!.map((e) => e.extensions)).toEqual([
      expect.objectContaining({ code: 'BAD_USER_INPUT', argument: 'input.title' }),
      expect.objectContaining({ code: 'BAD_USER_INPUT', argument: 'input.name' }),
      expect.objectContaining({ code: 'BAD_USER_INPUT', argument: 'input.city' }),
    ]);
    expect(calls(stack)).toEqual([]);
    expect(apiCalls(stack)).toEqual([]);
    // venueId: null is documented as removing the venue, and does.
    const venue = (await data('{ venues(first: 1) { nodes { id } } }')).venues.nodes[0].id;
    await data('mutation($id: ID!, $v: ID!) { updateEvent(id: $id, input: { venueId: $v }) { id } }', { id, v: venue });
    const cleared = await data(
      'mutation($id: ID!) { updateEvent(id: $id, input: { venueId: null }) { venue { id } title } }',
      { id },
    );
    expect(cleared.updateEvent).toEqual({ venue: null, title: `Null rule ${stamp}` });
  });

  it('closed sets are enums beside their deprecated strings, and every order is FIELD_DIRECTION', async () => {
    const d = await data(
      '{ events(filter: { statuses: [PUBLISH] }, first: 2) { nodes { postStatus status } } tags(first: 3, hideEmpty: false, orderBy: NAME_DESC) { nodes { name } } }',
    );
    expect(d.events.nodes.every((e: Any) => e.postStatus === 'PUBLISH' && e.status === 'publish')).toBe(true);
    const names = d.tags.nodes.map((t: Any) => t.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => b.localeCompare(a)));
    const other = await stack.query<Any>('mutation { updateVenue(id: "10", input: { postStatus: OTHER }) { id } }');
    expect(other.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'input.postStatus' });
    const schema = await data(
      '{ __type(name: "Event") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }',
    );
    expect(schema.__type.fields.find((f: Any) => f.name === 'status')).toMatchObject({
      isDeprecated: true,
      deprecationReason: expect.stringContaining('postStatus'),
    });
  });
});

describe('discovery', () => {
  it("the shipped example discovery file describes the emulators' default seed", () => {
    const example = JSON.parse(readFileSync(EXAMPLE_DISCOVERY_FILE, 'utf8'));
    const seed = buildSeed();
    expect(stack.config.discoveryFile).toBe(EXAMPLE_DISCOVERY_FILE);
    expect(example.organizations).toEqual(seed.organizations.map(({ id, name, parentId }) => ({ id, name, parentId })));
    expect(example.relationshipTypes).toEqual(
      seed.linkTypes.map((t) => ({
        name: t.name,
        id: t.id,
        forwardLabel: t.forward,
        reverseLabel: t.backward,
        ends: t.associations,
      })),
    );
    for (const type of seed.entityTypes.filter((t) =>
      ['models', 'datasets', 'aisystems', 'aiagents'].includes(t.name),
    )) {
      expect(example.workflows[type.name]).toEqual(type.workflow?.stages.map((s) => ({ name: s.name, id: s.id })));
      for (const a of type.attributes.filter((x) => x.options))
        expect(example.attributeOptions[type.name][a.field]).toEqual(
          a.options!.map((o) => ({ option: o.value, id: o.id })),
        );
    }
    for (const c of seed.customAttributes)
      expect(example.attributeOptions[c.schemaName!][c.fieldName]).toEqual(
        c.options.map((o) => ({ option: o.option, id: o.id })),
      );
  });

  it('lists relationship types with their ends, documented, configured and seen; a wrong name lists the valid ones', async () => {
    const documented = await data('{ relationshipTypes { name sources ends { firstKind secondKind } } }');
    expect(documented.relationshipTypes).toContainEqual(
      expect.objectContaining({ name: 'ai-system-composition', sources: expect.arrayContaining(['DOCUMENTED']) }),
    );

    // The stack's emulator ships its discovery file: its types are known before any read, and
    // reading links adds what the gateway sees to them.
    await data('{ entities(kind: MODEL, first: 10) { nodes { links(first: 10) { totalCount } } } }');
    const seen = (
      await data('{ relationshipTypes(kind: DATASET) { name id sources ends { firstTypeName secondTypeName } } }')
    ).relationshipTypes;
    const training = seen.find((r: Any) => r.name === 'model-training-data');
    expect(training).toMatchObject({
      sources: ['CONFIGURED', 'OBSERVED'],
      ends: [{ firstTypeName: 'models', secondTypeName: 'datasets' }],
    });
    expect(training.id).toMatch(/^[0-9a-f-]{36}$/);

    const wrong = await stack.query<Any>(
      `mutation { createLink(input: { relationshipType: "trains-on", entity1: { id: "${UNKNOWN}" }, entity2: { id: "${UNKNOWN}" } }) { id } }`,
    );
    expect(wrong.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'input.relationshipType' });
    expect(wrong.errors?.[0]?.message).toContain('"model-training-data"');
    expect(wrong.errors?.[0]?.message).toContain('"ai-system-composition"');

    // A known name stands for its id.
    const model = (await data('{ entities(kind: MODEL, first: 1) { nodes { id } } }')).entities.nodes[0].id;
    const dataset = await createDataset(`Trains ${stamp}`);
    const link = await data(
      'mutation($m: ID!, $d: ID!) { createLink(input: { relationshipType: "model-training-data", entity1: { id: $m }, entity2: { id: $d } }) { id linkType { id name } } }',
      { m: model, d: dataset },
    );
    expect(link.createLink.linkType).toEqual({ id: training.id, name: 'model-training-data' });
  });

  it('lists workflow stages and attribute options of an entity type; a wrong attribute name lists the valid ones', async () => {
    await data('{ entities(kind: MODEL, first: 50) { totalCount } }');
    await data('{ entities(kind: DATASET, first: 50) { totalCount } }');
    const types = (
      await data(
        '{ entityTypes(first: 20) { nodes { name displayName workflow { stages { name sequence sources } } selectAttributes { name options { option id sources } } } } }',
      )
    ).entityTypes.nodes;
    const models = types.find((t: Any) => t.name === 'models');
    expect(models.displayName).toBe('Model');
    expect(models.workflow.stages[0]).toMatchObject({
      name: 'Ideation',
      sequence: 1,
      sources: expect.arrayContaining(['DOCUMENTED']),
    });
    expect(models.workflow.stages.length).toBeGreaterThan(1); // stages seen on the records read above
    const datasets = types.find((t: Any) => t.name === 'datasets');
    expect(datasets.workflow).toBeNull();
    const type = datasets.selectAttributes.find((a: Any) => a.name === 'type');
    expect(type.options.some((o: Any) => o.sources.includes('OBSERVED') && /^[0-9a-f-]{36}$/.test(o.id))).toBe(true);

    const typeId = (await data('{ entityTypes(first: 20) { nodes { id name } } }')).entityTypes.nodes.find(
      (t: Any) => t.name === 'datasets',
    ).id;
    const wrong = await stack.query<Any>(
      'query($id: ID!) { entityType(id: $id) { attributeOptions(name: "colour") { option } } }',
      { id: typeId },
    );
    const error = wrong.errors?.[0];
    expect(error?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'name' });
    expect(error?.message).toContain('"type"');
  });

  it('a configured discovery file is served and merged', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    // eslint-disable-next-line @typescript-eslint/unbound-method -- merged from main; to clean up after the lint lands
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'discovery-')), 'discovery.json');
    writeFileSync(
      file,
      JSON.stringify({
        workflows: { aiagents: ['Proposed', 'Approved'] },
        relationshipTypes: [{ name: 'agent-uses-model', ends: [['aiagents', 'models']] }],
        attributeOptions: { aiagents: { autonomy: ['Low', 'High'] } },
      }),
    );
    const configured = await startStack({ env: { GOVERNANCE_DISCOVERY_FILE: file } });
    try {
      const types = await configured.query<Any>('{ entityTypes(first: 20) { nodes { id name } } }');
      const agentsId = types.data.entityTypes.nodes.find((t: Any) => t.name === 'aiagents').id;
      const res = await configured.query<Any>(
        'query($id: ID!) { relationshipTypes(kind: AI_AGENT) { name sources } entityType(id: $id) { workflow { stages { name sources } } attributeOptions(name: "autonomy") { option } } }',
        { id: agentsId },
      );
      expect(res.errors).toBeUndefined();
      expect(res.data.relationshipTypes).toContainEqual({ name: 'agent-uses-model', sources: ['CONFIGURED'] });
      const agents = res.data.entityType;
      expect(agents.workflow.stages.map((s: Any) => s.name)).toEqual(['Proposed', 'Approved']);
      expect(agents.attributeOptions.map((o: Any) => o.option)).toEqual(['High', 'Low']);
    } finally {
      await configured.close();
    }
  });
});
