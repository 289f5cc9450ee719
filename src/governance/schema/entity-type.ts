/**
 * EntityType: a kind of record with its settings. Entities embed a reference (id, name, keys,
 * module); `type { name }` is answered from it without a call, and the full type is loaded (once per
 * request) only when a field beyond the reference is asked for.
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import type { Context } from '../../graph/context.js';
import { UpstreamError } from '../../core/errors.js';
import type { EntityTypeInformation, EntityTypeReference, EntityTypeSettings } from '../model.js';
import { NameOrder } from './common.js';
import { EntityKind, kindOf, typeDisplayName } from './kind.js';
import { EntityTypeRef } from './refs.js';
import { recordNode } from '../../graph/node.js';
import { connectionTypes, governanceList, uuidArg, uuidKey } from './validate.js';

type Shape = EntityTypeReference | EntityTypeInformation;

const isFull = (t: Shape): t is EntityTypeInformation => 'settings' in t;

export async function full(t: Shape, ctx: Context): Promise<EntityTypeInformation> {
  if (isFull(t)) return t;
  const loaded = await ctx.governance.loaders.entityType.load(t.id);
  if (!loaded)
    throw new UpstreamError('governance', 'not-found', 'The entity type this record refers to no longer exists.');
  return loaded;
}

/** A field only the full type holds: loads it (once per request) unless this already is the full type. */
function fromFull<K extends keyof EntityTypeInformation>(key: K) {
  return async (t: Shape, _args: unknown, ctx: Context) => (await full(t, ctx))[key] ?? null;
}

/** A field the embedded reference may already hold; loads the full type only when it does not. */
function fromReference<K extends keyof EntityTypeReference & keyof EntityTypeInformation>(key: K) {
  return async (t: Shape, _args: unknown, ctx: Context) =>
    (t[key] !== undefined ? t[key] : (await full(t, ctx))[key]) ?? null;
}

const EntityTypeSettingsRef = builder.objectRef<EntityTypeSettings>('EntityTypeSettings').implement({
  description: 'Which features are switched on for records of an entity type.',
  fields: (t) => {
    /** A switch the platform always sends. */
    const on = (name: Exclude<keyof EntityTypeSettings, 'enableAudit'>, description: string) =>
      t.exposeBoolean(name, { nullable: false, description });
    return {
      enableWorkflow: on('enableWorkflow', 'Records of this type move through a workflow of stages.'),
      enableWorkflowStageTracking: on('enableWorkflowStageTracking', 'Time spent in each workflow stage is tracked.'),
      enableAudit: t.exposeBoolean('enableAudit', {
        description: 'Changes to records of this type are audited (null when the platform does not say).',
      }),
      assessable: on('assessable', 'Records of this type can be assessed.'),
      enableTask: on('enableTask', 'Tasks can be attached to records of this type.'),
      enableRisk: on('enableRisk', 'Risks can be attached to records of this type.'),
      enableDocument: on('enableDocument', 'Documents can be attached to records of this type.'),
      enableControl: on('enableControl', 'Controls can be attached to records of this type.'),
      enableWebForm: on('enableWebForm', 'Records of this type can be created through a web form.'),
      enableComment: on('enableComment', 'Records of this type can be commented on.'),
    };
  },
});

