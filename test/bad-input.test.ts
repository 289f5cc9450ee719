/**
 * Bad input never reaches an upstream: every argument with a format (uuids, record ids, dates,
 * enums, first/last, cursors, filter values, attribute names, slugs) is checked by the gateway
 * first. Each case asserts a BAD_USER_INPUT that names the argument, and zero upstream requests
 * at both emulators (their request logs, not the gateway's own counters).
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countRequests, startStack, type Stack } from './support/stack.js';

const UUID = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';

interface Case {
  name: string;
  query: string;
  variables?: Record<string, unknown>;
  /** The argument the error must name (`extensions.argument`, which may carry a longer path). */
  argument: string;
}

const governance: Case[] = [
  { name: 'entity id not a uuid', query: '{ entity(id: "42") { id } }', argument: 'id' },
  { name: 'entity id with a path in it', query: '{ entity(id: "../../oauth/token") { id } }', argument: 'id' },
  { name: 'entity type id not a uuid', query: '{ entityType(id: "abc") { id } }', argument: 'id' },
  { name: 'link id not a uuid', query: `{ link(id: "x", linkTypeId: "${UUID}") { id } }`, argument: 'id' },
  { name: 'link type id not a uuid', query: `{ link(id: "${UUID}", linkTypeId: "y") { id } }`, argument: 'linkTypeId' },
  { name: 'first negative', query: '{ entities(first: -1) { totalCount } }', argument: 'first' },
  {
    name: 'first above the maximum',
    query: 'query ($n: Int) { entities(first: $n) { totalCount } }',
    variables: { n: 501 },
    argument: 'first',
  },
  { name: 'last negative', query: '{ entitySummaries(last: -3) { totalCount } }', argument: 'last' },
  { name: 'first and last together', query: '{ entityTypes(first: 2, last: 2) { totalCount } }', argument: 'last' },
  {
    name: 'a tampered cursor',
    query: '{ entities(first: 2, after: "bm90LWEtY3Vyc29y") { totalCount } }',
    argument: 'after',
  },
  {
    name: 'a cursor that is not base64',
    query: '{ entityTypes(first: 2, before: "%%%") { totalCount } }',
    argument: 'before',
  },
  {
    name: 'search too long',
    query: 'query ($s: String) { entities(search: $s, first: 1) { totalCount } }',
    variables: { s: 'x'.repeat(600) },
    argument: 'search',
  },
  {
    name: 'createEntity organization id not a uuid',
    query: 'mutation { createEntity(input: { kind: DATASET, name: "n", organizationId: "org" }) { id } }',
    argument: 'organizationId',
  },
  {
    name: 'createEntity with an empty name',
    query: `mutation { createEntity(input: { kind: DATASET, name: "  ", organizationId: "${UUID}" }) { id } }`,
    argument: 'name',
  },
  {
    name: 'updateEntity id not a uuid',
    query: 'mutation { updateEntity(id: "1", input: { name: "n" }) { id } }',
    argument: 'id',
  },
  {
    name: 'updateEntity with nothing to change',
    query: `mutation { updateEntity(id: "${UUID}", input: {}) { id } }`,
    argument: 'input',
  },
  { name: 'deleteEntity id not a uuid', query: 'mutation { deleteEntity(id: "1") { deletedId } }', argument: 'id' },
  {
    name: 'moveEntityToStage entity id not a uuid',
    query: 'mutation { moveEntityToStage(input: { entityId: "e", nextStageName: "Review" }) { id } }',
    argument: 'entityId',
  },
  {
    name: 'moveEntityToStage empty stage',
    query: `mutation { moveEntityToStage(input: { entityId: "${UUID}", nextStageName: "" }) { id } }`,
    argument: 'nextStageName',
  },
  {
    name: 'createLink link type id not a uuid',
    query: `mutation { createLink(input: { linkTypeId: "t", entity1: { id: "${UUID}" }, entity2: { id: "${UUID}" } }) { id } }`,
    argument: 'linkTypeId',
  },
  {
    name: 'createLink end id not a uuid',
    query: `mutation { createLink(input: { linkTypeId: "${UUID}", entity1: { id: "a" }, entity2: { id: "${UUID}" } }) { id } }`,
    argument: 'entity1',
  },
  {
    name: 'deleteLink id not a uuid',
    query: `mutation { deleteLink(id: "1", linkTypeId: "${UUID}") { deletedId } }`,
    argument: 'id',
  },
  {
    name: 'addAttributeOptions attribute id not a uuid',
    query: 'mutation { addAttributeOptions(attributeId: "a", options: [{ option: "x" }]) { id } }',
    argument: 'attributeId',
  },
  {
    name: 'addAttributeOptions with no options',
    query: `mutation { addAttributeOptions(attributeId: "${UUID}", options: []) { id } }`,
    argument: 'options',
  },
  {
    name: 'addSchemaAttribute blank schema name',
    query: 'mutation { addSchemaAttribute(schemaName: " ", input: { name: "n", responseType: TEXT }) { id } }',
    argument: 'schemaName',
  },
  {
    name: 'filter on an empty field name',
    query: '{ entities(first: 1, filters: [{ field: "", values: ["x"] }]) { totalCount } }',
    argument: 'filters[0].field',
  },
  {
    name: 'filter on a field name with quotes',
    query: '{ entities(first: 1, filters: [{ field: "name\\"; drop", values: ["x"] }]) { totalCount } }',
    argument: 'filters[0].field',
  },
  {
    name: 'filter with no values',
    query: '{ entitySummaries(first: 1, filters: [{ field: "type", values: [] }]) { totalCount } }',
    argument: 'filters[0].values',
  },
  {
    name: 'filter repeated',
    query:
      '{ entities(first: 1, filters: [{ field: "type", values: ["a"] }, { field: "type", values: ["a"] }]) { totalCount } }',
    argument: 'filters[1]',
  },
  {
    name: 'addSchemaAttribute schema name with a path',
    query:
      'mutation { addSchemaAttribute(schemaName: "datasets/../x", input: { name: "n", responseType: TEXT }) { id } }',
    argument: 'schemaName',
  },
  {
    name: 'addSchemaAttribute empty attribute name',
    query: 'mutation { addSchemaAttribute(schemaName: "datasets", input: { name: "", responseType: TEXT }) { id } }',
    argument: 'name',
  },
];

