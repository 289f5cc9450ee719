/**
 * What the governance API cannot list (relationship types, workflow stages, attribute options), as
 * the tenant's administrator describes it: an optional JSON file named by GOVERNANCE_DISCOVERY_FILE.
 * The platform's documented defaults apply without it (see `src/governance/discovery.ts`); what the
 * gateway sees in upstream answers is merged in at run time. Problems are reported like any other
 * configuration problem, before the server starts.
 *
 * {
 *   "relationshipTypes": [{ "name": "model-training-data", "id": "<uuid>", "forwardLabel": "is trained on",
 *                           "reverseLabel": "trains", "ends": [["models", "datasets"]] }],
 *   "workflows": { "models": ["Ideation", "Development", "Testing"] },
 *   "attributeOptions": { "datasets": { "type": ["Audio", "Image"] } }
 * }
 */
import { readFileSync } from 'node:fs';

export interface ConfiguredRelationshipType {
  name: string;
  id?: string;
  forwardLabel?: string;
  reverseLabel?: string;
  /** Pairs of entity type names: [first end, second end]. */
  ends: [string, string][];
}

export interface DiscoveryConfig {
  relationshipTypes: ConfiguredRelationshipType[];
  /** Stage names in order, by entity type name. */
  workflows: Record<string, string[]>;
  /** Option labels by entity type name, then attribute field name. */
  attributeOptions: Record<string, Record<string, string[]>>;
}

export const emptyDiscovery = (): DiscoveryConfig => ({ relationshipTypes: [], workflows: {}, attributeOptions: {} });

const isStrings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === 'string' && s.trim() !== '');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function readDiscoveryConfig(file: string | undefined, problems: string[]): DiscoveryConfig {
  const out = emptyDiscovery();
  if (!file) return out;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    problems.push(
      `GOVERNANCE_DISCOVERY_FILE: cannot read ${file} as JSON (${(error as Error).message.split('\n')[0]}).`,
    );
    return out;
  }
  const bad = (what: string) => problems.push(`GOVERNANCE_DISCOVERY_FILE: ${what}.`);
  if (!isObject(raw)) {
    bad('the file must hold a JSON object');
    return out;
  }
  const types = raw.relationshipTypes ?? [];
  if (!Array.isArray(types)) bad('"relationshipTypes" must be a list');
  else {
    types.forEach((t, i) => {
      const ok =
        isObject(t) &&
        typeof t.name === 'string' &&
        t.name.trim() !== '' &&
        Array.isArray(t.ends) &&
        t.ends.every((e) => isStrings(e) && e.length === 2);
      const optional = (k: string) => !isObject(t) || t[k] === undefined || typeof t[k] === 'string';
      if (!ok || !optional('id') || !optional('forwardLabel') || !optional('reverseLabel')) {
        bad(
          `relationshipTypes[${i}] needs a "name" and "ends" (pairs of entity type names); "id" and the labels are strings`,
        );
      } else {
        out.relationshipTypes.push({
          name: t.name as string,
          id: t.id as string | undefined,
          forwardLabel: t.forwardLabel as string | undefined,
          reverseLabel: t.reverseLabel as string | undefined,
          ends: t.ends as [string, string][],
        });
      }
    });
  }
  const workflows = raw.workflows ?? {};
  if (!isObject(workflows)) bad('"workflows" must map entity type names to lists of stage names');
  else
    for (const [type, stages] of Object.entries(workflows)) {
      if (isStrings(stages)) out.workflows[type] = stages;
      else bad(`workflows.${type} must be a list of stage names`);
    }
  const options = raw.attributeOptions ?? {};
  if (!isObject(options)) bad('"attributeOptions" must map entity type names to attributes to lists of options');
  else
    for (const [type, attributes] of Object.entries(options)) {
      if (!isObject(attributes)) {
        bad(`attributeOptions.${type} must map attribute names to lists of options`);
        continue;
      }
      out.attributeOptions[type] = {};
      for (const [name, list] of Object.entries(attributes)) {
        if (isStrings(list)) out.attributeOptions[type][name] = list;
        else bad(`attributeOptions.${type}.${name} must be a list of option labels`);
      }
    }
  return out;
}
