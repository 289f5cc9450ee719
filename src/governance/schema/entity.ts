/**
 * Entity: one AI governance record (model, dataset, AI system or AI agent) with its type, workflow
 * stage, attributes and audit fields; and the `entity` and `entities` queries. Every entity a search
 * returns is primed into the request's entity loader, so links that lead back to it cost nothing.
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import { VERSION_HELP } from '../../graph/write-args.js';
import { entityVersion } from '../versions.js';
import type { EntityInformation } from '../model.js';
import type { PageRequest } from '../client.js';
import { recordNode } from '../../graph/node.js';
import { auditFields, DISPLAY_LABEL_HELP, NameOrder, RecordFilter, toPredicates } from './common.js';
import { fullEntity, full } from './entity-full.js';
import { EntityKind, kindOf } from './kind.js';
import {
  EntityAttributeRef,
  EntityRef,
  EntityStageRef,
  EntityTypeRef,
  LinkEndRef,
  type EntityAttributeShape,
} from './refs.js';
import { checkRecordFilters, stageFilter } from './filters.js';
import { connectionTypes, governanceList, RECORD_IDS, uuidArg, uuidKey } from './validate.js';

/** Seeded text attributes, seeded option attributes (`extendedBaseAttributes`) and custom ones, in that order. */
function attributesOf(e: EntityInformation): EntityAttributeShape[] {
  const out: EntityAttributeShape[] = [];
  const { extendedBaseAttributes, ...text } = e.entityDetail ?? {};
  for (const [name, values] of Object.entries(text))
    if (Array.isArray(values)) out.push({ name, group: 'base', values: values });
  for (const [name, values] of Object.entries(extendedBaseAttributes ?? {}))
    out.push({ name, group: 'extended', values: values });
  for (const [name, values] of Object.entries(e.attributes ?? {}))
    if (Array.isArray(values)) out.push({ name, group: 'custom', values });
  return out;
}

/** What a stage filter costs: the upstream cannot filter by stage. */
const STAGE_COST =
  'The upstream cannot filter by stage, so the gateway reads the list in pages of 50 from the cursor on and keeps the matching records: a page of `first` reads at most ceil(first / 50) + 3 upstream pages (the estimate counts them all) and stops once it has seen a match beyond the page (`hasNextPage` true) or the end of the list (false). When it stops at its most pages before the end, `hasNextPage` is true because the rest is unread, and the next page may be empty; `endCursor` continues where it stopped. `totalCount` is null unless that read covered the whole list; `last`/`before` are refused.';

EntityRef.implement({
  description:
    'An AI governance record: a model, dataset, AI system or AI agent. Also a link end (`GovernanceLinkEnd`) where a link leads to one.',
  interfaces: [LinkEndRef],
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: "The record's name." }),
    number: t.int({
      nullable: false,
      description: "The record's sequence number, in the order records were created.",
      resolve: async (e, _a, ctx) => e.number ?? (await fullEntity(e, ctx)).number,
    }),
    version: t.string({ nullable: false, description: VERSION_HELP, resolve: full((e) => entityVersion(e)) }),
    displayLabel: t.string({
      nullable: false,
      description: DISPLAY_LABEL_HELP,
      resolve: async (e, _a, ctx) =>
        ('linkEntityDetail' in e ? e.linkEntityDetail?.displayLabel : undefined) ??
        `${e.number ?? (await fullEntity(e, ctx)).number} | ${e.name}`,
    }),
    kind: t.field({
      type: EntityKind,
      description: 'Which of the four AI governance kinds the record is (null only for an unexpected type).',
      resolve: (e) => kindOf(e.entityType?.name),
    }),
    workflowStage: t.field({
      type: EntityStageRef,
      description: 'The workflow stage the record is in; null when its type has no workflow.',
      resolve: full((e) => e.workflowAndStage),
    }),
    attributes: t.field({
      nullable: false,
      type: [EntityAttributeRef],
      description: "The record's attributes: seeded text ones, seeded option ones (with option keys) and custom ones.",
      resolve: full((e) => attributesOf(e)),
    }),
    attribute: t.field({
      type: EntityAttributeRef,
      description: 'One attribute by its field name; null when the record has no such attribute.',
      args: { name: t.arg.string({ required: true, description: "The attribute's field name, e.g. `description`." }) },
      resolve: async (e, args, ctx) => attributesOf(await fullEntity(e, ctx)).find((a) => a.name === args.name) ?? null,
    }),
    organizationId: t.id({
      nullable: false,
      description: 'The uuid of the organization that owns the record.',
      resolve: full((e) => e.orgGroupId),
    }),
    schemaId: t.id({
      nullable: false,
      description: "The uuid of the schema that defines the record's attributes.",
      resolve: full((e) => e.schemaId),
    }),
    type: t.expose('entityType', { nullable: false, type: EntityTypeRef, description: "The record's entity type." }),
    ...auditFields(t, 'the record', async (e, ctx) => (await fullEntity(e, ctx)).auditFields),
  }),
});

