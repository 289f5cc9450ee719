/**
 * Discovery for forms and pickers: the relationship types (with the kinds each may link), the stages
 * of each entity type's workflow, the options of select attributes and the organizations. The
 * governance API lists none of these (see the facts), so they come from three sources, merged:
 *   1. the platform's documented defaults (below),
 *   2. the tenant's configuration (GOVERNANCE_DISCOVERY_FILE, `src/config/discovery.ts`): the same
 *      on every replica from the start,
 *   3. what the gateway has seen in upstream answers (`observe`), shared with the other replicas
 *      through Redis when configured (`discovery-share.ts`: `onLearn` out, `absorb` in). Only
 *      answers read with the gateway's own credential teach: with forwarded credentials
 *      (`GOVERNANCE_AUTH_MODE=forward`) what one caller may see is not listed to another.
 * Every item says where it came from. This is tenant metadata (names and labels, never records), so
 * one registry serves every caller. Bounded: a tenant has tens of types and stages, not millions,
 * but a cap keeps a misbehaving upstream from growing it without end.
 */
import type { DiscoveryConfig } from '../config/discovery.js';
import type {
  AttributeInformation,
  EntityInformation,
  LinkInformation,
  RelatedEntityLink,
  SpringPage,
  ValueItem,
} from './wire.js';

export type DiscoverySource = 'documented' | 'configured' | 'observed';

export interface KnownRelationshipType {
  name: string;
  id: string | null;
  forwardLabel: string | null;
  reverseLabel: string | null;
  /** [first end, second end] entity type names. */
  ends: [string, string][];
  sources: DiscoverySource[];
}

export interface KnownStage {
  name: string;
  id: string | null;
  /** Position in the workflow when known (configured order or the platform's sequence). */
  sequence: number | null;
  sources: DiscoverySource[];
}

export interface KnownOption {
  option: string;
  id: string | null;
  optionKey: string | null;
  sources: DiscoverySource[];
}

export interface KnownOrganization {
  id: string;
  /** Null for an organization only seen as the owner of a record (the API names none). */
  name: string | null;
  parentId: string | null;
  sources: DiscoverySource[];
}

/** One thing learned, in a form other replicas can replay (`absorb`): what the Redis share carries. */
export type DiscoveryFact =
  | { t: 'type'; name: string; id: string | null; fwd: string | null; rev: string | null; ends: [string, string][] }
  | { t: 'stage'; type: string; name: string; id: string | null; seq: number | null }
  | { t: 'option'; type: string; field: string; option: string; id: string | null; key: string | null }
  | { t: 'org'; id: string; name: string | null; parentId: string | null };

/** From the platform's documentation (see `shared/upstreams/governance-facts.md` §3.4, §3.5, §3.2). */
const DOCUMENTED: DiscoveryConfig = {
  relationshipTypes: [
    {
      name: 'ai-system-composition',
      forwardLabel: 'is composed of',
      reverseLabel: 'is a component of',
      ends: [
        ['aisystems', 'aisystems'],
        ['aisystems', 'models'],
      ],
    },
  ],
  // Only the first stage of the seeded models workflow is documented; tenants configure the rest.
  workflows: { models: ['Ideation'] },
  organizations: [],
  attributeOptions: {
    datasets: {
      type: ['Time-series', 'Audio', 'Image'],
      source: ['Cassandra', 'Alibaba Cloud'],
      function: ['Training', 'Testing'],
      license: ['Open Source'],
    },
  },
};

const MAX_ITEMS = 10_000;
/** Marks an answer as observed, on the answer itself (a non-enumerable symbol: invisible to JSON, spreads and `Object.keys`). */
const OBSERVED = Symbol('discovery.observed');

