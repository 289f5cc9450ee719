/**
 * Deterministic seed data: the same `seed` always yields the same tenant (ids, names, numbers, stages,
 * links), so tests can compute expectations with `buildSeed(seed)` instead of hard-coding them.
 */
import { createRng, type Rng } from '../kit/random.js';
import type { AiEntityTypeName, UserReference } from '../../governance/wire.js';
import {
  ATTRIBUTES,
  LINK_TYPES,
  NAME_PARTS,
  ORGANIZATIONS,
  STAGE_BADGES,
  STAGES,
  TYPE_DEFINITIONS,
  USERS,
} from './catalog.js';
import type { CustomAttributeRecord, EntityRecord, EntityTypeRecord, GovernanceData } from './records.js';
import type { LinkRecord, LinkTypeRecord, Organization } from './records.js';

export const DEFAULT_SEED = 20260301;

/** Records per kind, deleted tombstones included (the number visible is this minus `DELETED`). */
export const SEED_COUNTS = { models: 80, datasets: 42, aisystems: 62, aiagents: 26, vendors: 12 } as const;
const DELETED = { models: 2, datasets: 1, aisystems: 1, aiagents: 1, vendors: 0 } as const;

const BASE_TIME = Date.parse('2024-03-01T08:00:00.000Z');
const DAY = 86_400_000;

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const keyPart = (s: string) => s.replace(/[^A-Za-z0-9-]/g, '');

export function buildSeed(seed: number = DEFAULT_SEED): GovernanceData {
  const rng = createRng(seed);
  const at = (fromDays: number, spanDays: number) =>
    new Date(BASE_TIME + (fromDays + rng.next() * spanDays) * DAY).toISOString();

  const organizations: Organization[] = [];
  for (const org of ORGANIZATIONS) {
    const parent = organizations.find((o) => o.name === org.parent);
    organizations.push({ id: rng.uuid(), name: org.name, parentId: parent?.id ?? null });
  }
  const users: UserReference[] = USERS.map((u) => ({ id: rng.uuid(), ...u }));

  const entityTypes: EntityTypeRecord[] = TYPE_DEFINITIONS.map((def) => {
    const id = rng.uuid();
    const stem = capital(def.name);
    const attributes = (ATTRIBUTES[def.name as AiEntityTypeName] ?? []).map((a) => ({
      field: a.field,
      options: a.options?.map((value) => ({
        id: rng.uuid(),
        value,
        valueKey: `CE.${stem}.Attribute.${capital(a.field)}.Option.${keyPart(value)}`,
      })),
    }));
    const workflow = def.workflow
      ? {
          id: rng.uuid(),
          name: 'Default Workflow',
          nameKey: `CE.${stem}.Workflow.Name`,
          type: id,
          stages: STAGES.map((name, i) => ({
            id: rng.uuid(),
            name,
            nameKey: `CE.Workflow.${stem}.Stage.${name}`,
            sequence: i + 1,
            badgeColor: STAGE_BADGES[i] ?? 'New',
          })),
        }
      : null;
    const createdDate = at(-400, 30);
    return {
      id,
      name: def.name,
      nameKey: `CE.${def.key}.Name`,
      description: def.description,
      descriptionKey: `CE.${def.key}.Description`,
      moduleName: def.moduleName,
      moduleScopes: def.moduleScopes,
      seeded: def.on,
      enabled: def.on,
      schemaId: rng.uuid(),
      workflow,
      attributes,
      createdDate,
      lastUpdatedDate: at(-300, 200),
    };
  });

  const customAttributes: CustomAttributeRecord[] = [
    riskTierAttribute(
      rng,
      entityTypes.find((t) => t.name === 'models')!,
    ),
  ];

  const entities: EntityRecord[] = [];
  for (const typeName of Object.keys(SEED_COUNTS) as Array<keyof typeof SEED_COUNTS>) {
    const type = entityTypes.find((t) => t.name === typeName)!;
    const names = uniqueNames(rng, typeName, SEED_COUNTS[typeName]);
    let number = 0;
    names.forEach((name, i) => {
      number = i === 0 ? 1 : number + (rng.chance(0.12) ? rng.int(2, 3) : 1); // per type, with the gaps deletions leave
      const createdDate = at(0, 540);
      const creator = rng.pick(users);
      const record: EntityRecord = {
        id: rng.uuid(),
        typeName,
        number,
        name,
        orgGroupId: rng.chance(0.55) ? organizations[0]!.id : rng.pick(organizations.slice(1)).id,
        text: {},
        options: {},
        custom: {},
        stageId:
          type.workflow && typeName !== 'vendors'
            ? rng.pick(type.workflow.stages.slice(0, 5).concat(type.workflow.stages)).id
            : null,
        deleted: i >= names.length - DELETED[typeName],
        createdDate,
        lastUpdatedDate: new Date(
          Date.parse(createdDate) + rng.int(0, 90) * DAY + rng.int(0, 86_399_999),
        ).toISOString(),
        createdBy: creator,
        lastModifiedBy: rng.chance(0.6) ? creator : rng.pick(users),
      };
      fillAttributes(rng, record, type);
      if (typeName === 'models' && rng.chance(0.4)) {
        const option = rng.pick(customAttributes[0]!.options);
        record.custom[customAttributes[0]!.fieldName] = [
          { id: option.id ?? null, value: option.option, valueKey: option.optionKey ?? '', disabled: false },
        ];
      }
      entities.push(record);
    });
  }

  const linkTypes: LinkTypeRecord[] = LINK_TYPES.map((def) => ({
    id: rng.uuid(),
    name: def.name,
    nameKey: `${def.keyStem}.Name`,
    schemaId: rng.uuid(),
    description: def.description,
    descriptionKey: `${def.keyStem}.Description`,
    seeded: def.seeded,
    moduleName: 'CustomEntityManagement',
    labelId: def.labelId,
    forward: def.forward,
    forwardKey: `${def.keyStem}.ForwardLabel`,
    backward: def.backward,
    backwardKey: `${def.keyStem}.BackwardLabel`,
    associations: def.associations,
    createdDate: at(-380, 10),
  }));

  return {
    tenantGuid: rng.uuid(),
    organizations,
    users,
    entityTypes,
    entities,
    linkTypes,
    links: seedLinks(rng, entities, linkTypes, users),
    customAttributes,
  };
}