recordNode(EntityRef, {
  permission: 'governance:read',
  key: (e) => e.id,
  databaseId: (e) => e.id,
  parse: uuidKey,
  load: (ids, ctx) => ctx.governance.loaders.entity.loadMany(ids),
  what: "The record's uuid",
});

builder.queryFields((t) => ({
  entity: t.field({
    ...requires('governance:read'),
    type: EntityRef,
    description: 'One AI governance record by its id (global or uuid); null when there is none with that id.',
    args: { id: t.arg.id({ required: true, description: "The record's id, or its uuid (`databaseId`)." }) },
    resolve: (_root, args, ctx) => ctx.governance.loaders.entity.load(uuidArg(args.id, 'id', RECORD_IDS)),
  }),
  entities: t.connection(
    {
      ...requires('governance:read'),
      type: EntityRef,
      description:
        'AI governance records with all their details, of one kind or of every kind, sorted by name. Filters by `kind`, `search` and `filters` are applied by the upstream; `stage`/`stages` by the gateway (see there).',
      args: {
        kind: t.arg({ type: EntityKind, description: 'Only records of this kind; all four kinds when omitted.' }),
        search: t.arg.string({ description: 'Full-text search over the records (at most 500 characters).' }),
        filters: t.arg({
          type: [RecordFilter],
          description:
            'Conditions on option attributes, e.g. a `type` or `source` option uuid; all must hold. A field that is not a known select attribute of the kind (`EntityType.selectAttributes`), or an option uuid it does not offer, is BAD_USER_INPUT listing the known ones.',
        }),
        stage: t.arg.string({
          description: `Only records in this workflow stage, by name (\`EntityType.workflow.stages\`, e.g. \`Development\`); an unknown name is BAD_USER_INPUT listing the known ones. ${STAGE_COST}`,
        }),
        stages: t.arg.stringList({
          description: `Only records in one of these workflow stages (1 to 20 names); give \`stage\` or \`stages\`. ${STAGE_COST}`,
        }),
        orderBy: t.arg({ type: NameOrder, defaultValue: 'name,asc', description: 'The order of the list.' }),
      },
      resolve: async (_root, args, { governance: scope }) => {
        const criteria = { fullText: args.search ?? undefined, filters: toPredicates(args.filters) };
        const inStage = await stageFilter(scope, args.kind, args.stage, args.stages);
        await checkRecordFilters(scope, args.kind, criteria.filters);
        const fetch = async (page: PageRequest) => {
          const res = await scope.client.searchEntities(args.kind ?? undefined, criteria, {
            ...page,
            sort: args.orderBy ?? 'name,asc',
          });
          scope.loaders.primeEntities(res.content);
          return res;
        };
        const argument = args.stage != null ? 'stage' : 'stages';
        const filter = inStage && { costField: 'Query.entities', argument, keep: inStage };
        return governanceList(scope, 'entities', args, fetch, { filter });
      },
    },
    ...connectionTypes('Entity', 'A page of AI governance records.', 'A record in a page, with its cursor.'),
  ),
}));
