/**
 * Scalars of the graph, from graphql-scalars, but DateTime (docs/api-conventions.md): on output, an
 * RFC 3339 string with an offset is sent as it is, so a calendar event keeps its local wall time
 * instead of UTC; on input, it also takes the calendar's offset-less wall clock and a bare day, and
 * reaches the resolvers as the checked string: only the upstream code knows which zone applies, and
 * only a field knows whether it takes whole days. A malformed literal fails validation at its place
 * in the document (`http/plugins/use-argument-names.ts` adds the argument's name).
 */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { GraphQLDateTime, GraphQLJSON, GraphQLJSONObject, GraphQLUUID } from 'graphql-scalars';

const RFC3339_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/;
/** ISO 8601 with an offset, or a wall clock without one; seconds and fractions optional. */
const DATE_TIME_INPUT = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const DATE_INPUT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether the fields name a real day and time (no 2027-02-30, no 25:00). */
function realDate(y: string, mo: string, d: string, h = '0', mi = '0', s = '0'): boolean {
  const ms = Date.UTC(+y, +mo - 1, +d);
  const check = new Date(ms);
  return (
    check.getUTCFullYear() === +y &&
    check.getUTCMonth() === +mo - 1 &&
    check.getUTCDate() === +d &&
    +h <= 23 &&
    +mi <= 59 &&
    +s <= 59
  );
}

/** Year, month and day of a match of either form (its first three groups, never absent). */
const ymd = ([, y = '', mo = '', d = '']: RegExpExecArray) => [y, mo, d] as const;

function parseDateTimeInput(value: unknown): string {
  if (typeof value !== 'string')
    throw new GraphQLError(`DateTime cannot represent a non-string value: ${JSON.stringify(value)}`);
  const text = value.trim();
  const day = DATE_INPUT.exec(text);
  if (day && realDate(...ymd(day))) return text;
  const m = DATE_TIME_INPUT.exec(text);
  if (!m || !realDate(...ymd(m), m[4], m[5], m[6])) {
    throw new GraphQLError(
      `DateTime takes ISO 8601 with an offset (2027-03-01T18:00:00+01:00), a wall clock (2027-03-01 18:00:00) or, where a field takes whole days, a day (2027-03-01); got "${value}".`,
    );
  }
  return text;
}

function parseDateInput(value: unknown): string {
  if (typeof value !== 'string')
    throw new GraphQLError(`Date cannot represent a non-string value: ${JSON.stringify(value)}`);
  const m = DATE_INPUT.exec(value.trim());
  if (!m || !realDate(...ymd(m))) throw new GraphQLError(`Date takes a calendar day as YYYY-MM-DD; got "${value}".`);
  return value.trim();
}

/** A literal parsed, or refused at its place in the document (graphql-js reports a GraphQLError as it is). */
function located(ast: ValueNode, scalar: string, parse: (value: string) => string): string {
  if (ast.kind !== Kind.STRING) throw new GraphQLError(`${scalar} takes a string, got a ${ast.kind}.`, { nodes: ast });
  try {
    return parse(ast.value);
  } catch (error) {
    throw new GraphQLError(error instanceof Error ? error.message : String(error), { nodes: ast });
  }
}

export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description:
    "A date-time. Output: RFC 3339 / ISO 8601 with a time-zone offset, e.g. `2027-03-01T18:00:00+01:00` or `2026-01-05T09:30:00.000Z`. Input: the same, or a wall clock without an offset (`2027-03-01 18:00:00`), read in the calendar site's time zone (on event writes: the event's); a bare day (`2027-03-01`) only where the field says it takes whole days.",
  serialize(value) {
    if (typeof value === 'string' && RFC3339_WITH_OFFSET.test(value)) {
      GraphQLDateTime.serialize(value); // throws on impossible dates such as month 13
      return value;
    }
    return GraphQLDateTime.serialize(value);
  },
  parseValue: parseDateTimeInput,
  parseLiteral: (ast) => located(ast, 'DateTime', parseDateTimeInput),
});

export const DateScalar = new GraphQLScalarType({
  name: 'Date',
  description: 'A calendar day without a time or a time zone, `YYYY-MM-DD` (e.g. `2027-03-01`), for all-day values.',
  serialize: (value) => parseDateInput(value),
  parseValue: parseDateInput,
  parseLiteral: (ast) => located(ast, 'Date', parseDateInput),
});

export { GraphQLJSON as JSONScalar, GraphQLJSONObject as JSONObjectScalar, GraphQLUUID as UUIDScalar };
