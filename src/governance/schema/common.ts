/**
 * Small shared governance types: users in audit fields, attribute values, search filters.
 */
import { decodeGlobalId } from '../../core/global-id.js';
import { badInput } from '../../graph/errors.js';
import { builder, type Types } from '../../graph/builder.js';
import type { Context } from '../../graph/context.js';
import { recordIds, valueIds } from '../../graph/node.js';
import type { AttributePredicate, AuditFields, BasicEntity } from '../model.js';
import { AttributeValueRef, EntityAttributeRef, EntityTypeRef, UserRef } from './refs.js';
import { OPTION_IDS } from './validate.js';

type Fields<Shape> = PothosSchemaTypes.ObjectFieldBuilder<Types, Shape>;

/**
 * `createdAt`, `updatedAt`, `createdBy` and `lastModifiedBy` of a record the platform audits, e.g.
 * `the link`, from what `audit` reads (the record's own fields, or the full record loaded; `users`
 * when the user references are needed, not only the dates).
 */
export const auditFields = <S>(
  t: Fields<S>,
  the: string,
  audit: (r: S, ctx: Context, users: boolean) => AuditFields | Promise<AuditFields>,
) => ({
  createdAt: t.field({
    nullable: false,
    type: 'DateTime',
    description: `When ${the} was created.`,
    resolve: async (r, _a, ctx) => (await audit(r, ctx, false)).createdDate,
  }),
  updatedAt: t.field({
    nullable: false,
    type: 'DateTime',
    description: `When ${the} was last changed.`,
    resolve: async (r, _a, ctx) => (await audit(r, ctx, false)).lastUpdatedDate,
  }),
  createdBy: t.field({
    type: UserRef,
    description: `Who created ${the}.`,
    resolve: async (r, _a, ctx) => (await audit(r, ctx, true)).createdBy ?? null,
  }),
  lastModifiedBy: t.field({
    type: UserRef,
    description: `Who last changed ${the}.`,
    resolve: async (r, _a, ctx) => (await audit(r, ctx, true)).lastModifiedBy ?? null,
  }),
});

/** `displayLabel` of a record in full (`Entity`) and in brief (`EntitySummary`). */
export const DISPLAY_LABEL_HELP = 'The number and the name as the platform shows them, e.g. `12 | Fraud Detector`.';

/** The fields a record shows in brief (`EntitySummary`); `Entity` has them too (entity.ts). */
export const recordFields = (t: Fields<Omit<BasicEntity, 'displayLabel'>>) => ({
  name: t.exposeString('name', { nullable: false, description: "The record's name." }),
  organizationId: t.exposeID('orgGroupId', {
    nullable: false,
    description: 'The uuid of the organization that owns the record.',
  }),
  schemaId: t.exposeID('schemaId', {
    nullable: false,
    description: "The uuid of the schema that defines the record's attributes.",
  }),
  type: t.expose('entityType', { nullable: false, type: EntityTypeRef, description: "The record's entity type." }),
});

UserRef.implement({
  description: 'A user of the governance platform, as recorded in audit fields.',
  fields: (t) => ({
    ...recordIds(t, 'GovernanceUser', (u) => u.id, "The user's uuid"),
    name: t.exposeString('name', { description: "The user's display name, when the platform has one." }),
    email: t.exposeString('email', { description: "The user's email address, when the platform has one." }),
    initials: t.exposeString('initials', { description: "The user's initials, when the platform has them." }),
  }),
});

export const AttributeGroup = builder.enumType('AttributeGroup', {
  description: 'Where an attribute of an entity comes from.',
  values: {
    BASE: { value: 'base', description: 'A seeded free-text attribute of the entity type, such as `description`.' },
    EXTENDED_BASE: {
      value: 'extended',
      description: 'A seeded option attribute of the entity type (its values are selected options with option keys).',
    },
    CUSTOM: {
      value: 'custom',
      description: 'An attribute a tenant added to the schema; its name is the generated field name.',
    },
  } as const,
});

