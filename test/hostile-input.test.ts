/**
 * Hostile values for every argument that reaches an upstream URL or body, over real HTTP. Each one
 * must be refused with BAD_USER_INPUT before any upstream request (so no record can change):
 * dot segments (`.`, `..`, `%2e%2e`), a slash, control characters, 1 MB strings and bad uuids go
 * to ids, slugs, uuids, statuses, zones and URLs; control characters and 1 MB strings go to free
 * text (where a dot or a slash is a legitimate value).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './support/stack.js';

const HOSTILE = {
  dot: '.',
  dots: '..',
  slash: 'a/b',
  encodedDots: '%2e%2e',
  control: 'a\u0000b\u001b',
  megabyte: 'x'.repeat(1_000_000),
  badUuid: 'not-a-uuid',
} as const;
type Hostile = keyof typeof HOSTILE;
const ALL = Object.keys(HOSTILE) as Hostile[];
const TEXT: Hostile[] = ['control', 'megabyte'];
/** `not-a-uuid` is a fine slug or schema name. */
const SLUG: Hostile[] = ALL.filter((h) => h !== 'badUuid');

const UUID = '00000000-0000-4000-8000-000000000000';

/** [what, document with a `$v` variable, hostile values that apply]. */
const CASES: [string, string, Hostile[]][] = [
  // calendar: URL path
  ['event(id)', 'query($v: ID!) { event(id: $v) { id } }', ALL],
  ['event(slug)', 'query($v: String!) { event(slug: $v) { id } }', SLUG],
  ['venue(id)', 'query($v: ID!) { venue(id: $v) { id } }', ALL],
  ['venue(slug)', 'query($v: String!) { venue(slug: $v) { id } }', SLUG],
  ['organizer(id)', 'query($v: ID!) { organizer(id: $v) { id } }', ALL],
  ['organizer(slug)', 'query($v: String!) { organizer(slug: $v) { id } }', SLUG],
  ['category(id)', 'query($v: ID!) { category(id: $v) { id } }', ALL],
  ['tag(id)', 'query($v: ID!) { tag(id: $v) { id } }', ALL],
  ['updateEvent(id)', 'mutation($v: ID!) { updateEvent(id: $v, input: { title: "x" }) { id } }', ALL],
  ['updateEvent(slug)', 'mutation($v: String!) { updateEvent(slug: $v, input: { title: "x" }) { id } }', SLUG],
  ['deleteEvent(id)', 'mutation($v: ID!) { deleteEvent(id: $v) { id } }', ALL],
  ['deleteEvent(slug)', 'mutation($v: String!) { deleteEvent(slug: $v) { id } }', SLUG],
  ['updateVenue(id)', 'mutation($v: ID!) { updateVenue(id: $v, input: { city: "x" }) { id } }', ALL],
  ['updateVenue(slug)', 'mutation($v: String!) { updateVenue(slug: $v, input: { city: "x" }) { id } }', SLUG],
  ['deleteVenue(slug)', 'mutation($v: String!) { deleteVenue(slug: $v) { id } }', SLUG],
  ['updateOrganizer(slug)', 'mutation($v: String!) { updateOrganizer(slug: $v, input: { phone: "1" }) { id } }', SLUG],
  ['deleteOrganizer(id)', 'mutation($v: ID!) { deleteOrganizer(id: $v) { id } }', ALL],
  ['updateCategory(id)', 'mutation($v: ID!) { updateCategory(id: $v, input: { name: "x" }) { id } }', ALL],
  ['deleteTag(id)', 'mutation($v: ID!) { deleteTag(id: $v) { id } }', ALL],
  // calendar: query strings
  ['events(filter.categories)', 'query($v: String!) { events(filter: { categories: [$v] }) { totalCount } }', SLUG],
  ['events(filter.tags)', 'query($v: String!) { events(filter: { tags: [$v] }) { totalCount } }', SLUG],
  ['events(filter.venues)', 'query($v: ID!) { events(filter: { venues: [$v] }) { totalCount } }', ALL],
  ['events(filter.include)', 'query($v: ID!) { events(filter: { include: [$v] }) { totalCount } }', ALL],
  ['events(filter.postParent)', 'query($v: ID!) { events(filter: { postParent: $v }) { totalCount } }', ALL],
  ['events(filter.status)', 'query($v: String!) { events(filter: { status: [$v] }) { totalCount } }', ALL],
  ['events(filter.startsAfter)', 'query($v: DateTime!) { events(filter: { startsAfter: $v }) { totalCount } }', ALL],
  ['events(filter.search)', 'query($v: String!) { events(filter: { search: $v }) { totalCount } }', TEXT],
  ['venues(eventId)', 'query($v: ID!) { venues(eventId: $v) { totalCount } }', ALL],
  ['venues(status)', 'query($v: String!) { venues(status: $v) { totalCount } }', ALL],
  ['organizers(search)', 'query($v: String!) { organizers(search: $v) { totalCount } }', TEXT],
  ['categories(slug)', 'query($v: String!) { categories(slug: $v) { totalCount } }', SLUG],
  ['categories(parentId)', 'query($v: ID!) { categories(parentId: $v) { totalCount } }', ALL],
  ['tags(include)', 'query($v: ID!) { tags(include: [$v]) { totalCount } }', ALL],
  ['tags(search)', 'query($v: String!) { tags(search: $v) { totalCount } }', TEXT],
  // calendar: bodies
  [
    'createEvent(input.slug)',
    'mutation($v: String!) { createEvent(input: { title: "x", startDate: "2027-01-01 10:00:00", endDate: "2027-01-01 11:00:00", slug: $v }) { id } }',
    SLUG,
  ],
  [
    'createEvent(input.venueId)',
    'mutation($v: ID!) { createEvent(input: { title: "x", startDate: "2027-01-01 10:00:00", endDate: "2027-01-01 11:00:00", venueId: $v }) { id } }',
    ALL,
  ],
  [
    'createEvent(input.organizerIds)',
    'mutation($v: ID!) { createEvent(input: { title: "x", startDate: "2027-01-01 10:00:00", endDate: "2027-01-01 11:00:00", organizerIds: [$v] }) { id } }',
    ALL,
  ],
  [
    'createEvent(input.timezone)',
    'mutation($v: String!) { createEvent(input: { title: "x", startDate: "2027-01-01 10:00:00", endDate: "2027-01-01 11:00:00", timezone: $v }) { id } }',
    ALL,
  ],
  [
    'createEvent(input.status)',
    'mutation($v: String!) { createEvent(input: { title: "x", startDate: "2027-01-01 10:00:00", endDate: "2027-01-01 11:00:00", status: $v }) { id } }',
    ALL,
  ],
  [
    'createEvent(input.website)',
    'mutation($v: String!) { createEvent(input: { title: "x", startDate: "2027-01-01 10:00:00", endDate: "2027-01-01 11:00:00", website: $v }) { id } }',
    ALL,
  ],
  [
    'createEvent(input.startDate)',
    'mutation($v: DateTime!) { createEvent(input: { title: "x", startDate: $v, endDate: "2027-01-01 11:00:00" }) { id } }',
    ALL,
  ],
  [
    'createEvent(input.title)',
    'mutation($v: String!) { createEvent(input: { title: $v, startDate: "2027-01-01 10:00:00", endDate: "2027-01-01 11:00:00" }) { id } }',
    TEXT,
  ],
  [
    'createEvent(input.description)',
    'mutation($v: String!) { createEvent(input: { title: "x", description: $v, startDate: "2027-01-01 10:00:00", endDate: "2027-01-01 11:00:00" }) { id } }',
    TEXT,
  ],
  [
    'createEvent(input.cost)',
    'mutation($v: String!) { createEvent(input: { title: "x", cost: $v, startDate: "2027-01-01 10:00:00", endDate: "2027-01-01 11:00:00" }) { id } }',
    TEXT,
  ],
  [
    'createEvent(input.tags)',
    'mutation($v: String!) { createEvent(input: { title: "x", tags: [$v], startDate: "2027-01-01 10:00:00", endDate: "2027-01-01 11:00:00" }) { id } }',
    TEXT,
  ],
  [
    'createEvent(input.venue.name)',
    'mutation($v: String!) { createEvent(input: { title: "x", venue: { name: $v }, startDate: "2027-01-01 10:00:00", endDate: "2027-01-01 11:00:00" }) { id } }',
    TEXT,
  ],
  ['updateEvent(input.title)', 'mutation($v: String!) { updateEvent(id: "1", input: { title: $v }) { id } }', TEXT],
  ['createVenue(input.name)', 'mutation($v: String!) { createVenue(input: { name: $v }) { id } }', TEXT],
  [
    'createVenue(input.address)',
    'mutation($v: String!) { createVenue(input: { name: "x", address: $v }) { id } }',
    TEXT,
  ],
  [
    'createVenue(input.website)',
    'mutation($v: String!) { createVenue(input: { name: "x", website: $v }) { id } }',
    ALL,
  ],
  [
    'createOrganizer(input.email)',
    'mutation($v: String!) { createOrganizer(input: { name: "x", email: $v }) { id } }',
    ALL,
  ],
  [
    'createCategory(input.slug)',
    'mutation($v: String!) { createCategory(input: { name: "x", slug: $v }) { id } }',
    SLUG,
  ],
  [
    'createCategory(input.parentId)',
    'mutation($v: ID!) { createCategory(input: { name: "x", parentId: $v }) { id } }',
    ALL,
  ],
  ['createTag(input.name)', 'mutation($v: String!) { createTag(input: { name: $v }) { id } }', TEXT],
  [
    'updateTag(input.description)',
    'mutation($v: String!) { updateTag(id: "1", input: { description: $v }) { id } }',
    TEXT,
  ],
  // governance: URL path and query
  ['entity(id)', 'query($v: ID!) { entity(id: $v) { id } }', ALL],
  ['entityType(id)', 'query($v: ID!) { entityType(id: $v) { id } }', ALL],
  ['link(id)', `query($v: ID!) { link(id: $v, linkTypeId: "${UUID}") { id } }`, ALL],
  ['link(linkTypeId)', `query($v: ID!) { link(id: "${UUID}", linkTypeId: $v) { id } }`, ALL],
  ['updateEntity(id)', 'mutation($v: ID!) { updateEntity(id: $v, input: { name: "x" }) { id } }', ALL],
  ['deleteEntity(id)', 'mutation($v: ID!) { deleteEntity(id: $v) { deletedId } }', ALL],
  [
    'moveEntityToStage(entityId)',
    'mutation($v: ID!) { moveEntityToStage(input: { entityId: $v, nextStageName: "Testing" }) { id } }',
    ALL,
  ],
  [
    'moveEntityToStage(workflowType)',
    `mutation($v: ID!) { moveEntityToStage(input: { entityId: "${UUID}", workflowType: $v, nextStageName: "Testing" }) { id } }`,
    ALL,
  ],
  ['deleteLink(linkTypeId)', `mutation($v: ID!) { deleteLink(id: "${UUID}", linkTypeId: $v) { deletedId } }`, ALL],
  [
    'createLink(linkTypeId)',
    `mutation($v: ID!) { createLink(input: { linkTypeId: $v, entity1: { id: "${UUID}", kind: MODEL }, entity2: { id: "${UUID}", kind: DATASET } }) { id } }`,
    ALL,
  ],
  [
    'createLink(entity2.id)',
    `mutation($v: ID!) { createLink(input: { linkTypeId: "${UUID}", entity1: { id: "${UUID}", kind: MODEL }, entity2: { id: $v, kind: DATASET } }) { id } }`,
    ALL,
  ],
  [
    'addAttributeOptions(attributeId)',
    'mutation($v: ID!) { addAttributeOptions(attributeId: $v, options: [{ option: "x" }]) { id } }',
    ALL,
  ],
  [
    'addSchemaAttribute(schemaName)',
    'mutation($v: String!) { addSchemaAttribute(schemaName: $v, input: { name: "x", responseType: TEXT }) { id } }',
    SLUG,
  ],
  [
    'createEntity(organizationId)',
    'mutation($v: ID!) { createEntity(input: { kind: DATASET, name: "x", organizationId: $v }) { id } }',
    ALL,
  ],
  ['entitySummaries(organizationId)', 'query($v: ID!) { entitySummaries(organizationId: $v) { totalCount } }', ALL],
  // governance: bodies and search
  ['entities(search)', 'query($v: String!) { entities(search: $v) { totalCount } }', TEXT],
  [
    'createEntity(name)',
    `mutation($v: String!) { createEntity(input: { kind: DATASET, name: $v, organizationId: "${UUID}" }) { id } }`,
    TEXT,
  ],
  [
    'createEntity(attribute value)',
    `mutation($v: String!) { createEntity(input: { kind: DATASET, name: "x", organizationId: "${UUID}", attributes: [{ name: "description", values: [{ value: $v }] }] }) { id } }`,
    TEXT,
  ],
  ['updateEntity(name)', `mutation($v: String!) { updateEntity(id: "${UUID}", input: { name: $v }) { id } }`, TEXT],
  [
    'moveEntityToStage(nextStageName)',
    `mutation($v: String!) { moveEntityToStage(input: { entityId: "${UUID}", nextStageName: $v }) { id } }`,
    TEXT,
  ],
  [
    'addSchemaAttribute(input.name)',
    'mutation($v: String!) { addSchemaAttribute(schemaName: "datasets", input: { name: $v, responseType: TEXT }) { id } }',
    TEXT,
  ],
  [
    'addAttributeOptions(option)',
    `mutation($v: String!) { addAttributeOptions(attributeId: "${UUID}", options: [{ option: $v }]) { id } }`,
    TEXT,
  ],
  [
    'createLink(entity1.typeName)',
    `mutation($v: String!) { createLink(input: { linkTypeId: "${UUID}", entity1: { id: "${UUID}", typeName: $v }, entity2: { id: "${UUID}", kind: DATASET } }) { id } }`,
    TEXT,
  ],
];

let s: Stack;
let url: string;
beforeAll(async () => {
  s = await startStack();
  url = await s.listen();
});

describe('hostile values reach no upstream', () => {
  it.each(CASES)('%s', async (_what, query, values) => {
    for (const name of values) {
      s.clearRequests();
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables: { v: HOSTILE[name] } }),
      });
      const body = (await res.json()) as {
        data?: Record<string, unknown> | null;
        errors?: { extensions?: { code?: string } }[];
      };
      expect(
        body.errors?.map((e) => e.extensions?.code),
        name,
      ).toEqual(['BAD_USER_INPUT']);
      // No upstream request at all, so no record can have changed.
      expect(s.governance.control.requests().total + s.calendar.control.requests().total, name).toBe(0);
    }
  });
});
