/**
 * `@cost` / `@listSize` (federation 2.9, IBM's cost specification) on every field of the subgraph
 * SDL, priced in upstream calls as the gateway's own estimate counts them (`core/cost-model.ts`), so a
 * router with demand control adds up the same figure; docs/federation.md tables the rules. Besides
 * those, a filter the gateway completes (`gatewayFilters`) weighs the extra pages its scan may read
 * (`@cost` on its argument), and a `fieldCosts` read counts even where the gateway knows it free for
 * what is selected below (`freeBelow`), so there a router's figure is above the gateway's.
 */
import SchemaBuilder, {
  BasePlugin,
  type PothosOutputFieldConfig,
  type PothosTypeConfig,
  type SchemaTypes,
} from '@pothos/core';
import { defaultCostModel, type CostModel } from '../core/cost-model.js';

interface Directive {
  name: string;
  args: Record<string, unknown>;
}

/** What a field's directives depend on. */
export interface FieldShape {
  parent: string;
  /** The parent is the query or mutation root. */
  root: boolean;
  field: string;
  /** The named type the field returns, and whether through a list. */
  type: string;
  list: boolean;
  composite: boolean;
  args: readonly string[];
}

export interface CostDirectives {
  field: Directive[];
  /** By argument name. */
  args: Record<string, Directive[]>;
}

/** The `@cost` / `@listSize` of one field and its arguments (none when it costs nothing and sizes nothing). */
export function fieldCostDirectives(f: FieldShape, model: CostModel = defaultCostModel): CostDirectives {
  const known = model.fieldCosts[`${f.parent}.${f.field}`];
  if (f.type.endsWith('Connection')) {
    const slicingArguments = ['first', 'last'].filter((a) => f.args.includes(a));
    const midPage = ['after', 'before', 'last'].filter((a) => f.args.includes(a));
    const filter = model.gatewayFilters[`${f.parent}.${f.field}`];
    const scanned = (filter?.args ?? []).filter((a) => f.args.includes(a));
    const field = [
      { name: 'cost', args: { weight: Math.ceil(model.defaultPageSize / model.upstreamPageSize) } },
      {
        name: 'listSize',
        args: {
          assumedSize: model.defaultPageSize,
          slicingArguments,
          sizedFields: ['edges', 'nodes'],
          requireOneSlicingArgument: false,
        },
      },
    ];
    return {
      field,
      args: Object.fromEntries<Directive[]>([
        ...midPage.map((a): [string, Directive[]] => [a, [{ name: 'cost', args: { weight: 1 } }]]),
        ...scanned.map((a): [string, Directive[]] => [a, [{ name: 'cost', args: { weight: filter!.extraPages } }]]),
      ]),
    };
  }
  const directives: Directive[] = [];
  // A router cannot see which input members are given: it counts them all (an upper bound).
  if (known) directives.push({ name: 'cost', args: { weight: known.calls + (known.perInput?.length ?? 0) } });
  else if (f.root) directives.push({ name: 'cost', args: { weight: 1 } });
  // A root list is one call, whatever its length (a router multiplies the weight by the size); a
  // connection's own `edges`/`nodes` are sized by the connection field above.
  if (f.list && f.root) directives.push({ name: 'listSize', args: { assumedSize: 1 } });
  else if (f.list && f.composite && !/(Connection|Edge)$/.test(f.parent))
    directives.push({ name: 'listSize', args: { assumedSize: model.assumedListSize } });
  return { field: directives, args: {} };
}

const ROOTS = new Set(['Query', 'Mutation']);
const COMPOSITE = new Set(['Object', 'Interface', 'Union']);

class CostDirectivesPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onTypeConfig(typeConfig: PothosTypeConfig): PothosTypeConfig {
    if (typeConfig.kind !== 'Object') return typeConfig;
    return withDirectives(typeConfig, [{ name: 'cost', args: { weight: 0 } }]);
  }

  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    // Federation puts no @cost on an interface's fields: their types' own fields carry it.
    if (fieldConfig.kind === 'Subscription' || fieldConfig.kind === 'Interface') return fieldConfig;
    const list = fieldConfig.type.kind === 'List';
    const named = fieldConfig.type.kind === 'List' ? fieldConfig.type.type : fieldConfig.type;
    if (named.kind === 'List') return fieldConfig;
    const { field, args } = fieldCostDirectives({
      parent: fieldConfig.parentType,
      root: ROOTS.has(fieldConfig.kind),
      field: fieldConfig.name,
      type: this.buildCache.getTypeConfig(named.ref).name,
      list,
      composite: COMPOSITE.has(named.kind),
      args: Object.keys(fieldConfig.args),
    });
    if (!field.length) return fieldConfig;
    const withArgs = { ...fieldConfig.args };
    for (const [name, directives] of Object.entries(args)) withArgs[name] = withDirectives(withArgs[name]!, directives);
    return { ...withDirectives(fieldConfig, field), args: withArgs };
  }
}

/** The config with `directives` added to those its extensions hold (list form, as the directives plugin keeps them). */
function withDirectives<T extends { extensions?: Record<string, unknown> | null }>(
  config: T,
  directives: Directive[],
): T {
  const held = config.extensions?.directives as Directive[] | Record<string, unknown> | undefined;
  const list = Array.isArray(held)
    ? held
    : Object.entries(held ?? {}).flatMap(([name, args]) =>
        (Array.isArray(args) ? args : [args]).map((a) => ({ name, args: a as Record<string, unknown> })),
      );
  return { ...config, extensions: { ...config.extensions, directives: [...list, ...directives] } };
}

const pluginName = 'costDirectives';
SchemaBuilder.registerPlugin(pluginName, CostDirectivesPlugin);
export default pluginName;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      costDirectives: CostDirectivesPlugin<Types>;
    }
  }
}
