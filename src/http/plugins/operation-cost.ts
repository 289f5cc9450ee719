/**
 * An upstream-aware estimate of what an operation will cost each upstream, computed from the
 * document and the variables before anything runs. It works from shapes rather than a list of
 * fields, so new fields are covered as they are added:
 * - a root field costs one call (a read by id, or a mutation); `node`/`nodes` cost what the lookup
 *   of each id's type costs, on that type's upstream;
 * - a field returning a `…Connection` costs the upstream pages its `first`/`last` needs (pages of at
 *   most `upstreamPageSize`, one more for a cursor that starts mid-page or for `last`), and every
 *   field below it counts once per item; the rows a `filter.exclude` leaves out are read too;
 * - a plain list (not a connection's own `nodes`/`edges`) multiplies what is below it by
 *   `assumedListSize`;
 * - `fieldCosts` adds known costs of other fields (e.g. a summary's full record read per item);
 * - a connection filtered by the gateway itself (`gatewayFilters`) costs the most pages its scan reads.
 * The upstream of a field is that of the type it returns, by type-name prefix (configurable).
 */
import {
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  isAbstractType,
  isCompositeType,
  isInterfaceType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { getArgumentValues, getVariableValues } from 'graphql/execution/values.js';
import { defaultCostModel, filterScanPages, gatewayFilterOf, type CostModel } from '../../core/cost-model.js';
import type { UpstreamName } from '../../core/errors.js';
import { decodeGlobalId } from '../../core/global-id.js';
import { isRecord } from '../../core/records.js';

export { defaultCostModel, type CostModel } from '../../core/cost-model.js';

export type CostEstimate = Partial<Record<UpstreamName, number>>;

/** The estimate and, per upstream, the field (as a response path) whose calls weigh most. */
export interface DetailedEstimate {
  total: CostEstimate;
  dominant: Partial<Record<UpstreamName, { path: string; calls: number }>>;
}

/**
 * The estimate works from argument values, however they were written: a literal, a variable or a
 * default give the same number (as execution coerces them).
 */
export function estimateOperationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  model: CostModel = defaultCostModel,
): DetailedEstimate {
  const operations = operationsOf(document);
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return { total: {}, dominant: {} };
  // Coerced as execution will coerce them: variable defaults apply, so a literal, a variable and a
  // default of the same value cost the same. Invalid variables cost nothing here: execution refuses them.
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
  const walk = new CostWalk(schema, model, fragmentsOf(document), coerced.coerced ?? {});
  walk.selections(operation.selectionSet, root, 1, true, new Set(), '');
  return walk.detailed();
}

export function operationsOf(document: DocumentNode): OperationDefinitionNode[] {
  return document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
}

export function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  return fragments;
}

/** The field's arguments as execution will see them; ones it would refuse (it fails them itself) count as none. */
function argumentValues(field: GraphQLField<unknown, unknown>, node: FieldNode, variables: Record<string, unknown>) {
  try {
    return getArgumentValues(field, node, variables);
  } catch {
    return {};
  }
}

/** Where a walk is: the parent type, how many times it is read, at the root or not, the fragments entered, the path. */
type Position = [parent: GraphQLCompositeType, multiplier: number, isRoot: boolean, seen: Set<string>, at: string];

