/**
 * JSON Schemas of a tool from its GraphQL operation: the input from the operation's variables (each
 * described by the argument or input field it is passed to), the output from its selection set.
 */
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

export type JsonSchema = Record<string, unknown>;

const SCALARS: Record<string, JsonSchema> = {
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  String: { type: 'string' },
  ID: { type: 'string' },
  DateTime: { type: 'string', format: 'date-time' },
  Date: { type: 'string', format: 'date' },
  JSONObject: { type: 'object' },
};

/** The description of the argument or input field each variable is passed to. */
export function variableDescriptions(schema: GraphQLSchema, operation: OperationDefinitionNode): Map<string, string> {
  const found = new Map<string, string>();
  const info = new TypeInfo(schema);
  let field: string | undefined;
  visit(
    operation,
    visitWithTypeInfo(info, {
      ObjectField(node) {
        const parent = info.getParentInputType();
        field = isInputObjectType(parent) ? (parent.getFields()[node.name.value]?.description ?? undefined) : undefined;
      },
      Variable(node) {
        const description = field ?? info.getArgument()?.description;
        if (description && !found.has(node.name.value)) found.set(node.name.value, description);
      },
      Argument: { leave: () => void (field = undefined) },
    }),
  );
  return found;
}

/** The JSON Schema of a GraphQL input type; `depth` bounds nested input objects' descriptions. */
export function inputSchema(type: GraphQLInputType, depth = 0): JsonSchema {
  const t = isNonNullType(type) ? type.ofType : type;
  if (isListType(t)) return { type: 'array', items: inputSchema(t.ofType, depth) };
  if (isEnumType(t)) return { type: 'string', enum: t.getValues().map((v) => v.name) };
  if (isInputObjectType(t)) {
    const fields = Object.values(t.getFields());
    const properties = Object.fromEntries(
      fields.map((f) => {
        const s = inputSchema(f.type, depth + 1);
        return [f.name, depth === 0 && f.description ? { ...s, description: f.description } : s];
      }),
    );
    const required = fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name);
    return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
  }
  return SCALARS[t.name] ?? {};
}

/** The JSON Schema of what a selection set returns (nullable values allow null). */
export function outputSchema(type: GraphQLOutputType, selections: SelectionSetNode | undefined): JsonSchema {
  const nonNull = isNonNullType(type);
  const t = nonNull ? type.ofType : type;
  let schema: JsonSchema;
  if (isListType(t)) schema = { type: 'array', items: outputSchema(t.ofType, selections) };
  else if (isObjectType(t) && selections) {
    const fields = t.getFields();
    const properties: Record<string, JsonSchema> = {};
    for (const s of selections.selections) {
      if (s.kind !== Kind.FIELD) continue;
      const f = fields[s.name.value];
      properties[s.alias?.value ?? s.name.value] = f ? outputSchema(f.type, s.selectionSet) : {};
    }
    schema = { type: 'object', properties };
  } else {
    const named = getNamedType(t);
    schema = isEnumType(named) ? { type: 'string' } : (SCALARS[named.name] ?? {});
  }
  return nonNull || !schema.type ? schema : { ...schema, type: [schema.type, 'null'] };
}
