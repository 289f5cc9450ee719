/**
 * Discovery for forms and pickers: `relationshipTypes`, `organizations`, `EntityType.workflow { stages }`
 * and the options of select attributes. Served from `../discovery.ts` (documented defaults,
 * configuration, and what any replica has seen upstream), never from a call of its own.
 */
import { requires } from '../../graph/auth.js';
import type { ObjectRef } from '@pothos/core';
import { builder, type Types } from '../../graph/builder.js';
import { recordIds, valueIds } from '../../graph/node.js';
import { lowerCaseValues } from '../../graph/enum-values.js';
import { badInput } from '../../graph/errors.js';
import { quotedList } from '../../core/errors.js';
import type { Context } from '../../graph/context.js';
import type {
  DiscoverySource as Source,
  KnownOption,
  KnownOrganization,
  KnownRelationshipType,
  KnownStage,
} from '../discovery.js';
import { full } from './entity-type.js';
import { EntityKind, kindOf } from './kind.js';
import { EntityTypeRef } from './refs.js';

const SOURCES =
  "Served by the gateway, not the governance API (which lists none of these): first its configuration (GOVERNANCE_DISCOVERY_FILE, the same on every replica from the start; the embedded emulators ship an example), then defaults from the platform's documentation, merged with what any replica has seen in upstream answers read with the gateway's own credential (shared through Redis when configured; with GOVERNANCE_AUTH_MODE=forward, answers read with a caller's credential teach nothing). `sources` says which, per item; no upstream call is made.";

const DiscoverySource = builder.enumType('DiscoverySource', {
  description: 'Where the gateway learned a discovered name.',
  values: lowerCaseValues({
    DOCUMENTED: "The platform's documentation (a default of the gateway).",
    CONFIGURED: "The gateway's configuration (GOVERNANCE_DISCOVERY_FILE).",
    OBSERVED: "An upstream answer the gateway has seen, read with the gateway's own credential.",
  }),
});

const RelationshipEnds = builder.objectRef<[string, string]>('RelationshipEnds').implement({
  description: 'A pair of entity types a relationship type may link, first end to second end.',
  fields: (t) => ({
    firstTypeName: t.string({
      nullable: false,
      description: 'The entity type name of the first end (the source), e.g. `aisystems`.',
      resolve: (e) => e[0],
    }),
    secondTypeName: t.string({
      nullable: false,
      description: 'The entity type name of the second end (the target), e.g. `models`.',
      resolve: (e) => e[1],
    }),
    firstKind: t.field({
      type: EntityKind,
      description: 'The kind of the first end; null outside AI governance (e.g. vendors).',
      resolve: (e) => kindOf(e[0]),
    }),
    secondKind: t.field({
      type: EntityKind,
      description: 'The kind of the second end; null outside AI governance.',
      resolve: (e) => kindOf(e[1]),
    }),
  }),
});

/** `sources` of a discovered name: where the gateway learned of it. */
const withSources = (ref: ObjectRef<Types, { sources: Source[] }>) =>
  builder.objectField(ref, 'sources', (t) =>
    t.expose('sources', { type: [DiscoverySource], nullable: false, description: 'Where the gateway learned of it.' }),
  );

const KnownRelationshipTypeRef = builder.objectRef<KnownRelationshipType>('KnownRelationshipType').implement({
  description: `A relationship (link) type a form can offer, with the kinds of record it may link. ${SOURCES}`,
  fields: (t) => ({
    name: t.exposeString('name', {
      nullable: false,
      description: "The type's name, e.g. `ai-system-composition`; `createLink` takes it as `relationshipType`.",
    }),
    ...valueIds(
      t,
      'KnownRelationshipType',
      (r) => r.id,
      "The type's uuid (the `linkTypeId` of its links), once configured or seen",
    ),
    forwardLabel: t.exposeString('forwardLabel', {
      description: 'The label read from the first end to the second, e.g. `is composed of`.',
    }),
    reverseLabel: t.exposeString('reverseLabel', { description: 'The label read from the second end to the first.' }),
    ends: t.expose('ends', {
      type: [RelationshipEnds],
      nullable: false,
      description: 'The pairs of entity types it may link.',
    }),
  }),
});
withSources(KnownRelationshipTypeRef);

const KnownStageRef = builder.objectRef<KnownStage>('KnownWorkflowStage').implement({
  description:
    "A stage of an entity type's workflow, for pickers: `moveEntityToStage` takes its `name`. Known from configuration and from what the gateway has seen (`sources`), so `id` and `sequence` may be missing. A record's current stage is an EntityStage (`Entity.workflowStage`); the stage a move answers is a WorkflowStage.",
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: "The stage's name, e.g. `Ideation`." }),
    ...valueIds(t, 'KnownWorkflowStage', (s) => s.id, "The stage's uuid, once seen"),
    sequence: t.exposeInt('sequence', {
      description:
        "The stage's position in the workflow, from 1: the configured order, or the platform's sequence seen after a move; null when only seen on records.",
    }),
  }),
});
withSources(KnownStageRef);

