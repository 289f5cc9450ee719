/**
 * Workflow stages: where a record stands (EntityStage, read from the record) and a stage as the
 * stage-assignment operation returns it (WorkflowStage), plus the `moveEntityToStage` mutation. The
 * third stage type, KnownWorkflowStage (the stages a picker offers), is in discovery.ts. Three types,
 * not one: each holds what its source gives, and a merged type would be mostly null fields.
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import { recordIds } from '../../graph/node.js';
import { badInput } from '../../graph/errors.js';
import { notFound } from '../../graph/delete-payload.js';
import { isUpstreamError } from '../../core/errors.js';
import { nameList } from './discovery.js';
import type { Context } from '../../graph/context.js';
import { EntityStageRef, WorkflowStageRef } from './refs.js';
import { nonEmptyArg, RECORD_IDS, uuidArg } from './validate.js';

const WorkflowMode = builder.enumType('WorkflowMode', {
  description: 'How a workflow is configured.',
  values: {
    BASIC: { description: 'A basic workflow: stages in sequence.' },
    ADVANCED: { description: 'An advanced workflow, with approvals, rules and exception stages.' },
  } as const,
});

EntityStageRef.implement({
  description:
    "Where one record stands: the stage it is in and the workflow that stage belongs to (`Entity.workflowStage`). Use it to show a record's stage. The stages a record could move to are `EntityType.workflow.stages` (KnownWorkflowStage); `moveEntityToStage` answers a WorkflowStage.",
  fields: (t) => ({
    ...recordIds(t, 'EntityStage', (s) => s.stageId, "The stage's uuid"),
    name: t.exposeString('stageName', { nullable: false, description: "The stage's name, e.g. `Ideation`." }),
    nameKey: t.exposeString('stageNameKey', { description: 'The localisation key of the stage name.' }),
    badgeColor: t.exposeString('badgeColor', {
      description: 'The badge colour the platform shows for the stage, e.g. `New`.',
    }),
    workflowId: t.exposeID('id', { nullable: false, description: 'The uuid of the workflow the stage belongs to.' }),
    workflowName: t.exposeString('name', {
      nullable: false,
      description: 'The name of the workflow, e.g. `Default Workflow`.',
    }),
    workflowType: t.exposeID('type', {
      nullable: false,
      description:
        "The workflow's type as the platform records it on the stage (a label such as `Vendor` on some tenants); `moveEntityToStage` takes the entity type's `workflowType` instead.",
    }),
    workflowMode: t.expose('workflowMode', {
      type: WorkflowMode,
      description: 'Whether the workflow is basic or advanced.',
    }),
  }),
});

WorkflowStageRef.implement({
  description:
    "A stage in full (sequence, approvals, approvers), as the platform describes it when `moveEntityToStage` moves a record into it; only that mutation returns it. A record's current stage is an EntityStage (`Entity.workflowStage`); the stages to offer in a picker are KnownWorkflowStage (`EntityType.workflow.stages`).",
  fields: (t) => ({
    ...recordIds(t, 'WorkflowStage', (s) => s.id, "The stage's uuid"),
    name: t.exposeString('name', { nullable: false, description: "The stage's name." }),
    nameKey: t.exposeString('nameKey', { description: 'The localisation key of the stage name.' }),
    description: t.exposeString('description', { description: 'What the stage means, when the workflow says.' }),
    sequence: t.exposeInt('sequence', {
      nullable: false,
      description: "The stage's position in its workflow, from 1.",
    }),
    badgeColor: t.exposeString('badgeColor', { description: 'The badge colour the platform shows for the stage.' }),
    approvalStage: t.exposeBoolean('approvalStage', { description: 'Whether entering the stage needs an approval.' }),
    exceptionStage: t.exposeBoolean('exceptionStage', { description: 'Whether the stage is an exception stage.' }),
    allowDeletion: t.exposeBoolean('allowDeletion', { description: 'Whether records in this stage may be deleted.' }),
    autoAdvanceOnApproval: t.exposeBoolean('autoAdvanceOnApproval', {
      description: 'Whether a record moves on by itself once approved.',
    }),
  }),
});

const MoveToStageInput = builder.inputType('MoveEntityToStageInput', {
  description: 'Which record to move, and to which stage of its workflow.',
  fields: (t) => ({
    entityId: t.id({ required: true, description: 'The uuid of the record to move.' }),
    nextStageName: t.string({ required: true, description: 'The name of the stage to move to, e.g. `Development`.' }),
    workflowType: t.id({ description: "The workflow type uuid; taken from the record's type when omitted." }),
    executeRule: t.boolean({ description: "Whether the workflow's rules run on the move." }),
  }),
});

/**
 * The workflow type uuid from the record's entity type. Not from `workflowAndStage.type`: the
 * platform fills that with a label such as `Vendor`, not the uuid the stage path takes.
 */
async function workflowTypeOf(entityId: string, ctx: Context): Promise<string | null> {
  const entity = await ctx.governance.loaders.entity.load(entityId);
  if (!entity) return null;
  const type = await ctx.governance.loaders.entityType.load(entity.entityType.id);
  if (!type?.workflowType)
    throw badInput(`Records of type "${entity.entityType.name}" have no workflow.`, 'input.entityId');
  return type.workflowType;
}

builder.mutationField('moveEntityToStage', (t) =>
  t.field({
    ...requires('governance:workflow'),
    type: WorkflowStageRef,
    description:
      "Moves a record to a named stage of its workflow and returns that stage; NOT_FOUND when there is no such record, and a stage the platform refuses is a BAD_USER_INPUT that lists the stages known for the record's type (see `EntityType.workflow`).",
    args: { input: t.arg({ type: MoveToStageInput, required: true, description: 'The record and the stage.' }) },
    resolve: async (_root, { input }, ctx) => {
      const entityId = uuidArg(input.entityId, 'input.entityId', RECORD_IDS);
      const nextStageName = nonEmptyArg(input.nextStageName, 'input.nextStageName');
      const given = input.workflowType != null ? uuidArg(input.workflowType, 'input.workflowType', []) : null;
      const workflowType = given ?? (await workflowTypeOf(entityId, ctx));
      if (!workflowType) throw notFound('record', 'input.entityId');
      const { client, loaders, discovery } = ctx.governance;
      const parameters = input.executeRule != null ? { executeRule: input.executeRule } : {};
      const typeName = async () => (await loaders.entity.load(entityId))?.entityType.name;
      let stage;
      try {
        stage = await client.moveToStage(entityId, workflowType, { nextStageName, parameters });
      } catch (error) {
        // The platform answers a stage it does not know (or may not move to) with a bare 400.
        if (!isUpstreamError(error) || error.kind !== 'bad-request') throw error;
        // The type's name only words the message better; its own failure is not this error.
        const name = await typeName().catch(() => undefined);
        const known = name ? discovery.workflowStages(name).map((s) => s.name) : [];
        throw badInput(
          `The workflow refused the stage "${nextStageName}"${name ? ` for ${name}` : ''}; known stages: ${nameList(known)}.`,
          'input.nextStageName',
        );
      }
      if (!stage) throw notFound('record', 'input.entityId');
      const name = await typeName().catch(() => undefined); // as above: only the wording
      if (name) discovery.observeStage(name, stage);
      loaders.forgetEntity(entityId);
      ctx.live.bus.entityChanged({ id: entityId, origin: 'gateway' });
      return stage;
    },
  }),
);
