/**
 * A tool call's arguments checked against the tool's own input schema before anything runs, with
 * problems named in the tool's vocabulary (`entity.id`, never `$entity1` or `GovernanceLinkEndInput!`):
 * an unknown argument is refused naming the known ones, a missing or mistyped one names what it takes.
 * The schemas are the gateway's own (json-schema.ts), so only their keywords are checked: type,
 * properties, required, additionalProperties, items, enum, minimum, maximum
 * (docs/decisions/mcp-argument-checks.md).
 */
import type { JsonSchema } from './json-schema.js';

/** The problems with `value` at `at` (empty when it fits `schema`). */
export function argumentProblems(value: unknown, schema: JsonSchema, at = ''): string[] {
  if (value === null || value === undefined) return [`${label(at)} must not be null.`];
  const types = ([] as unknown[]).concat(schema.type ?? []).filter((t) => t !== 'null') as string[];
  if (types.length && !types.some((t) => fits(value, t)))
    return [`${label(at)} must be ${article(types[0]!)} (got ${describe(value)}).`];
  const values = schema.enum as unknown[] | undefined;
  if (values && !values.includes(value))
    return [`${label(at)} must be one of ${values.join(', ')} (got ${describe(value)}).`];
  if (typeof value === 'number') return range(value, schema, at);
  if (Array.isArray(value))
    return value.flatMap((v, i) => argumentProblems(v, (schema.items ?? {}) as JsonSchema, `${at}[${i}]`));
  if (typeof value === 'object') return objectProblems(value as Record<string, unknown>, schema, at);
  return [];
}

function objectProblems(value: Record<string, unknown>, schema: JsonSchema, at: string): string[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const known = Object.keys(properties);
  const problems: string[] = [];
  const unknown = Object.keys(value).filter((k) => !(k in properties));
  if (unknown.length && schema.additionalProperties === false)
    problems.push(
      `${unknown.map((k) => `"${k}"`).join(', ')} ${unknown.length > 1 ? 'are not arguments' : 'is not an argument'}${at ? ` of ${at}` : ''}; ${known.length ? `the arguments are ${known.join(', ')}` : 'it takes none'}.`,
    );
  const required = (schema.required ?? []) as string[];
  for (const name of required) if (value[name] === undefined) problems.push(`${join(at, name)} is required.`);
  // An optional argument given as null is one left out.
  for (const [name, v] of Object.entries(value))
    if (properties[name] && v !== undefined && (v !== null || required.includes(name)))
      problems.push(...argumentProblems(v, properties[name], join(at, name)));
  return problems;
}

function range(value: number, schema: JsonSchema, at: string): string[] {
  const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
  if (minimum !== undefined && value < minimum) return [`${label(at)} must be at least ${minimum} (got ${value}).`];
  if (maximum !== undefined && value > maximum) return [`${label(at)} must be at most ${maximum} (got ${value}).`];
  return [];
}

function fits(value: unknown, type: string): boolean {
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return typeof value === 'object' && !Array.isArray(value);
  return typeof value === type;
}

const join = (at: string, name: string) => (at ? `${at}.${name}` : name);
const label = (at: string) => at || 'The arguments';
const article = (type: string) => (type === 'integer' || type === 'array' || type === 'object' ? 'an ' : 'a ') + type;
const describe = (value: unknown) => (Array.isArray(value) ? 'an array' : JSON.stringify(value)?.slice(0, 40));