/** Adds a source; true when it was not there yet. */
function addSource(item: { sources: DiscoverySource[] }, s: DiscoverySource): boolean {
  if (item.sources.includes(s)) return false;
  item.sources = [...item.sources, s];
  return true;
}
/** Fills a field still unknown; true when it did. */
function fill<T, K extends keyof T>(item: T, key: K, value: T[K] | null): boolean {
  if (item[key] != null || value == null) return false;
  item[key] = value;
  return true;
}
/** Fills the item's unknown fields from `values` and adds the source; true when anything changed. */
function merge<T extends { sources: DiscoverySource[] }>(
  item: T,
  values: { [K in keyof T]?: T[K] | null },
  source: DiscoverySource,
): boolean {
  let changed = addSource(item, source);
  for (const key of Object.keys(values) as (keyof T)[]) changed = fill(item, key, values[key] ?? null) || changed;
  return changed;
}
/** The map under `key` in `maps`, made empty when missing. */
function mapIn<V>(maps: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let map = maps.get(key);
  if (!map) maps.set(key, (map = new Map<string, V>()));
  return map;
}
/** Names compare trimmed and case-blind: the key each known name is held under. */
export const nameKey = (name: string) => name.trim().toLowerCase();
const byName = <T>(list: Iterable<T>, name: (t: T) => string) =>
  [...list].sort((a, b) => name(a).localeCompare(name(b)));

export class GovernanceDiscovery {
  /** By `nameKey`. */
  private readonly types = new Map<string, KnownRelationshipType>();
  private readonly stages = new Map<string, Map<string, KnownStage>>();
  private readonly options = new Map<string, Map<string, Map<string, KnownOption>>>();
  private readonly organizationsById = new Map<string, KnownOrganization>();
  private size = 0;
  /** Told of every fact learned from an upstream answer that changed what is known (the Redis share). */
  onLearn?: (fact: DiscoveryFact) => void;
  /** Brings in what other replicas learned (the Redis share); resolved at once without one. */
  pull?: () => Promise<void>;
  /** The reads of the start (`GovernanceService.seedDiscovery`), awaited by the first readers. */
  private seeding?: Promise<void>;

  constructor(
    configured: DiscoveryConfig,
    /** False when upstream answers are read with the callers' own credentials: then nothing is learned from them. */
    readonly observes = true,
  ) {
    this.load(DOCUMENTED, 'documented');
    this.load(configured, 'configured');
  }

  /** This registry, once the start's reads are in, with what other replicas have learned brought in first. */
  async current(): Promise<this> {
    await this.seeding;
    await this.pull?.();
    return this;
  }

  /** Readers of `current()` wait for these reads (they settle, failed or not). */
  seedFrom(reads: Promise<unknown>[]): Promise<void> {
    this.seeding = Promise.allSettled(reads).then(() => undefined);
    return this.seeding;
  }

  // ------------------------------------------------------------------ reading

  relationshipTypes(): KnownRelationshipType[] {
    return byName(this.types.values(), (t) => t.name);
  }

  relationshipType(name: string): KnownRelationshipType | undefined {
    return this.types.get(nameKey(name));
  }

  /** The stages of an entity type's workflow: configured order first, then by sequence, then by name. */
  workflowStages(typeName: string): KnownStage[] {
    const list = [...(this.stages.get(typeName)?.values() ?? [])];
    return list.sort(
      (a, b) =>
        (a.sequence ?? Number.MAX_SAFE_INTEGER) - (b.sequence ?? Number.MAX_SAFE_INTEGER) ||
        a.name.localeCompare(b.name),
    );
  }

  /** Field names of the select attributes known for an entity type. */
  selectAttributes(typeName: string): string[] {
    return [...(this.options.get(typeName)?.keys() ?? [])].sort();
  }

  attributeOptions(typeName: string, attribute: string): KnownOption[] | undefined {
    const map = this.options.get(typeName)?.get(attribute);
    return map ? byName(map.values(), (o) => o.option) : undefined;
  }

  /** Named ones by name, then those only seen as owners, by id. */
  organizations(): KnownOrganization[] {
    return [...this.organizationsById.values()].sort(
      (a, b) => (a.name === null ? 1 : 0) - (b.name === null ? 1 : 0) || (a.name ?? a.id).localeCompare(b.name ?? b.id),
    );
  }

  // ------------------------------------------------------------------ learning