const WorkflowRef = builder.objectRef<{ stages: KnownStage[] }>('EntityTypeWorkflow').implement({
  description: `The workflow of an entity type, for pickers. ${SOURCES}`,
  fields: (t) => ({
    stages: t.expose('stages', {
      type: [KnownStageRef],
      nullable: false,
      description:
        'The known stages, in workflow order (configured, or seen after a move), then stages only seen on records, by name. `entities(stage:)` takes these names.',
    }),
  }),
});

const KnownOptionRef = builder.objectRef<KnownOption>('KnownAttributeOption').implement({
  description: 'An option a select attribute offers.',
  fields: (t) => ({
    option: t.exposeString('option', { nullable: false, description: "The option's label, e.g. `Audio`." }),
    ...valueIds(
      t,
      'KnownAttributeOption',
      (o) => o.id,
      "The option's uuid (what a filter or an attribute value takes), once configured or seen",
    ),
    optionKey: t.exposeString('optionKey', { description: 'The localisation key of the option, when seen.' }),
  }),
});
withSources(KnownOptionRef);

const SelectAttributeRef = builder
  .objectRef<{ name: string; options: KnownOption[] }>('KnownSelectAttribute')
  .implement({
    description: `A select attribute of an entity type with its options. ${SOURCES}`,
    fields: (t) => ({
      name: t.exposeString('name', { nullable: false, description: "The attribute's field name, e.g. `type`." }),
      options: t.expose('options', {
        type: [KnownOptionRef],
        nullable: false,
        description: 'The known options, by label.',
      }),
    }),
  });

/** `"a", "b", "c"`, or "none known yet". */
export function nameList(names: readonly string[]): string {
  return names.length === 0 ? 'none known yet' : quotedList(names, Number.POSITIVE_INFINITY);
}

builder.queryField('relationshipTypes', (t) =>
  t.field({
    ...requires('governance:read'),
    type: [KnownRelationshipTypeRef],
    nullable: false,
    description: `The relationship (link) types, with the kinds of record each may link. ${SOURCES}`,
    args: {
      kind: t.arg({
        type: EntityKind,
        description: 'Only the types that may link records of this kind (at either end).',
      }),
    },
    resolve: async (_root, args, ctx: Context) => {
      const all = (await ctx.governance.discovery.current()).relationshipTypes();
      return args.kind ? all.filter((r) => r.ends.some(([a, b]) => a === args.kind || b === args.kind)) : all;
    },
  }),
);

builder.objectFields(EntityTypeRef, (t) => ({
  workflow: t.field({
    type: WorkflowRef,
    description: `The workflow of records of this type, with its stages; null when the type has no workflow. ${SOURCES}`,
    resolve: async (type, _args, ctx) => {
      const stages = (await ctx.governance.discovery.current()).workflowStages(type.name);
      if (stages.length > 0) return { stages };
      const loaded = await full(type, ctx);
      return loaded.workflowType || loaded.settings?.enableWorkflow ? { stages } : null;
    },
  }),
  selectAttributes: t.field({
    type: [SelectAttributeRef],
    nullable: false,
    description: `The select attributes of this type with their options, for forms. ${SOURCES}`,
    resolve: async (type, _args, ctx) => {
      const d = await ctx.governance.discovery.current();
      return d
        .selectAttributes(type.name)
        .map((name) => ({ name, options: d.attributeOptions(type.name, name) ?? [] }));
    },
  }),
  attributeOptions: t.field({
    type: [KnownOptionRef],
    nullable: false,
    description: `The options of one select attribute of this type; an unknown attribute name is a BAD_USER_INPUT that lists the known ones. ${SOURCES}`,
    args: { name: t.arg.string({ required: true, description: "The attribute's field name, e.g. `type`." }) },
    resolve: async (type, args, ctx) => {
      const d = await ctx.governance.discovery.current();
      const options = d.attributeOptions(type.name, args.name);
      if (!options)
        throw badInput(
          `"${args.name}" is not a known select attribute of ${type.name}; known: ${nameList(d.selectAttributes(type.name))}.`,
          'name',
        );
      return options;
    },
  }),
}));

const OrganizationRef = builder.objectRef<KnownOrganization>('GovernanceOrganization').implement({
  description: `An organization of the governance tenant: records belong to one (\`organizationId\`), and \`createEntity\` takes one. ${SOURCES}`,
  fields: (t) => ({
    ...recordIds(t, 'GovernanceOrganization', (o) => o.id, "The organization's uuid (a record's `organizationId`)"),
    name: t.exposeString('name', {
      description: "The organization's name; null for one only seen as the owner of a record (the API names none).",
    }),
    parentId: t.exposeID('parentId', {
      description: 'The uuid of the parent organization; null at the root of the tree or when not configured.',
    }),
  }),
});
withSources(OrganizationRef);

builder.queryField('organizations', (t) =>
  t.field({
    ...requires('governance:read'),
    type: [OrganizationRef],
    nullable: false,
    description: `The organizations of the governance tenant, named ones by name first, then those only seen as the owners of records. ${SOURCES}`,
    resolve: async (_root, _args, ctx: Context) => (await ctx.governance.discovery.current()).organizations(),
  }),
);
