/**
 * Scalars of the graph, from graphql-scalars. DateTime is graphql-scalars' with one change: a value
 * that already is an RFC 3339 string with an offset is sent as it is, so a calendar event keeps its
 * local wall time and offset (`2027-03-01T18:00:00+01:00`) instead of being normalised to UTC.
 */
import { GraphQLScalarType } from 'graphql';
import { GraphQLDateTime, GraphQLJSON, GraphQLJSONObject, GraphQLUUID } from 'graphql-scalars';

const RFC3339_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/;

export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description:
    'A date-time string in RFC 3339 / ISO 8601 form with a time-zone offset, e.g. `2027-03-01T18:00:00+01:00` or `2026-01-05T09:30:00.000Z`.',
  serialize(value) {
    if (typeof value === 'string' && RFC3339_WITH_OFFSET.test(value)) {
      GraphQLDateTime.serialize(value); // throws on impossible dates such as month 13
      return value;
    }
    return GraphQLDateTime.serialize(value);
  },
  parseValue: (value) => GraphQLDateTime.parseValue(value),
  parseLiteral: (ast) => GraphQLDateTime.parseLiteral(ast, {}),
});

export { GraphQLJSON as JSONScalar, GraphQLJSONObject as JSONObjectScalar, GraphQLUUID as UUIDScalar };
