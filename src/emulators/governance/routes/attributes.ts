/**
 * Schema attributes: add a custom attribute to one AI kind's schema, and add options to a select
 * attribute. The server generates `fieldName` (`attributeTextValue.value2_7`: per-type slot, then a
 * tenant-wide sequence) and returns options sorted alphabetically, as the platform's examples do.
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import type { Env } from '../../kit/control.js';
import type {
  AttributeCreateRequest,
  AttributeOptionRequest,
  AttributeResponseType,
} from '../../../governance/wire.js';
import { SCOPES } from '../auth.js';
import { invalid, notFound } from '../errors.js';
import type { CustomAttributeRecord } from '../records.js';
import { isAiKind } from '../store.js';
import { readJson, uuidQuery, objectBody, type RouteDeps } from '../validate.js';

const FIELD_STEMS: Record<AttributeResponseType, string> = {
  Text: 'attributeTextValue.value',
  SingleSelect: 'attributeSingleSelectValue.value',
  MultiSelect: 'attributeMultiSelectValue.valueId',
  Date: 'attributeDateValue.value',
  Formula: 'attributeFormulaValue.value',
  Score: 'attributeNumberValue.value',
  Level: 'attributeNumberValue.value',
  Range: 'attributeNumberValue.value',
};
const SELECTS: AttributeResponseType[] = ['SingleSelect', 'MultiSelect'];

const localisationKey = () => `Attributes.${randomUUID().replace(/-/g, '').slice(0, 26)}`;
const sortOptions = (a: CustomAttributeRecord) =>
  a.options.sort((x, y) => x.option.toLowerCase().localeCompare(y.option.toLowerCase()));

function checkOptions(raw: unknown, existing: string[]): AttributeOptionRequest[] {
  if (!Array.isArray(raw)) throw invalid('options must be an array');
  const seen = new Set(existing.map((o) => o.toLowerCase()));
  return raw.map((o: unknown, i) => {
    const option = objectBody<AttributeOptionRequest>(o, `options[${i}]`);
    if (typeof option.option !== 'string' || option.option.trim() === '' || option.option.length > 255)
      throw invalid(`options[${i}].option must be 1 to 255 characters`);
    if (seen.has(option.option.toLowerCase())) throw invalid(`Option '${option.option}' already exists`);
    seen.add(option.option.toLowerCase());
    return option;
  });
}

const toOption = (o: AttributeOptionRequest) => ({
  id: randomUUID(),
  option: o.option,
  optionKey: o.optionKey ?? `OneTrustApp.OM.CustomEntity.Attributes.${randomUUID()}`,
  enabled: true,
});

export function attributeRoutes({ store, requireScopes }: RouteDeps) {
  const app = new Hono<Env>();

  app.post('/schema-attributes', requireScopes(SCOPES.write), async (c) => {
    const schemaName = c.req.query('schemaName');
    if (!schemaName) throw invalid("Required request parameter 'schemaName' is not present");
    if (!isAiKind(schemaName)) throw notFound(schemaName, 'Schema');
    const body = objectBody<AttributeCreateRequest>(await readJson(c, true), 'body');
    if (typeof body.name !== 'string' || body.name.trim() === '' || body.name.length > 255)
      throw invalid('name must be 1 to 255 characters');
    if (body.description !== undefined && (typeof body.description !== 'string' || body.description.length > 1000))
      throw invalid('description must be at most 1000 characters');
    if (!(body.responseType in FIELD_STEMS))
      throw invalid(`responseType must be one of ${Object.keys(FIELD_STEMS).join(', ')}`);
    const existing = store.customAttributes(schemaName);
    const seeded = store.typeByName(schemaName)!.attributes.map((a) => a.field.toLowerCase());
    if (
      existing.some((a) => a.name.toLowerCase() === body.name.toLowerCase()) ||
      seeded.includes(body.name.toLowerCase())
    ) {
      throw invalid(`An attribute named '${body.name}' already exists in ${schemaName}`);
    }
    const select = SELECTS.includes(body.responseType);
    if (body.options !== undefined && body.options.length > 0 && !select)
      throw invalid(`options are only allowed for ${SELECTS.join(' and ')} attributes`);
    const options = select ? checkOptions(body.options ?? [], []) : [];
    const slot = existing.filter((a) => a.responseType === body.responseType).length + 1;
    const sequence = store.data.customAttributes.length + 1;
    const now = new Date().toISOString();
    const attribute: CustomAttributeRecord = {
      id: randomUUID(),
      name: body.name,
      nameKey: body.nameKey ?? localisationKey(),
      description: body.description ?? body.name,
      descriptionKey: body.descriptionKey ?? localisationKey(),
      fieldName: `${FIELD_STEMS[body.responseType]}${slot}_${sequence}`,
      mappedFieldName: select ? null : `${FIELD_STEMS[body.responseType]}${slot}`,
      enabled: true,
      required: body.required ?? false,
      readOnly: false,
      encrypted: body.encrypted ?? false,
      allowOther: body.allowOther ?? false,
      baseAttribute: false,
      responseType: body.responseType,
      formula: body.formula ?? null,
      optionType: body.optionType ?? 'none',
      optionAllowed: select,
      schemaId: store.typeByName(schemaName)!.schemaId,
      schemaName,
      options: options.map(toOption),
      responseMaxLength: body.responseType === 'Text' ? 1000 : select ? 400 : null,
      source: body.source ?? null,
      responseSubType: body.responseSubType ?? null,
      multiSelectMaxOptionValues:
        body.responseType === 'MultiSelect' ? (body.maxMultiSelectAllowedOptionValues ?? 100) : select ? 1 : null,
      hidden: false,
      abacBasicAssignmentInfo: null,
      associatedAttributeFieldName: null,
      createdBy: store.apiUser.email ?? 'api',
      createdTime: now,
      lastModifiedBy: store.apiUser.email ?? 'api',
      lastModifiedTime: now,
    };
    sortOptions(attribute);
    store.data.customAttributes.push(attribute);
    const { options: sorted, ...rest } = attribute;
    return c.json(select ? { ...rest, options: sorted } : rest, 201);
  });

  app.post('/schema-attribute-options', requireScopes(SCOPES.write), async (c) => {
    const attributeId = uuidQuery(c, 'attributeId', true);
    const body = await readJson<unknown>(c, true);
    const attribute = store.data.customAttributes.find((a) => a.id === attributeId);
    if (!attribute) throw notFound(attributeId, 'Attribute');
    if (!attribute.optionAllowed) throw invalid(`Attribute ${attribute.name} does not take options`);
    const added = checkOptions(
      body,
      attribute.options.map((o) => o.option),
    );
    if (added.length === 0) throw invalid('At least one option is required');
    attribute.options.push(...added.map(toOption));
    sortOptions(attribute);
    attribute.lastModifiedTime = new Date().toISOString();
    return c.json(attribute, 200);
  });

  return app;
}