const calendar: Case[] = [
  { name: 'event id not a number', query: '{ event(id: "abc") { id } }', argument: 'id' },
  { name: 'event id zero', query: '{ event(id: "0") { id } }', argument: 'id' },
  { name: 'event with neither id nor slug', query: '{ event { id } }', argument: 'id' },
  { name: 'event slug with a slash', query: '{ event(slug: "a/../b") { id } }', argument: 'slug' },
  { name: 'venue id not a number', query: '{ venue(id: "v1") { id } }', argument: 'id' },
  { name: 'organizer id negative', query: '{ organizer(id: "-3") { id } }', argument: 'id' },
  { name: 'tag id a fraction', query: '{ tag(id: "1.5") { id } }', argument: 'id' },
  { name: 'category id not a number', query: '{ category(id: "cat") { id } }', argument: 'id' },
  { name: 'events first negative', query: '{ events(first: -1) { totalCount } }', argument: 'first' },
  { name: 'events first above the maximum', query: '{ events(first: 501) { totalCount } }', argument: 'first' },
  {
    name: 'events tampered cursor',
    query: '{ events(first: 1, after: "eyJvIjotNX0=") { totalCount } }',
    argument: 'after',
  },
  {
    name: 'events venue filter not an id',
    query: '{ events(filter: { venues: ["x"] }, first: 1) { totalCount } }',
    argument: 'venues',
  },
  {
    name: 'events organizer filter not an id',
    query: '{ events(filter: { organizers: ["1", "two"] }, first: 1) { totalCount } }',
    argument: 'organizers',
  },
  {
    name: 'events empty search',
    query: '{ events(filter: { search: "  " }, first: 1) { totalCount } }',
    argument: 'search',
  },
  {
    name: 'events geolocation half given',
    query: '{ events(filter: { geolocLat: 1.5 }, first: 1) { totalCount } }',
    argument: 'geolocLng',
  },
  {
    name: 'categories include not ids',
    query: '{ categories(include: ["a"], first: 1) { totalCount } }',
    argument: 'include',
  },
  { name: 'tags eventId not a number', query: '{ tags(eventId: "e", first: 1) { totalCount } }', argument: 'eventId' },
  {
    name: 'createEvent venue id not a number',
    query:
      'mutation { createEvent(input: { title: "t", startDate: "2027-03-01 18:00:00", endDate: "2027-03-01 21:00:00", venueId: "v" }) { id } }',
    argument: 'venueId',
  },
  {
    name: 'updateEvent id not a number',
    query: 'mutation { updateEvent(id: "x", input: { title: "t" }) { id } }',
    argument: 'id',
  },
  { name: 'deleteTag id not a number', query: 'mutation { deleteTag(id: "x") { id } }', argument: 'id' },
  {
    name: 'updateCategory parent id not a number',
    query: 'mutation { updateCategory(id: "3", input: { parentId: "p" }) { id } }',
    argument: 'parentId',
  },
];