EntityTypeRef.implement({
  description: 'A kind of record in the governance platform (its entity type), with its module and settings.',
  fields: (t) => ({
    name: t.exposeString('name', {
      nullable: false,
      description: "The entity type's name, e.g. `datasets`; also its schema name for the AI kinds.",
    }),
    kind: t.field({
      type: EntityKind,
      description: 'The AI governance kind of this type; null for types of other modules.',
      resolve: (type) => kindOf(type.name),
    }),
    displayName: t.string({
      nullable: false,
      description: 'A human name of the type for display, e.g. `AI System` for `aisystems`.',
      resolve: (type) => typeDisplayName(type.name),
    }),
    nameKey: t.string({ description: 'The localisation key of the name.', resolve: fromReference('nameKey') }),
    seeded: t.boolean({
      description: 'Whether the type is built into the platform (true) or was added by the tenant.',
      resolve: fromReference('seeded'),
    }),
    moduleName: t.string({
      description: 'The platform module the type belongs to, e.g. `AIGovernance`.',
      resolve: fromReference('moduleName'),
    }),
    schemaName: t.string({
      description: "The name of the schema that holds the type's attributes.",
      resolve: fromReference('schemaName'),
    }),
    description: t.string({ description: 'What records of this type are.', resolve: fromFull('description') }),
    descriptionKey: t.string({
      description: 'The localisation key of the description.',
      resolve: fromFull('descriptionKey'),
    }),
    enabled: t.boolean({
      description: 'Whether the type is switched on for the tenant.',
      resolve: fromFull('enabled'),
    }),
    moduleScopes: t.stringList({
      description: 'Codes of the modules that use this type, such as `AIG`, `DM` or `ITRM`.',
      resolve: async (type, _a, ctx) => (await full(type, ctx)).moduleScopes ?? [],
    }),
    workflowType: t.id({
      description: 'The uuid of the workflow records of this type move through; null when the type has no workflow.',
      resolve: fromFull('workflowType'),
    }),
    settings: t.field({
      type: EntityTypeSettingsRef,
      description: 'Which features are switched on for records of this type.',
      resolve: fromFull('settings'),
    }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When the type was created.',
      resolve: async (type, _a, ctx) => (await full(type, ctx)).auditFields?.createdDate ?? null,
    }),
    updatedAt: t.field({
      type: 'DateTime',
      description: 'When the type was last changed.',
      resolve: async (type, _a, ctx) => (await full(type, ctx)).auditFields?.lastUpdatedDate ?? null,
    }),
  }),
});

recordNode(EntityTypeRef, {
  permission: 'governance:read',
  key: (type) => type.id,
  databaseId: (type) => type.id,
  parse: uuidKey,
  load: (ids, ctx) => ctx.governance.loaders.entityType.loadMany(ids),
  what: "The entity type's uuid",
});

builder.queryFields((t) => ({
  entityType: t.field({
    ...requires('governance:read'),
    type: EntityTypeRef,
    description: 'One entity type by its id (global or uuid); null when there is none with that id.',
    args: { id: t.arg.id({ required: true, description: "The entity type's id, or its uuid (`databaseId`)." }) },
    resolve: (_root, args, ctx) => ctx.governance.loaders.entityType.load(uuidArg(args.id, 'id', ['EntityType'])),
  }),
  entityTypes: t.connection(
    {
      ...requires('governance:read'),
      type: EntityTypeRef,
      description: 'Entity types of the tenant, of every module, sorted by name.',
      args: {
        search: t.arg.string({
          description: "Full-text search over the types' names and descriptions (at most 500 characters).",
        }),
        moduleScope: t.arg.string({ description: 'Only types used by this module code, e.g. `AIG`.' }),
        enabled: t.arg.boolean({ description: 'Only types that are switched on (true) or off (false).' }),
        seeded: t.arg.boolean({ description: 'Only built-in types (true) or tenant-added ones (false).' }),
        orderBy: t.arg({ type: NameOrder, defaultValue: 'name,asc', description: 'The order of the list.' }),
      },
      resolve: (_root, args, { governance: scope }) => {
        const given = { 'moduleScopes.module': args.moduleScope, enabled: args.enabled, seeded: args.seeded };
        const filters = Object.entries(given)
          .filter(([, value]) => value != null)
          .map(([field, value]) => ({ field, operator: 'EQUAL_TO' as const, value: [value!] }));
        const criteria = { fullText: args.search ?? undefined, ...(filters.length ? { filters } : {}) };
        return governanceList(scope, 'entityTypes', args, (page) =>
          scope.client.searchEntityTypes(criteria, { ...page, sort: args.orderBy ?? 'name,asc' }),
        );
      },
    },
    ...connectionTypes('EntityType', 'A page of entity types.', 'An entity type in a page, with its cursor.'),
  ),
}));
