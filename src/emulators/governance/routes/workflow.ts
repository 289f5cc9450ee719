/**
 * Stage assignment: `{type}` must be the entity type's workflow type and `nextStageName` one of that
 * workflow's stages (any stage may be chosen; the seeded workflows have no transition rules). The
 * answer is the one stage object the entity now sits in.
 */
import { Hono } from 'hono';
import type { Env } from '../../kit/control.js';
import type { StageRequest } from '../../../governance/wire.js';
import { SCOPES } from '../auth.js';
import { invalid } from '../errors.js';
import { renderStage } from '../render.js';
import { objectBody, readJson, uuidParam, type RouteDeps } from '../validate.js';

export function workflowRoutes({ store, requireScopes }: RouteDeps) {
  const app = new Hono<Env>();

  app.post('/assignments/entities/:entityId/types/:type/stage', requireScopes(SCOPES.write), async (c) => {
    const entityId = uuidParam(c, 'entityId');
    const workflowType = uuidParam(c, 'type');
    const body = objectBody<StageRequest>(await readJson(c, true), 'body');
    if (typeof body.nextStageName !== 'string' || body.nextStageName.trim() === '')
      throw invalid('nextStageName is required');
    const record = store.entity(entityId);
    const workflow = store.typeByName(record.typeName)!.workflow;
    if (!workflow) throw invalid(`Entity type ${record.typeName} has no workflow`);
    if (workflow.type !== workflowType)
      throw invalid(`Workflow type ${workflowType} does not apply to ${record.typeName}`);
    const wantedName = body.nextStageName.trim().toLowerCase();
    const stage = workflow.stages.find((s) => s.name.toLowerCase() === wantedName);
    if (!stage) throw invalid(`Stage '${body.nextStageName}' is not a stage of ${workflow.name}`);
    record.stageId = stage.id;
    record.lastUpdatedDate = new Date().toISOString();
    record.lastModifiedBy = store.apiUser;
    return c.json(renderStage(stage));
  });

  return app;
}
