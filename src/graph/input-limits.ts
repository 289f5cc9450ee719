/**
 * Caps on every string argument, checked before any resolver runs (so before any upstream call):
 * names and titles, search texts, long text (descriptions, attribute values) and every other field
 * each have a maximum length (INPUT_LIMITS), and control characters other
 * than tab (and, in long text, line breaks) are refused. The category comes from the argument's or
 * input field's name (the table below), so a new argument is capped the day it is added.
 * Ids, slugs, uuids, dates and URLs get their own, stricter checks where they are used.
 */
import {
  defaultFieldResolver,
  getNamedType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { badInput } from './errors.js';
import { isRecord } from '../core/records.js';

/**
 * Longest string argument per category, in characters: the governance platform allows 255 for names
 * and 500 for search texts; long text matches a TEXT column; every other field (addresses, URLs,
 * statuses) is short. These are the upstreams' rules, not a deployment's, so they are constants.
 */
const INPUT_LIMITS = { name: 255, search: 500, text: 65_535, field: 2_000 } as const;
type Category = keyof typeof INPUT_LIMITS;

const CATEGORY: Record<string, Category> = {
  search: 'search',
  fullText: 'search',
  name: 'name',
  title: 'name',
  nextStageName: 'name',
  typeName: 'name',
  option: 'name',
  optionKey: 'name',
  schemaName: 'name',
  categories: 'name',
  tags: 'name',
  description: 'text',
  excerpt: 'text',
  value: 'text',
  formula: 'text',
};

/** Arguments of these types hold no string. */
const UNCHECKED = new Set(['Boolean', 'Int', 'Float']);
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const CONTROL_IN_LINE = /[\u0000-\u0008\u000a-\u001f\u007f]/;

function checkString(value: string, argument: string, name: string): void {
  const category = CATEGORY[name] ?? 'field';
  const max = INPUT_LIMITS[category];
  if (value.length > max)
    throw badInput(`"${argument}" must be at most ${max} characters long (got ${value.length}).`, argument);
  if ((category === 'text' ? CONTROL : CONTROL_IN_LINE).test(value))
    throw badInput(`"${argument}" must not contain control characters.`, argument);
}

function checkValue(value: unknown, type: GraphQLInputType, argument: string, name: string): void {
  if (value === null || value === undefined) return;
  if (isNonNullType(type)) return checkValue(value, type.ofType, argument, name);
  if (isListType(type)) {
    if (Array.isArray(value)) value.forEach((item, i) => checkValue(item, type.ofType, `${argument}[${i}]`, name));
    return;
  }
  if (isInputObjectType(type)) {
    const given = isRecord(value) ? value : {};
    for (const [key, field] of Object.entries(type.getFields()))
      checkValue(given[key], field.type, `${argument}.${key}`, key);
    return;
  }
  if (typeof value === 'string') return checkString(value, argument, name);
  // JSON scalars (link attributes) go upstream as they are: bounded as long text.
  if (isScalarType(type) && type.name.startsWith('JSON') && JSON.stringify(value).length > INPUT_LIMITS.text) {
    throw badInput(`"${argument}" must be at most ${INPUT_LIMITS.text} characters long as JSON.`, argument);
  }
}

/** Wraps every field that takes arguments so that its arguments are checked first. */
export function limitInputs(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.args.length === 0) continue;
      const resolve = field.resolve ?? defaultFieldResolver;
      const args = field.args.filter((a) => !UNCHECKED.has(getNamedType(a.type).name));
      field.resolve = (source, values: Record<string, unknown>, context, info) => {
        for (const arg of args) checkValue(values[arg.name], arg.type, arg.name, arg.name);
        return resolve(source, values, context, info);
      };
    }
  }
  return schema;
}