/** One walk of an operation's selections, adding up the upstream calls each field costs. */
class CostWalk {
  private readonly total: CostEstimate = {};
  private readonly byField = new Map<string, { upstream: UpstreamName; path: string; calls: number }>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly model: CostModel,
    private readonly fragments: Map<string, FragmentDefinitionNode>,
    private readonly variables: Record<string, unknown>,
  ) {}

  detailed(): DetailedEstimate {
    const dominant: DetailedEstimate['dominant'] = {};
    for (const { upstream, path, calls } of this.byField.values()) {
      if (calls > (dominant[upstream]?.calls ?? 0)) dominant[upstream] = { path, calls };
    }
    return { total: this.total, dominant };
  }

  selections(set: SelectionSetNode, ...[parent, multiplier, isRoot, seen, at]: Position): void {
    for (const selection of set.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const cond = selection.typeCondition ? this.schema.getType(selection.typeCondition.name.value) : parent;
        this.selections(selection.selectionSet, isCompositeType(cond) ? cond : parent, multiplier, isRoot, seen, at);
      } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = this.fragments.get(selection.name.value);
        if (!fragment || seen.has(fragment.name.value)) continue;
        const cond = this.schema.getType(fragment.typeCondition.name.value);
        const inner = new Set([...seen, fragment.name.value]);
        this.selections(fragment.selectionSet, isCompositeType(cond) ? cond : parent, multiplier, isRoot, inner, at);
      } else {
        this.field(selection, parent, multiplier, isRoot, seen, at);
      }
    }
  }

  private field(selection: FieldNode, ...[parent, multiplier, isRoot, seen, at]: Position): void {
    const { model } = this;
    const name = selection.name.value;
    const path = at ? `${at}.${selection.alias?.value ?? name}` : (selection.alias?.value ?? name);
    // Unions have no fields of their own (their members are reached through fragments);
    // `__typename` and introspection fields are not in `getFields` and cost nothing upstream.
    const field = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
    if (!field) return;
    const named = getNamedType(field.type);
    const args = argumentValues(field, selection, this.variables);
    const known = model.fieldCosts[`${parent.name}.${name}`];
    if (known && !this.onlyFree(selection, known.freeBelow))
      this.add(known.upstream, (known.calls + inputReads(args, known.perInput)) * multiplier, path);

    let childMultiplier = multiplier;
    if (named.name.endsWith('Connection')) {
      const n = pageRequest(args, model.defaultPageSize, model.maxPageSize);
      // Arguments the resolver refuses (BAD_USER_INPUT) cost nothing: leave that error to it.
      if (!n) return;
      // A filter the gateway completes reads up to its scan's pages, a cursor's partial page included;
      // an exclusion reads as many more rows as it may leave out.
      const filter = gatewayFilterOf(`${parent.name}.${name}`, args, model);
      const pages = filter
        ? filterScanPages(n.items, filter.extraPages, model)
        : Math.ceil((n.items + excludedRows(args)) / model.upstreamPageSize) + (n.offsetUnknown ? 1 : 0);
      this.add(this.upstreamOf(named.name.replace(/Connection$/, '')), Math.max(1, pages) * multiplier, path);
      childMultiplier = multiplier * n.items;
    } else if (isRoot && name === '_entities') {
      // A router's batch: at most one read per representation, on its type's upstream.
      const representations: unknown[] = Array.isArray(args.representations) ? args.representations : [];
      for (const rep of representations)
        this.add(this.upstreamOf(String(isRecord(rep) ? rep.__typename : undefined)), multiplier, path);
    } else if (isRoot && (name === 'node' || name === 'nodes')) {
      // Each id as the lookup of its type would read it; a malformed one is refused before any call.
      const ids: unknown[] = name === 'node' ? [args.id] : Array.isArray(args.ids) ? args.ids : [];
      for (const id of ids) {
        const type = decodeGlobalId(String(id))?.type;
        if (!type) continue;
        const lookup = model.fieldCosts[`Query.${type.charAt(0).toLowerCase()}${type.slice(1)}`];
        this.add(this.upstreamOf(type), (lookup?.calls ?? 1) * multiplier, path);
      }
    } else if (isRoot && !known) {
      this.add(this.upstreamOf(named.name), multiplier, path);
    } else if (isListType(getNullableType(field.type)) && !/(Connection|Edge)$/.test(parent.name)) {
      // A connection's `nodes`/`edges` are its items, already counted by `first`/`last`.
      childMultiplier = multiplier * model.assumedListSize;
    }
    if (selection.selectionSet && (isObjectType(named) || isAbstractType(named))) {
      this.selections(selection.selectionSet, named, childMultiplier, false, seen, path);
    }
  }

  /** Whether the selection below asks only for `free` fields (through fragments too). */
  private onlyFree(selection: FieldNode, free: readonly string[] | undefined): boolean {
    if (!free || !selection.selectionSet) return false;
    const only = (set: SelectionSetNode, seen: Set<string>): boolean =>
      set.selections.every((s) => {
        if (s.kind === Kind.FIELD) return free.includes(s.name.value);
        if (s.kind === Kind.INLINE_FRAGMENT) return only(s.selectionSet, seen);
        const fragment = this.fragments.get(s.name.value);
        if (!fragment || seen.has(fragment.name.value)) return true;
        return only(fragment.selectionSet, new Set([...seen, fragment.name.value]));
      });
    return only(selection.selectionSet, new Set());
  }

  private add(upstream: UpstreamName, calls: number, path: string): void {
    this.total[upstream] = (this.total[upstream] ?? 0) + calls;
    const key = `${upstream} ${path}`;
    const entry = this.byField.get(key) ?? { upstream, path, calls: 0 };
    entry.calls += calls;
    this.byField.set(key, entry);
  }

  private upstreamOf(typeName: string): UpstreamName {
    return this.model.typeUpstreams.find((t) => typeName.startsWith(t.prefix))?.upstream ?? this.model.defaultUpstream;
  }
}

/** The ids a list's `filter.exclude` leaves out: the gateway reads that many more rows to fill the page. */
function excludedRows(args: Record<string, unknown>): number {
  const exclude = isRecord(args.filter) ? args.filter.exclude : undefined;
  return Array.isArray(exclude) ? exclude.length : 0;
}

function pageRequest(
  args: Record<string, unknown>,
  defaultSize: number,
  maxSize: number,
): { items: number; offsetUnknown: boolean } | undefined {
  const first = typeof args.first === 'number' ? args.first : undefined;
  const last = typeof args.last === 'number' ? args.last : undefined;
  if (first !== undefined && last !== undefined) return undefined;
  const items = first ?? last ?? defaultSize;
  if (items < 0 || items > maxSize) return undefined;
  // A cursor may start mid-page (one more page); `last` without a cursor first needs the total.
  const offsetUnknown = args.after != null || args.before != null || last !== undefined;
  return { items, offsetUnknown };
}

/** The members of `args.input` among `names` that are given (a non-empty list), each one read. */
function inputReads(args: Record<string, unknown>, names: readonly string[] | undefined): number {
  const input = isRecord(args.input) ? args.input : {};
  return (names ?? []).filter((n) => {
    const given = input[n];
    return Array.isArray(given) && given.length > 0;
  }).length;
}