function uniqueNames(rng: Rng, typeName: keyof typeof NAME_PARTS, count: number): string[] {
  const parts = NAME_PARTS[typeName];
  if (typeName === 'vendors') return parts.first.slice(0, count);
  const names = new Set<string>();
  while (names.size < count) {
    const base = `${rng.pick(parts.first)} ${rng.pick(parts.second)}`.trim();
    names.add(parts.versions ? `${base} v${rng.int(1, 5)}` : names.has(base) ? `${base} ${rng.int(2, 9)}` : base);
  }
  const list = [...names];
  // One deliberate duplicate name among datasets: ordering must then fall back to the id.
  if (typeName === 'datasets' && list.length > 3) list[3] = list[2]!;
  return list;
}

function fillAttributes(rng: Rng, record: EntityRecord, type: EntityTypeRecord): void {
  for (const attribute of type.attributes) {
    if (attribute.options) {
      if (!rng.chance(0.85)) continue;
      const chosen = rng.pick(attribute.options);
      record.options[attribute.field] = [
        { id: chosen.id, value: chosen.value, valueKey: chosen.valueKey, disabled: false },
      ];
    } else {
      const value = textValue(rng, attribute.field, record.name);
      if (value !== null) record.text[attribute.field] = [{ id: null, value, disabled: false }];
    }
  }
}

function textValue(rng: Rng, field: string, name: string): string | null {
  switch (field) {
    case 'description':
      return `${name}: ${rng.pick(['maintained by the data science team', 'under review by the AI council', 'used in production workloads', 'pilot in one business unit'])}.`;
    case 'modelVersion':
      return `${rng.int(1, 4)}.${rng.int(0, 9)}.${rng.int(0, 20)}`;
    case 'datasetVersion':
      return String(rng.int(1, 12));
    case 'annotation':
      return rng.chance(0.5) ? `Labelled by ${rng.pick(['vendor', 'internal team', 'crowd workers'])}` : null;
    case 'limitations':
      return rng.chance(0.5) ? 'Not validated for minors or non-English input.' : null;
    case 'purpose':
      return `Supports ${name.toLowerCase()} decisions.`;
    case 'instructions':
      return 'Act only on records of the requesting user; escalate anything ambiguous.';
    default:
      return null;
  }
}

