/**
 * Checks of the filters on governance lists against what discovery knows (configuration first, then
 * what any replica has seen): a stage name, a filter field or an option that is not known is
 * BAD_USER_INPUT listing the known ones, before any upstream call, never a silently empty list.
 */
import { badInput } from '../../graph/errors.js';
import {
  AI_ENTITY_TYPE_NAMES,
  type AiEntityTypeName,
  type AttributePredicate,
  type EntityInformation,
} from '../model.js';
import type { GovernanceScope } from '../service.js';
import { nameKey } from '../discovery.js';
import { nameList } from './discovery.js';
import { typeDisplayName } from './kind.js';

const kindsOf = (kind: AiEntityTypeName | null | undefined) => (kind ? [kind] : [...AI_ENTITY_TYPE_NAMES]);
const recordsOf = (kind: AiEntityTypeName | null | undefined) =>
  kind ? `${typeDisplayName(kind)} records` : 'AI governance records';
const unique = (names: string[]) => [...new Map(names.map((n) => [nameKey(n), n])).values()];

/**
 * The stages asked for (`stage` or `stages`), checked against the known workflow stages of the kind
 * (of every kind when none is given); the records' test, or undefined without a stage filter.
 */
export async function stageFilter(
  scope: GovernanceScope,
  kind: AiEntityTypeName | null | undefined,
  stage: string | null | undefined,
  stages: readonly string[] | null | undefined,
): Promise<((e: EntityInformation) => boolean) | undefined> {
  if (stage != null && stages != null) throw badInput('Give "stage" or "stages", not both.', 'stages');
  const argument = stage != null ? 'stage' : 'stages';
  const wanted = stage != null ? [stage] : stages;
  if (wanted == null) return undefined;
  if (wanted.length === 0 || wanted.length > 20) throw badInput('"stages" takes from 1 to 20 stage names.', argument);
  const discovery = await scope.discovery.current();
  const known = unique(kindsOf(kind).flatMap((k) => discovery.workflowStages(k).map((s) => s.name)));
  const knownKeys = new Set(known.map(nameKey));
  for (const name of wanted)
    if (!knownKeys.has(nameKey(name)))
      throw badInput(
        `"${name.slice(0, 60)}" is not a known workflow stage of ${recordsOf(kind)}; known stages: ${nameList(known)}.`,
        argument,
      );
  const keys = new Set(wanted.map(nameKey));
  return (e) => keys.has(nameKey(e.workflowAndStage?.stageName ?? ''));
}

/**
 * Filter fields are the select attributes known for the kind (of every kind when none is given), and
 * where every known option of one has its uuid, the values must be among them.
 */
export async function checkRecordFilters(
  scope: GovernanceScope,
  kind: AiEntityTypeName | null | undefined,
  predicates: readonly AttributePredicate[] | undefined,
): Promise<void> {
  if (!predicates?.length) return;
  const discovery = await scope.discovery.current();
  const kinds = kindsOf(kind);
  const fields = [...new Set(kinds.flatMap((k) => discovery.selectAttributes(k)))].sort();
  predicates.forEach((p, i) => {
    if (!fields.includes(p.field)) {
      const hint = /stage/i.test(p.field) ? ' (a workflow stage is the "stage" argument)' : '';
      throw badInput(
        `"${p.field}" is not a filter field of ${recordsOf(kind)}${hint}; known: ${nameList(fields)}.`,
        `filters[${i}].field`,
      );
    }
    const options = kinds.flatMap((k) => discovery.attributeOptions(k, p.field) ?? []);
    if (options.length === 0 || options.some((o) => !o.id)) return;
    const ids = new Set(options.map((o) => o.id!.toLowerCase()));
    const wrong = (Array.isArray(p.value) ? p.value : [p.value]).find((v) => !ids.has(String(v).toLowerCase()));
    if (wrong !== undefined)
      throw badInput(
        `"${String(wrong).slice(0, 60)}" is not an option of "${p.field}"; it takes option uuids: ${options.map((o) => `"${o.option}" ${o.id}`).join(', ')}.`,
        `filters[${i}].values`,
      );
  });
}