  /** Learns from a successful upstream answer, by the operation that produced it. */
  observe(operation: string, body: unknown): void {
    if (!this.observes || !body || typeof body !== 'object') return;
    // A cached answer is the same object each time it is served: what it holds was seen already.
    const marked = body as { [OBSERVED]?: GovernanceDiscovery };
    if (marked[OBSERVED] === this) return;
    Object.defineProperty(marked, OBSERVED, { value: this, configurable: true, writable: true });
    switch (operation) {
      case 'entities.get':
      case 'entities.create':
      case 'entities.update':
        this.observeEntity(body as EntityInformation);
        break;
      case 'entities.search':
        for (const e of (body as SpringPage<EntityInformation>).content ?? []) this.observeEntity(e);
        break;
      case 'entities.basicSearch':
        for (const e of (body as SpringPage<EntityInformation>).content ?? []) this.observeOwner(e.orgGroupId);
        break;
      case 'links.page':
        for (const l of (body as { content?: RelatedEntityLink[] }).content ?? []) this.observeRelated(l);
        break;
      case 'links.get':
      case 'links.create':
        this.observeLink(body as LinkInformation);
        break;
      case 'attributes.create':
      case 'attributes.addOptions':
        this.observeAttribute(body as AttributeInformation);
        break;
    }
  }

  /** A stage the platform answered for a move (it names no type, so the caller says which). */
  observeStage(typeName: string, stage: { id: string; name: string; sequence?: number }): void {
    if (this.observes)
      this.learn({ t: 'stage', type: typeName, name: stage.name, id: stage.id, seq: stage.sequence ?? null });
  }

  /** Facts another replica learned: applied as observed, not passed on again. */
  absorb(facts: Iterable<DiscoveryFact>): void {
    for (const f of facts) this.apply(f, 'observed');
  }

  private learn(fact: DiscoveryFact): void {
    if (this.apply(fact, 'observed')) this.onLearn?.(fact);
  }

  /** True when the fact changed what is known. */
  private apply(f: DiscoveryFact, source: DiscoverySource): boolean {
    switch (f.t) {
      case 'type':
        return this.addType(f, source);
      case 'stage':
        return this.addStage(f, source);
      case 'option':
        return this.addOption(f, source);
      case 'org':
        return this.addOrganization(f, source);
    }
  }

  private observeOwner(id: string | undefined): void {
    if (id) this.learn({ t: 'org', id, name: null, parentId: null });
  }

  private observeEntity(e: EntityInformation): void {
    this.observeOwner(e.orgGroupId);
    const typeName = e.entityType?.name;
    if (!typeName) return;
    const stage = e.workflowAndStage;
    if (stage?.stageName)
      this.learn({ t: 'stage', type: typeName, name: stage.stageName, id: stage.stageId ?? null, seq: null });
    const selects = e.entityDetail?.extendedBaseAttributes ?? {};
    for (const [field, values] of Object.entries(selects)) this.observeOptions(typeName, field, values);
    for (const [field, values] of Object.entries(e.attributes ?? {})) this.observeOptions(typeName, field, values);
  }

  private observeRelated(l: RelatedEntityLink): void {
    this.learnType(l.relationshipTypeDetail, l.relationshipTypeDetail, [l.source, l.target]);
  }

  private observeLink(l: LinkInformation): void {
    this.learnType(l.linkType, l.linkTypeLabel, [l.entity1, l.entity2]);
  }

  /** A relationship type as a link or a related-entities item names it, with the kinds of its two ends. */
  private learnType(
    type: { name?: string; id?: string } | undefined,
    labels:
      { entityType1ToEntityType2EntityLinkName?: string; entityType2ToEntityType1EntityLinkName?: string } | undefined,
    ends: ({ entityType?: { name?: string } } | undefined)[],
  ): void {
    if (!type?.name) return;
    const [a, b] = ends.map((end) => end?.entityType?.name);
    const fwd = labels?.entityType1ToEntityType2EntityLinkName ?? null;
    const rev = labels?.entityType2ToEntityType1EntityLinkName ?? null;
    this.learn({ t: 'type', name: type.name, id: type.id ?? null, fwd, rev, ends: a && b ? [[a, b]] : [] });
  }

  private observeAttribute(a: AttributeInformation): void {
    const { schemaName: type, fieldName: field, options } = a;
    if (!type || !field || !Array.isArray(options)) return;
    for (const { option, id = null, optionKey: key = null } of options)
      if (option) this.learn({ t: 'option', type, field, option, id, key });
  }

