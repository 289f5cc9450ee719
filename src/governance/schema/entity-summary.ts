/**
 * EntitySummary: the light search over records of every AI kind (number, name, display label, type,
 * organization), with organization traversal; `entity` leads to the full record when needed.
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import { recordIds } from '../../graph/node.js';
import { DISPLAY_LABEL_HELP, NameOrder, recordFields, RecordFilter, toPredicates } from './common.js';
import { EntityKind, kindOf } from './kind.js';
import { EntityRef, EntitySummaryRef } from './refs.js';
import { checkRecordFilters } from './filters.js';
import { connectionTypes, governanceList, ORGANIZATION_IDS, uuidArg } from './validate.js';

const OrganizationTraversal = builder.enumType('GovernanceOrganizationTraversal', {
  description:
    "Which organizations' records a search covers, relative to the organization it looks from (`organizationId`, else the caller's).",
  values: {
    ANCESTORS_AND_DESCENDANTS: { description: "The caller's organization, its parents and its children." },
    DESCENDANTS: { description: "The caller's organization and its children." },
    ALL: { description: 'Every organization of the tenant.' },
  } as const,
});

EntitySummaryRef.implement({
  description: 'The basic details of an AI governance record, as the light search returns them.',
  fields: (t) => ({
    ...recordIds(t, 'EntitySummary', (e) => e.id, "The record's uuid (`Entity.databaseId`)"),
    number: t.exposeInt('number', { nullable: false, description: "The record's sequence number." }),
    displayLabel: t.exposeString('displayLabel', { nullable: false, description: DISPLAY_LABEL_HELP }),
    kind: t.field({
      type: EntityKind,
      description: "The record's AI governance kind.",
      resolve: (e) => kindOf(e.entityType?.name),
    }),
    entity: t.field({
      type: EntityRef,
      description: 'The full record (one upstream read per record, shared within the request).',
      resolve: (e, _a, ctx) => ctx.governance.loaders.entity.load(e.id),
    }),
    ...recordFields(t),
  }),
});

builder.queryField('entitySummaries', (t) =>
  t.connection(
    {
      ...requires('governance:read'),
      type: EntitySummaryRef,
      description:
        'A light search over records of every AI kind, returning basic details only; cheaper than `entities` for pickers and look-ups.',
      args: {
        search: t.arg.string({ description: 'Full-text search over the records (at most 500 characters).' }),
        filters: t.arg({
          type: [RecordFilter],
          description:
            'Conditions on option attributes of the records; all must hold. A field that is not a known select attribute of any kind, or an option uuid it does not offer, is BAD_USER_INPUT listing the known ones.',
        }),
        organizationTraversal: t.arg({
          type: OrganizationTraversal,
          description:
            "Which organizations' records to include, relative to `organizationId`; the platform's default when omitted.",
        }),
        organizationId: t.arg.id({
          description:
            "The organization (uuid) the search looks from, in place of the credential's own; `organizationTraversal` widens or narrows the view from there.",
        }),
        orderBy: t.arg({ type: NameOrder, defaultValue: 'name,asc', description: 'The order of the list.' }),
      },
      resolve: async (_root, args, { governance: scope }) => {
        const organizationId =
          args.organizationId == null ? undefined : uuidArg(args.organizationId, 'organizationId', ORGANIZATION_IDS);
        const request = {
          criteria: { fullText: args.search ?? undefined, filters: toPredicates(args.filters) },
          ...(args.organizationTraversal ? { organizationTraversalStrategy: args.organizationTraversal } : {}),
          ...(organizationId ? { requestedOrganizationId: organizationId } : {}),
        };
        await checkRecordFilters(scope, undefined, request.criteria.filters);
        return governanceList(scope, 'entitySummaries', args, (page) =>
          scope.client.searchEntitySummaries(request, { ...page, sort: args.orderBy ?? 'name,asc' }),
        );
      },
    },
    ...connectionTypes('EntitySummary', 'A page of record summaries.', 'A record summary in a page, with its cursor.'),
  ),
);
