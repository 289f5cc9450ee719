/**
 * Schema attributes: adding an attribute to the schema of an entity type, and options to a select
 * attribute. Both return the whole attribute with all its options.
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import { recordIds, valueIds } from '../../graph/node.js';
import { badInput } from '../../graph/errors.js';
import { notFound } from '../../graph/delete-payload.js';
import type { AttributeOptionRequest } from '../model.js';
import { AttributeOptionRef, SchemaAttributeRef } from './refs.js';
import { nonEmptyArg, uuidArg } from './validate.js';

const RESPONSE_TYPES = {
  TEXT: { value: 'Text', description: 'Free text.' },
  SINGLE_SELECT: { value: 'SingleSelect', description: 'One option of a list.' },
  MULTI_SELECT: { value: 'MultiSelect', description: 'Several options of a list.' },
  DATE: { value: 'Date', description: 'A date.' },
  FORMULA: { value: 'Formula', description: 'A value computed by a formula.' },
  SCORE: { value: 'Score', description: 'A score.' },
  LEVEL: { value: 'Level', description: 'A level on a named scale.' },
  RANGE: { value: 'Range', description: 'A range of values.' },
} as const;
export const AttributeResponseType = builder.enumType('AttributeResponseType', {
  description: 'How an attribute is answered.',
  values: RESPONSE_TYPES,
});

AttributeOptionRef.implement({
  description: 'An option of a select attribute.',
  fields: (t) => ({
    ...valueIds(t, 'AttributeOption', (o) => o.id, "The option's uuid (the value an entity attribute stores)"),
    option: t.exposeString('option', { nullable: false, description: "The option's label." }),
    optionKey: t.exposeString('optionKey', { description: "The option's localisation key." }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether the option can be selected.' }),
  }),
});

const responseTypes = new Set<string>(Object.values(RESPONSE_TYPES).map((v) => v.value));

SchemaAttributeRef.implement({
  description: 'An attribute of a schema: its name, how it is answered and, for select attributes, its options.',
  fields: (t) => ({
    ...recordIds(t, 'SchemaAttribute', (a) => a.id, "The attribute's uuid"),
    name: t.exposeString('name', { nullable: false, description: "The attribute's name." }),
    nameKey: t.exposeString('nameKey', { description: 'The localisation key of the name.' }),
    description: t.exposeString('description', { description: 'What the attribute records.' }),
    fieldName: t.exposeString('fieldName', {
      nullable: false,
      description:
        'The generated field name under which records hold the attribute, e.g. `attributeTextValue.value1_3`.',
    }),
    responseType: t.field({
      type: AttributeResponseType,
      description: 'How the attribute is answered.',
      resolve: (a) => (a.responseType && responseTypes.has(a.responseType) ? a.responseType : null),
    }),
    options: t.field({
      nullable: false,
      type: [AttributeOptionRef],
      description: 'The options of a select attribute (empty for other types).',
      resolve: (a) => a.options ?? [],
    }),
    enabled: t.exposeBoolean('enabled', { nullable: false, description: 'Whether the attribute is switched on.' }),
    required: t.exposeBoolean('required', { description: 'Whether records must answer the attribute.' }),
    encrypted: t.exposeBoolean('encrypted', { description: 'Whether values are stored encrypted.' }),
    allowOther: t.exposeBoolean('allowOther', { description: 'Whether an answer outside the options is allowed.' }),
    schemaName: t.exposeString('schemaName', { description: 'The name of the schema the attribute belongs to.' }),
    schemaId: t.exposeID('schemaId', { description: 'The uuid of the schema the attribute belongs to.' }),
    maxSelectedOptions: t.int({
      description: 'How many options a multi-select answer may hold, when limited.',
      resolve: (a) => a.multiSelectMaxOptionValues ?? a.maxMultiSelectAllowedOptionValues ?? null,
    }),
    formula: t.exposeString('formula', { description: 'The formula of a formula attribute.' }),
    descriptionKey: t.exposeString('descriptionKey', { description: 'The localisation key of the description.' }),
    mappedFieldName: t.exposeString('mappedFieldName', {
      description:
        'The storage column the field name maps to, e.g. `attributeTextValue.value1`; null for select attributes.',
    }),
    readOnly: t.exposeBoolean('readOnly', { description: "Whether records may not change the attribute's value." }),
    baseAttribute: t.exposeBoolean('baseAttribute', {
      description: 'Whether the attribute is built into the entity type (false for attributes a tenant added).',
    }),
    hidden: t.exposeBoolean('hidden', { description: 'Whether the attribute is hidden from forms.' }),
    optionType: t.exposeString('optionType', {
      description:
        "Where a select attribute's options come from (`None`, `Static` or `Dynamic`; the platform may send them in lower case).",
    }),
    responseSubType: t.exposeString('responseSubType', {
      description: 'A finer kind of answer (`STANDARD`, `FORMULA` or `MATRIX`), when the platform sets one.',
    }),
    responseMaxLength: t.exposeInt('responseMaxLength', {
      description: 'The longest answer the attribute takes, in characters, when limited.',
    }),
    scoreLevelName: t.exposeString('scoreLevelName', {
      description: 'The name of the scale of a score or level attribute.',
    }),
    referenceCategoryIds: t.stringList({
      nullable: false,
      description: 'The reference categories the attribute draws on (empty when none).',
      resolve: (a) => a.referenceCategoryIds ?? [],
    }),
    metadata: t.exposeString('metadata', {
      description: 'Free-form metadata the platform keeps with the attribute (a JSON string).',
    }),
    createdBy: t.exposeString('createdBy', {
      description: 'Who created the attribute, as the platform names them (an email address or a user id).',
    }),
    createdAt: t.expose('createdTime', { type: 'DateTime', description: 'When the attribute was created.' }),
    lastModifiedBy: t.exposeString('lastModifiedBy', {
      description: 'Who last changed the attribute, as the platform names them.',
    }),
    updatedAt: t.expose('lastModifiedTime', { type: 'DateTime', description: 'When the attribute was last changed.' }),
  }),
});

const AttributeOptionInput = builder.inputType('AttributeOptionInput', {
  description: 'A new option of a select attribute.',
  fields: (t) => ({
    option: t.string({ required: true, description: "The option's label (1 to 255 characters)." }),
    optionKey: t.string({ description: "The option's localisation key." }),
  }),
});

const AddSchemaAttributeInput = builder.inputType('AddSchemaAttributeInput', {
  description: 'A new attribute of a schema.',
  fields: (t) => ({
    name: t.string({ required: true, description: "The attribute's name (1 to 255 characters)." }),
    responseType: t.field({
      type: AttributeResponseType,
      required: true,
      description: 'How the attribute is answered.',
    }),
    description: t.string({ description: 'What the attribute records (at most 1000 characters).' }),
    required: t.boolean({ description: 'Whether records must answer the attribute.' }),
    encrypted: t.boolean({ description: 'Whether values are stored encrypted.' }),
    allowOther: t.boolean({ description: 'Whether an answer outside the options is allowed.' }),
    options: t.field({ type: [AttributeOptionInput], description: 'The options of a select attribute.' }),
    maxSelectedOptions: t.int({ description: 'How many options a multi-select answer may hold (1 to 100).' }),
    formula: t.string({ description: 'The formula of a formula attribute.' }),
  }),
});

function optionsArg(
  list: readonly { option: string; optionKey?: string | null }[],
  argument: string,
): AttributeOptionRequest[] {
  return list.map((o, i) => ({
    option: nonEmptyArg(o.option, `${argument}[${i}].option`),
    ...(o.optionKey ? { optionKey: o.optionKey } : {}),
  }));
}

builder.mutationFields((t) => ({
  addSchemaAttribute: t.field({
    ...requires('governance:write'),
    type: SchemaAttributeRef,
    description: 'Adds an attribute to a schema (e.g. `datasets`) and returns it with its generated field name.',
    args: {
      schemaName: t.arg.string({
        required: true,
        description: 'The schema to add to: for the AI kinds, the entity type name such as `datasets`.',
      }),
      input: t.arg({ type: AddSchemaAttributeInput, required: true, description: 'The new attribute.' }),
    },
    resolve: async (_root, { schemaName, input }, ctx) => {
      const schema = nonEmptyArg(schemaName, 'schemaName', 100);
      if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(schema))
        throw badInput(
          `"schemaName" must be a schema name such as "datasets" (got "${schema.slice(0, 60)}").`,
          'schemaName',
        );
      const max = input.maxSelectedOptions;
      if (max != null && (max < 1 || max > 100))
        throw badInput('"input.maxSelectedOptions" must be between 1 and 100.', 'input.maxSelectedOptions');
      if (input.description != null && input.description.length > 1000)
        throw badInput('"input.description" must be at most 1000 characters long.', 'input.description');
      const responseType = input.responseType;
      const selectable = responseType === 'SingleSelect' || responseType === 'MultiSelect';
      const body = {
        name: nonEmptyArg(input.name, 'input.name'),
        responseType,
        ...(input.description != null ? { description: input.description } : {}),
        ...(input.required != null ? { required: input.required } : {}),
        ...(input.encrypted != null ? { encrypted: input.encrypted } : {}),
        ...(input.allowOther != null ? { allowOther: input.allowOther } : {}),
        ...(input.options ? { options: optionsArg(input.options, 'input.options') } : {}),
        ...(max != null ? { maxMultiSelectAllowedOptionValues: max } : {}),
        ...(input.formula != null ? { formula: input.formula } : {}),
        optionType: selectable ? 'Static' : 'None',
      };
      const attribute = await ctx.governance.client.addSchemaAttribute(schema, body);
      return attribute;
    },
  }),
  addAttributeOptions: t.field({
    ...requires('governance:write'),
    type: SchemaAttributeRef,
    description:
      'Adds options to a select attribute and returns the attribute with all its options; NOT_FOUND when there is no such attribute.',
    args: {
      attributeId: t.arg.id({ required: true, description: "The attribute's uuid." }),
      options: t.arg({ type: [AttributeOptionInput], required: true, description: 'The options to add.' }),
    },
    resolve: async (_root, args, ctx) => {
      const attributeId = uuidArg(args.attributeId, 'attributeId', ['SchemaAttribute']);
      if (args.options.length === 0) throw badInput('Give at least one option.', 'options');
      const attribute = await ctx.governance.client.addAttributeOptions(
        attributeId,
        optionsArg(args.options, 'options'),
      );
      if (!attribute) throw notFound('attribute', 'attributeId');
      return attribute;
    },
  }),
}));