  private observeOptions(typeName: string, field: string, values: unknown): void {
    if (!Array.isArray(values)) return;
    for (const v of values as ValueItem[]) {
      // Only values with an option id are choices; free text is not an option.
      if (v && typeof v.id === 'string' && v.id && typeof v.value === 'string') {
        const key = (v as { valueKey?: string }).valueKey ?? null;
        this.learn({ t: 'option', type: typeName, field, option: v.value, id: v.id, key });
      }
    }
  }

  private load(config: DiscoveryConfig, source: DiscoverySource): void {
    for (const t of config.relationshipTypes) {
      const { name, id = null, forwardLabel = null, reverseLabel = null, ends } = t;
      this.apply({ t: 'type', name, id, fwd: forwardLabel, rev: reverseLabel, ends }, source);
    }
    for (const [type, stages] of Object.entries(config.workflows))
      stages.forEach((s, i) => {
        const { name, id = null } = typeof s === 'string' ? { name: s } : s;
        this.apply({ t: 'stage', type, name, id, seq: i + 1 }, source);
      });
    for (const [type, attributes] of Object.entries(config.attributeOptions)) {
      for (const [field, list] of Object.entries(attributes))
        for (const o of list) {
          const { option, id = null } = typeof o === 'string' ? { option: o } : o;
          this.apply({ t: 'option', type, field, option, id, key: null }, source);
        }
    }
    for (const o of config.organizations ?? [])
      this.apply({ t: 'org', id: o.id, name: o.name, parentId: o.parentId ?? null }, source);
  }

  /** The item under `key`, made when missing if the registry has room (undefined when it has none). */
  private itemIn<T>(map: Map<string, T>, key: string, make: () => T): { item: T; added: boolean } | undefined {
    const item = map.get(key);
    if (item) return { item, added: false };
    if (this.size >= MAX_ITEMS) return undefined;
    this.size += 1;
    const made = make();
    map.set(key, made);
    return { item: made, added: true };
  }

  private addType(f: Extract<DiscoveryFact, { t: 'type' }>, source: DiscoverySource): boolean {
    const key = nameKey(f.name);
    const values = { id: f.id, forwardLabel: f.fwd, reverseLabel: f.rev };
    let changed = this.note(this.types, key, { name: f.name, ends: [] }, values, source);
    const ends = this.types.get(key)?.ends;
    for (const [a, b] of ends ? f.ends : []) {
      if (ends!.some(([x, y]) => x === a && y === b)) continue;
      ends!.push([a, b]);
      changed = true;
    }
    return changed;
  }

  /** Sets `values` on the item under `key` (made, room allowing, as `identity`, values unknown); whether it changed. */
  private note<T extends { sources: DiscoverySource[] }>(
    map: Map<string, T>,
    key: string,
    identity: Partial<T>,
    values: { [K in keyof T]?: T[K] | null },
    source: DiscoverySource,
  ): boolean {
    const unknown = Object.fromEntries(Object.keys(values).map((k) => [k, null]));
    const found = this.itemIn(map, key, () => ({ ...identity, ...unknown, sources: [] }) as unknown as T);
    return !!found && (merge(found.item, values, source) || found.added);
  }

  private addStage(f: Extract<DiscoveryFact, { t: 'stage' }>, source: DiscoverySource): boolean {
    const stages = mapIn(this.stages, f.type);
    return this.note(stages, nameKey(f.name), { name: f.name }, { id: f.id, sequence: f.seq }, source);
  }

  private addOption(f: Extract<DiscoveryFact, { t: 'option' }>, source: DiscoverySource): boolean {
    const options = mapIn(mapIn(this.options, f.type), f.field);
    return this.note(options, nameKey(f.option), { option: f.option }, { id: f.id, optionKey: f.key }, source);
  }

  private addOrganization(f: Extract<DiscoveryFact, { t: 'org' }>, source: DiscoverySource): boolean {
    const values = { name: f.name, parentId: f.parentId };
    return this.note(this.organizationsById, f.id.toLowerCase(), { id: f.id }, values, source);
  }
}