const typeLevel: Case[] = [
  // Caught by GraphQL itself: wrong variable types and unknown enum values.
  {
    name: 'first as a string variable',
    query: 'query ($n: Int) { entities(first: $n) { totalCount } }',
    variables: { n: 'ten' },
    argument: 'n',
  },
  {
    name: 'an unknown kind',
    query: 'query ($k: EntityKind) { entities(kind: $k, first: 1) { totalCount } }',
    variables: { k: 'ROBOT' },
    argument: 'k',
  },
  // Dates are DateTime/Date scalars: a bad value is refused by the scalar, naming the variable.
  {
    name: 'events startsAfter not a date',
    query: 'query ($d: DateTime) { events(filter: { startsAfter: $d }, first: 1) { totalCount } }',
    variables: { d: 'tomorrow' },
    argument: 'd',
  },
  {
    name: 'events endsBefore impossible date',
    query: 'query ($d: DateTime) { events(filter: { endsBefore: $d }, first: 1) { totalCount } }',
    variables: { d: '2027-13-45 25:61:00' },
    argument: 'd',
  },
  {
    name: 'events startDay not a day',
    query: 'query ($d: Date) { events(filter: { startDay: $d }, first: 1) { totalCount } }',
    variables: { d: '2027-02-30' },
    argument: 'd',
  },
  {
    name: 'createEvent start date not a date',
    query:
      'mutation ($d: DateTime!) { createEvent(input: { title: "t", startDate: $d, endDate: "2027-03-01 21:00:00" }) { id } }',
    variables: { d: 'next friday' },
    argument: 'd',
  },
];

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
beforeEach(() => stack.clearRequests());

async function expectRefusedBeforeUpstream(c: Case): Promise<void> {
  const res = await stack.query(c.query, c.variables);
  const errors = res.errors ?? [];
  expect(errors.length, JSON.stringify(res)).toBeGreaterThan(0);
  const error = errors[0]!;
  expect(error.extensions?.code, error.message).toBe('BAD_USER_INPUT');
  const named = `${String(error.extensions?.argument ?? '')} ${error.message}`;
  expect(named, `the error should name "${c.argument}"`).toContain(c.argument);
  // The one thing that matters most: nothing was sent upstream, token endpoint included.
  expect(countRequests(stack.governance) + countRequests(stack.calendar), `${c.name}: upstream requests`).toBe(0);
}

describe('governance arguments', () => {
  it.each(governance)('$name', async (c) => {
    await expectRefusedBeforeUpstream(c);
    expect((await stack.query(c.query, c.variables)).errors?.[0]?.extensions?.argument).toEqual(
      expect.stringContaining(c.argument),
    );
  });
});

describe('calendar arguments', () => {
  it.each(calendar)('$name', async (c) => {
    await expectRefusedBeforeUpstream(c);
    expect((await stack.query(c.query, c.variables)).errors?.[0]?.extensions?.argument).toEqual(
      expect.stringContaining(c.argument),
    );
  });
});

describe('type-level input', () => {
  it.each(typeLevel)('$name', async (c) => {
    await expectRefusedBeforeUpstream(c);
  });
});