AttributeValueRef.implement({
  description: 'One value of an attribute: a text, or a selected option.',
  fields: (t) => ({
    ...valueIds(t, 'AttributeValue', (v) => v.id, "The selected option's uuid (null for a free-text value)"),
    value: t.exposeString('value', { nullable: false, description: "The text, or the selected option's label." }),
    valueKey: t.exposeString('valueKey', {
      description: 'The localisation key of a selected option; null for a free-text value.',
    }),
    displayLabel: t.exposeString('displayLabel', { description: 'A label for display, when the platform sends one.' }),
    colorCode: t.exposeString('colorCode', { description: 'The colour of a selected option, when it has one.' }),
    disabled: t.exposeBoolean('disabled', {
      nullable: false,
      description: 'Whether the value (or its option) has been disabled.',
    }),
  }),
});

EntityAttributeRef.implement({
  description: 'An attribute of an entity with its values.',
  fields: (t) => ({
    name: t.exposeString('name', {
      nullable: false,
      description: "The attribute's field name, e.g. `description` or `type`.",
    }),
    group: t.expose('group', {
      nullable: false,
      type: AttributeGroup,
      description: 'Whether the attribute is seeded text, a seeded option attribute or a custom one.',
    }),
    values: t.expose('values', {
      nullable: false,
      type: [AttributeValueRef],
      description: "The attribute's values, in the upstream's order; empty when it has none.",
    }),
  }),
});

export const FilterOperator = builder.enumType('GovernanceFilterOperator', {
  description: 'How a filter compares a field with its values.',
  values: {
    EQUAL_TO: { description: 'The field equals one of the values.' },
    NOT_EQUAL_TO: { description: 'The field equals none of the values.' },
    GREATER_THAN: { description: 'The field is greater than the value.' },
    GREATER_THAN_EQUAL_TO: { description: 'The field is greater than or equal to the value.' },
    LESS_THAN: { description: 'The field is less than the value.' },
    LESS_THAN_EQUAL_TO: { description: 'The field is less than or equal to the value.' },
  } as const,
});

export const RecordFilter = builder.inputType('GovernanceRecordFilter', {
  description: 'A condition on a field of the records searched, e.g. `{ field: "type", values: ["<option uuid>"] }`.',
  fields: (t) => ({
    field: t.string({
      required: true,
      description: 'The field to test, e.g. `source` or `type` (option attributes take option uuids).',
    }),
    values: t.stringList({ required: true, description: 'The values to compare with.' }),
    operator: t.field({
      type: FilterOperator,
      defaultValue: 'EQUAL_TO',
      description: 'How to compare; equality by default.',
    }),
  }),
});

/** Dotted attribute paths such as `type`, `moduleScopes.module` or `attributeTextValue.value1_3`. */
const FILTER_FIELD = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*$/;

/** Checks filters before any upstream call (the upstream wants unique, well-formed predicates). */
export function toPredicates(
  filters: readonly { field: string; values: readonly string[]; operator?: string | null }[] | null | undefined,
): AttributePredicate[] | undefined {
  if (!filters?.length) return undefined;
  if (filters.length > 20) throw badInput('"filters" takes at most 20 conditions.', 'filters');
  const seen = new Set<string>();
  return filters.map((f, i) => {
    const at = `filters[${i}]`;
    if (f.field.length > 100 || !FILTER_FIELD.test(f.field)) {
      throw badInput(
        `"${at}.field" must be an attribute name such as "type" or "moduleScopes.module" (got "${f.field.slice(0, 60)}").`,
        `${at}.field`,
      );
    }
    if (f.values.length === 0 || f.values.length > 100)
      throw badInput(`"${at}.values" must hold from 1 to 100 values.`, `${at}.values`);
    if (f.values.some((v) => v.length === 0 || v.length > 500))
      throw badInput(`"${at}.values" must be non-empty strings of at most 500 characters.`, `${at}.values`);
    const operator = (f.operator ?? 'EQUAL_TO') as AttributePredicate['operator'];
    // An option may be named by the id of a value or an option that holds it.
    const values = f.values.map((v) => {
      const global = decodeGlobalId(v);
      return global && OPTION_IDS.some((t) => t === global.type) ? global.id : v;
    });
    const key = JSON.stringify([f.field, operator, [...values].sort()]);
    if (seen.has(key)) throw badInput(`"${at}" repeats an earlier condition.`, at);
    seen.add(key);
    return { field: f.field, operator, value: values };
  });
}

export const NameOrder = builder.enumType('GovernanceNameOrder', {
  description: 'The order of a list sorted by name.',
  values: {
    NAME_ASC: { value: 'name,asc', description: 'By name, A to Z (the default).' },
    NAME_DESC: { value: 'name,desc', description: 'By name, Z to A.' },
  } as const,
});
