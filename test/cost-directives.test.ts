/**
 * The price visible to routers: the subgraph SDL carries `@cost`/`@listSize` (federation 2.9),
 * `@apollo/composition` keeps them in the supergraph, and a router adding them up the way the IBM
 * cost specification says (field weight, else the type's; lists times their size: the slicing
 * argument, else the assumed size; argument weights when given) arrives at the gateway's own
 * estimate of upstream calls, for every operation the project ships.
 */
import { composeServices } from '@apollo/composition';
import {
  buildASTSchema,
  execute,
  getNamedType,
  getNullableType,
  isListType,
  isInterfaceType,
  isObjectType,
  Kind,
  parse,
  valueFromAST,
  type ConstDirectiveNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
import { describe, expect, it } from 'vitest';
import { schema } from '../src/app/schema.js';
import { defaultCostModel, estimateOperationCost, type CostModel } from '../src/http/plugins/operation-cost.js';
import { loadSafelist } from '../src/http/persisted.js';

async function subgraphSdl(): Promise<string> {
  const res = (await execute({ schema, document: parse('{ _service { sdl } }') })) as {
    data: { _service: { sdl: string } };
  };
  return res.data._service.sdl;
}

function supergraph(sdl: string): GraphQLSchema {
  const composed = composeServices([{ name: 'gateway', url: 'http://gateway:4000/graphql', typeDefs: parse(sdl) }]);
  expect(composed.errors ?? []).toEqual([]);
  return buildASTSchema(parse(composed.supergraphSdl!), { assumeValidSDL: true });
}

/** A directive's arguments as plain values, or undefined when the node does not carry it. */
function directive(
  node: { directives?: readonly ConstDirectiveNode[] } | null | undefined,
  name: string,
): Record<string, unknown> | undefined {
  const d = node?.directives?.find((x) => x.name.value === name);
  if (!d) return undefined;
  return Object.fromEntries(
    (d.arguments ?? []).map((a) => [
      a.name.value,
      a.value.kind === Kind.LIST
        ? a.value.values.map((v) => ('value' in v ? v.value : null))
        : 'value' in a.value
          ? a.value.kind === Kind.INT
            ? Number(a.value.value)
            : a.value.value
          : null,
    ]),
  );
}

/** A router's static estimate from the supergraph's directives (IBM cost specification). */
function routerCost(supergraph: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const variables = getVariableValues(supergraph, operation.variableDefinitions ?? [], {}).coerced ?? {};
  const walk = (set: SelectionSetNode, parent: GraphQLCompositeType, sized?: { fields: unknown[]; size: number }) => {
    let sum = 0;
    for (const s of set.selections) {
      if (s.kind === Kind.INLINE_FRAGMENT) sum += walk(s.selectionSet, parent, sized);
      else if (s.kind === Kind.FRAGMENT_SPREAD) sum += walk(fragments.get(s.name.value)!.selectionSet, parent, sized);
      else if ('getFields' in parent) {
        const field = parent.getFields()[s.name.value];
        if (!field) continue;
        const named = getNamedType(field.type);
        const given = new Map((s.arguments ?? []).map((a) => [a.name.value, a.value]));
        const value = (name: string) => {
          const arg = field.args.find((a) => a.name === name)!;
          return given.has(name) ? valueFromAST(given.get(name), arg.type, variables) : arg.defaultValue;
        };
        const typeWeight = isObjectType(named) ? ((directive(named.astNode, 'cost')?.weight as number) ?? 1) : 0;
        let cost = (directive(field.astNode, 'cost')?.weight as number | undefined) ?? typeWeight;
        for (const arg of field.args)
          if (value(arg.name) != null) cost += (directive(arg.astNode, 'cost')?.weight as number | undefined) ?? 0;
        const listSize = directive(field.astNode, 'listSize');
        const sliced = ((listSize?.slicingArguments as string[] | undefined) ?? []).map(value).find((v) => v != null);
        const size = (sliced as number | undefined) ?? (listSize?.assumedSize as number | undefined) ?? 0;
        const below = s.selectionSet
          ? walk(
              s.selectionSet,
              named as GraphQLCompositeType,
              listSize?.sizedFields ? { fields: listSize.sizedFields as unknown[], size } : undefined,
            )
          : 0;
        const times = sized?.fields.includes(s.name.value)
          ? sized.size
          : isListType(getNullableType(field.type)) && !listSize?.sizedFields
            ? size
            : 1;
        sum += cost * (isListType(getNullableType(field.type)) ? times : 1) + below * times;
      }
    }
    return sum;
  };
  return walk(operation.selectionSet, supergraph.getRootType(operation.operation)!);
}

/** Every operation the project ships: the safelist (the example operations and the MCP tools). */
function shippedOperations(): { name: string; document: DocumentNode; operation: OperationDefinitionNode }[] {
  return [...loadSafelist().values()].map((text) => {
    const document = parse(text);
    const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode;
    return { name: operation.name!.value, document, operation };
  });
}

describe('demand-control directives (@cost, @listSize)', () => {
  it('are in the subgraph SDL, linked from federation v2.9, and survive composition', async () => {
    const sdl = await subgraphSdl();
    expect(sdl).toMatch(
      /@link\(url: "https:\/\/specs\.apollo\.dev\/federation\/v2\.9", import: \[[^\]]*"@cost", "@listSize"/,
    );
    const composed = supergraph(sdl);
    const entities = composed.getQueryType()!.getFields().entities!;
    expect(directive(entities.astNode, 'cost')).toEqual({ weight: 1 });
    expect(directive(entities.astNode, 'listSize')).toEqual({
      assumedSize: defaultCostModel.defaultPageSize,
      slicingArguments: ['first', 'last'],
      sizedFields: ['edges', 'nodes'],
      requireOneSlicingArgument: false,
    });
    expect(directive(entities.args.find((a) => a.name === 'after')!.astNode, 'cost')).toEqual({ weight: 1 });
    const summary = composed.getType('EntitySummary') as Extract<GraphQLCompositeType, { getFields: unknown }>;
    expect(directive(summary.getFields().entity!.astNode, 'cost')).toEqual({
      weight: defaultCostModel.fieldCosts['EntitySummary.entity']!.calls,
    });
    expect(directive(composed.getType('Entity')!.astNode, 'cost')).toEqual({ weight: 0 });
    const organizers = (composed.getType('Event') as Extract<GraphQLCompositeType, { getFields: unknown }>).getFields()
      .organizers!;
    expect(directive(organizers.astNode, 'listSize')).toEqual({ assumedSize: defaultCostModel.assumedListSize });
  });

  it("a router's sum of them equals the gateway's estimate for every operation the project ships", async () => {
    const composed = supergraph(await subgraphSdl());
    const operations = shippedOperations();
    expect(operations.length).toBeGreaterThan(10);
    // A router cannot tell that `type { name }` is free (the record embeds it), nor which input lists
    // a write is given: it counts those reads always, as the model without `freeBelow` and with every
    // `perInput` member given does; never less than the gateway. Federation puts no @cost on an
    // interface's fields (`GovernanceLinkEnd.entity`): a router cannot count those, the gateway does.
    const unconditional: CostModel = {
      ...defaultCostModel,
      fieldCosts: Object.fromEntries(
        Object.entries(defaultCostModel.fieldCosts)
          .filter(([k]) => !isInterfaceType(schema.getType(k.split('.')[0]!)))
          .map(([k, c]) => [k, { upstream: c.upstream, calls: c.calls + (c.perInput?.length ?? 0) }]),
      ),
    };
    const sum = (e: Record<string, number | undefined>) => Object.values(e).reduce<number>((a, b) => a + (b ?? 0), 0);
    const compared = operations.map(({ name, document, operation }) => {
      const op = operation.name?.value;
      const gateway = sum(estimateOperationCost(schema, document, op, {}).total);
      const upperBound = sum(estimateOperationCost(schema, document, op, {}, unconditional).total);
      return { name, gateway, upperBound, router: routerCost(composed, document, operation) };
    });
    expect(compared.filter((c) => c.upperBound !== c.router)).toEqual([]);
    expect(compared.filter((c) => c.router < c.gateway)).toEqual([]);
    expect(compared.some((c) => c.gateway > 1 && c.gateway < c.router)).toBe(true);
  });

  it('with a cursor, a larger page and nested lists the two still agree (pages up to the upstream page size)', async () => {
    const composed = supergraph(await subgraphSdl());
    const document = parse(/* GraphQL */ `
      query Nested($after: String) {
        entities(first: 50, after: $after) {
          nodes {
            id
            links(first: 10) {
              nodes {
                counterpart {
                  id
                }
              }
            }
            attributes {
              values {
                id
              }
            }
          }
        }
        events(last: 5) {
          nodes {
            id
            organizers {
              id
            }
          }
        }
      }
    `);
    const operation = document.definitions[0] as OperationDefinitionNode;
    for (const variables of [{}, { after: 'YXJyYXljb25uZWN0aW9uOjQ5' }]) {
      const estimate = estimateOperationCost(schema, document, 'Nested', variables).total;
      const gateway = Object.values(estimate).reduce((a, b) => a + (b ?? 0), 0);
      const withVariables = {
        ...operation,
        // The walk reads variables through their defaults: give $after one when the case has it.
        variableDefinitions: operation.variableDefinitions!.map((v) =>
          'after' in variables
            ? { ...v, defaultValue: { kind: Kind.STRING as const, value: (variables as { after: string }).after } }
            : v,
        ),
      };
      expect(routerCost(composed, document, withVariables)).toBe(gateway);
    }
  });
});