/** Links: every AI system 2–8 (models drawn with a skew so many systems share the same few). */
function seedLinks(
  rng: Rng,
  entities: EntityRecord[],
  linkTypes: LinkTypeRecord[],
  users: UserReference[],
): LinkRecord[] {
  const of = (t: string, includeDeleted = false) =>
    entities.filter((e) => e.typeName === t && (includeDeleted || !e.deleted));
  const [composition, training, usage, sourcing] = linkTypes as [
    LinkTypeRecord,
    LinkTypeRecord,
    LinkTypeRecord,
    LinkTypeRecord,
  ];
  const models = of('models'),
    datasets = of('datasets'),
    agents = of('aiagents'),
    vendors = of('vendors'),
    systems = of('aisystems');
  const skewed = <T>(items: T[]) => items[Math.floor(rng.next() ** 2 * items.length)]!;
  const links: LinkRecord[] = [];
  const seen = new Set<string>();
  const degree = new Map<string, number>();
  const full = (e: EntityRecord) => e.typeName === 'aisystems' && (degree.get(e.id) ?? 0) >= 8; // 2–8 links per AI system
  const add = (type: LinkTypeRecord, a: EntityRecord, b: EntityRecord) => {
    const key = `${type.id}:${[a.id, b.id].sort().join(':')}`;
    if (a.id === b.id || seen.has(key) || full(a) || full(b)) return;
    seen.add(key);
    for (const e of [a, b]) degree.set(e.id, (degree.get(e.id) ?? 0) + 1);
    const createdDate = new Date(
      Math.max(Date.parse(a.createdDate), Date.parse(b.createdDate)) + rng.int(1, 20) * DAY,
    ).toISOString();
    links.push({
      id: rng.uuid(),
      linkTypeId: type.id,
      entity1Id: a.id,
      entity2Id: b.id,
      createdDate,
      lastUpdatedDate: createdDate,
      createdBy: rng.pick(users),
    });
  };

  for (const system of systems) {
    const target = rng.int(2, 8);
    for (let guard = 0; (degree.get(system.id) ?? 0) < target && guard < 40; guard++) {
      const roll = rng.next();
      if (roll < 0.5) add(composition, system, skewed(models));
      else if (roll < 0.7) add(composition, system, rng.pick(datasets));
      else if (roll < 0.82) add(composition, system, rng.pick(agents));
      else if (roll < 0.92) add(sourcing, system, rng.pick(vendors));
      else add(composition, system, rng.pick(systems));
    }
  }
  for (const model of models) {
    for (let i = rng.int(0, 3); i > 0; i--) add(training, model, rng.pick(datasets));
    if (rng.chance(0.35)) add(sourcing, model, rng.pick(vendors));
  }
  for (const agent of agents) for (let i = rng.int(1, 2); i > 0; i--) add(usage, agent, skewed(models));
  // A few links whose other end has since been deleted (the platform keeps them, marked deleted).
  const gone = entities.filter((e) => e.deleted && (e.typeName === 'models' || e.typeName === 'datasets'));
  gone.forEach((e, i) =>
    add(e.typeName === 'models' ? composition : training, e.typeName === 'models' ? systems[i]! : models[i]!, e),
  );
  return links;
}

function riskTierAttribute(rng: Rng, models: EntityTypeRecord): CustomAttributeRecord {
  const created = new Date(BASE_TIME - 200 * DAY).toISOString();
  return {
    id: rng.uuid(),
    name: 'Risk Tier',
    nameKey: `Attributes.${rng.uuid().replace(/-/g, '').slice(0, 26)}`,
    description: 'Internal risk tier of the model',
    descriptionKey: `Attributes.${rng.uuid().replace(/-/g, '').slice(0, 26)}`,
    fieldName: 'attributeSingleSelectValue.value1_1',
    mappedFieldName: null,
    enabled: true,
    required: false,
    readOnly: false,
    encrypted: false,
    allowOther: false,
    baseAttribute: false,
    responseType: 'SingleSelect',
    formula: null,
    optionType: 'none',
    optionAllowed: true,
    schemaId: models.schemaId,
    schemaName: 'models',
    options: ['High', 'Low', 'Medium'].map((option) => ({
      id: rng.uuid(),
      option,
      optionKey: `OneTrustApp.OM.CustomEntity.Attributes.${rng.uuid()}`,
      enabled: true,
    })),
    responseMaxLength: 400,
    source: null,
    responseSubType: null,
    multiSelectMaxOptionValues: 1,
    hidden: false,
    abacBasicAssignmentInfo: null,
    associatedAttributeFieldName: null,
    createdBy: 'admin@acme.example',
    createdTime: created,
    lastModifiedBy: 'admin@acme.example',
    lastModifiedTime: created,
  };
}
