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
  isInterfaceType,
  isObjectType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type FieldNode,
  type FragmentDefinitionNode,
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
  HTML: { type: 'string' },
  UUID: { type: 'string' },
};

/** The dialect every tool schema declares (MCP 2026-07-28 tool schemas are JSON Schema 2020-12). */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * Where each variable is passed: its path in the operation (`input.title`, `filter.startsAfter`, or
 * the argument's name) and the description of that argument or input field.
 */
export function variableUses(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
): Map<string, { path: string; description?: string }> {
  const found = new Map<string, { path: string; description?: string }>();
  const info = new TypeInfo(schema);
  const path: string[] = [];
  const described: (string | undefined)[] = [];
  visit(
    operation,
    visitWithTypeInfo(info, {
      Argument: {
        enter: (node) =>
          void (path.push(node.name.value), described.push(info.getArgument()?.description ?? undefined)),
        leave: () => void (path.pop(), described.pop()),
      },
      ObjectField: {
        enter(node) {
          const parent = info.getParentInputType();
          path.push(node.name.value);
          described.push(
            isInputObjectType(parent) ? (parent.getFields()[node.name.value]?.description ?? undefined) : undefined,
          );
        },
        leave: () => void (path.pop(), described.pop()),
      },
      Variable(node) {
        if (found.has(node.name.value) || path.length === 0) return;
        found.set(node.name.value, { path: path.join('.'), description: described.at(-1) });
      },
    }),
  );
  return found;
}

/** The JSON Schema of a GraphQL input type; nested input objects' fields are described two levels deep. */
export function inputSchema(type: GraphQLInputType, depth = 0): JsonSchema {
  const t = isNonNullType(type) ? type.ofType : type;
  if (isListType(t)) return { type: 'array', items: inputSchema(t.ofType, depth) };
  if (isEnumType(t)) return { type: 'string', enum: t.getValues().map((v) => v.name) };
  if (isInputObjectType(t)) {
    const fields = Object.values(t.getFields());
    const properties = Object.fromEntries(
      fields.map((f) => {
        const s = inputSchema(f.type, depth + 1);
        return [f.name, depth < 2 && f.description ? { ...s, description: f.description } : s];
      }),
    );
    const required = fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name);
    return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
  }
  return SCALARS[t.name] ?? {};
}

/** The JSON Schema of what a selection set returns (nullable values allow null). */
export function outputSchema(
  type: GraphQLOutputType,
  selections: SelectionSetNode | undefined,
  fragments: ReadonlyMap<string, FragmentDefinitionNode> = new Map(),
): JsonSchema {
  const nonNull = isNonNullType(type);
  const t = nonNull ? type.ofType : type;
  let schema: JsonSchema;
  if (isListType(t)) schema = { type: 'array', items: outputSchema(t.ofType, selections, fragments) };
  else if ((isObjectType(t) || isInterfaceType(t)) && selections) {
    const fields = t.getFields();
    const properties: Record<string, JsonSchema> = {};
    for (const [key, nodes] of fieldsByKey(selections, fragments)) {
      const f = fields[nodes[0]!.name.value];
      // A field selected twice (directly and in a fragment) returns both selections, merged.
      const merged: SelectionSetNode = {
        kind: Kind.SELECTION_SET,
        selections: nodes.flatMap((n) => n.selectionSet?.selections ?? []),
      };
      properties[key] = f ? outputSchema(f.type, merged.selections.length ? merged : undefined, fragments) : {};
    }
    schema = { type: 'object', properties };
  } else {
    const named = getNamedType(t);
    schema = isEnumType(named) ? { type: 'string' } : (SCALARS[named.name] ?? {});
  }
  // `anyOf` rather than a `type` array: one `type` per schema is what every client's dialect reads.
  return nonNull ? schema : { anyOf: [schema, { type: 'null' }] };
}

/** The fields a selection set selects, fragments spread in, grouped by response key. */
function fieldsByKey(
  set: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  into = new Map<string, FieldNode[]>(),
): Map<string, FieldNode[]> {
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) {
      const key = s.alias?.value ?? s.name.value;
      into.set(key, [...(into.get(key) ?? []), s]);
    } else {
      const inner = s.kind === Kind.INLINE_FRAGMENT ? s.selectionSet : fragments.get(s.name.value)?.selectionSet;
      if (inner) fieldsByKey(inner, fragments, into);
    }
  }
  return into;
}
