/**
 * Discovery for forms and pickers: the relationship types (with the kinds each may link), the stages
 * of each entity type's workflow and the options of select attributes. The governance API lists
 * none of these (see the facts), so they come from three sources, merged:
 *   1. the platform's documented defaults (below),
 *   2. the tenant's configuration (GOVERNANCE_DISCOVERY_FILE, `src/config/discovery.ts`),
 *   3. what the gateway has seen in upstream answers since it started (`observe`).
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

const addSource = (sources: DiscoverySource[], s: DiscoverySource) => (sources.includes(s) ? sources : [...sources, s]);
/** Names compare trimmed and case-blind: the key each known name is held under. */
const nameKey = (name: string) => name.trim().toLowerCase();

export class GovernanceDiscovery {
  /** By `nameKey`. */
  private readonly types = new Map<string, KnownRelationshipType>();
  private readonly stages = new Map<string, Map<string, KnownStage>>();
  private readonly options = new Map<string, Map<string, Map<string, KnownOption>>>();
  private size = 0;

  constructor(configured: DiscoveryConfig) {
    this.load(DOCUMENTED, 'documented');
    this.load(configured, 'configured');
  }

  // ------------------------------------------------------------------ reading

  relationshipTypes(): KnownRelationshipType[] {
    return [...this.types.values()].sort((a, b) => a.name.localeCompare(b.name));
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
    return map ? [...map.values()].sort((a, b) => a.option.localeCompare(b.option)) : undefined;
  }

  // ------------------------------------------------------------------ learning

  /** Learns from a successful upstream answer, by the operation that produced it. */
  observe(operation: string, body: unknown): void {
    if (!body || typeof body !== 'object') return;
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
    this.addStage(typeName, stage.name, stage.id, stage.sequence ?? null, 'observed');
  }

  private observeEntity(e: EntityInformation): void {
    const typeName = e.entityType?.name;
    if (!typeName) return;
    if (e.workflowAndStage?.stageName)
      this.addStage(typeName, e.workflowAndStage.stageName, e.workflowAndStage.stageId ?? null, null, 'observed');
    const selects = e.entityDetail?.extendedBaseAttributes ?? {};
    for (const [field, values] of Object.entries(selects)) this.addOptions(typeName, field, values);
    for (const [field, values] of Object.entries(e.attributes ?? {})) this.addOptions(typeName, field, values);
  }

  private observeRelated(l: RelatedEntityLink): void {
    const d = l.relationshipTypeDetail;
    if (!d?.name) return;
    this.addType(
      d.name,
      d.id ?? null,
      d.entityType1ToEntityType2EntityLinkName ?? null,
      d.entityType2ToEntityType1EntityLinkName ?? null,
      [l.source?.entityType?.name, l.target?.entityType?.name],
      'observed',
    );
  }

  private observeLink(l: LinkInformation): void {
    if (!l.linkType?.name) return;
    this.addType(
      l.linkType.name,
      l.linkType.id ?? null,
      l.linkTypeLabel?.entityType1ToEntityType2EntityLinkName ?? null,
      l.linkTypeLabel?.entityType2ToEntityType1EntityLinkName ?? null,
      [l.entity1?.entityType?.name, l.entity2?.entityType?.name],
      'observed',
    );
  }

  private observeAttribute(a: AttributeInformation): void {
    const typeName = a.schemaName;
    const field = a.fieldName;
    if (!typeName || !field || !Array.isArray(a.options)) return;
    for (const o of a.options)
      if (o.option) this.addOption(typeName, field, o.option, o.id ?? null, o.optionKey ?? null, 'observed');
  }

  private addOptions(typeName: string, field: string, values: unknown): void {
    if (!Array.isArray(values)) return;
    for (const v of values as ValueItem[]) {
      // Only values with an option id are choices; free text is not an option.
      if (v && typeof v.id === 'string' && v.id && typeof v.value === 'string')
        this.addOption(typeName, field, v.value, v.id, (v as { valueKey?: string }).valueKey ?? null, 'observed');
    }
  }

  private load(config: DiscoveryConfig, source: DiscoverySource): void {
    for (const t of config.relationshipTypes)
      this.addType(t.name, t.id ?? null, t.forwardLabel ?? null, t.reverseLabel ?? null, null, source, t.ends);
    for (const [type, names] of Object.entries(config.workflows))
      names.forEach((n, i) => this.addStage(type, n, null, i + 1, source));
    for (const [type, attributes] of Object.entries(config.attributeOptions)) {
      for (const [field, list] of Object.entries(attributes))
        for (const o of list) this.addOption(type, field, o, null, null, source);
    }
  }

  private room(): boolean {
    if (this.size >= MAX_ITEMS) return false;
    this.size += 1;
    return true;
  }

  private addType(
    name: string,
    id: string | null,
    forward: string | null,
    reverse: string | null,
    seenEnds: (string | undefined)[] | null,
    source: DiscoverySource,
    ends: [string, string][] = [],
  ): void {
    let t = this.relationshipType(name);
    if (!t) {
      if (!this.room()) return;
      t = { name, id, forwardLabel: forward, reverseLabel: reverse, ends: [], sources: [] };
      this.types.set(nameKey(name), t);
    }
    t.id ??= id;
    t.forwardLabel ??= forward;
    t.reverseLabel ??= reverse;
    t.sources = addSource(t.sources, source);
    for (const [a, b] of ends) this.addEnds(t, a, b);
    if (seenEnds?.[0] && seenEnds[1]) this.addEnds(t, seenEnds[0], seenEnds[1]);
  }

  private addEnds(t: KnownRelationshipType, a: string, b: string): void {
    if (!t.ends.some(([x, y]) => x === a && y === b)) t.ends.push([a, b]);
  }

  private addStage(
    typeName: string,
    name: string,
    id: string | null,
    sequence: number | null,
    source: DiscoverySource,
  ): void {
    let byName = this.stages.get(typeName);
    if (!byName) this.stages.set(typeName, (byName = new Map<string, KnownStage>()));
    const key = nameKey(name);
    let s = byName.get(key);
    if (!s) {
      if (!this.room()) return;
      s = { name, id, sequence, sources: [] };
      byName.set(key, s);
    }
    s.id ??= id;
    s.sequence ??= sequence;
    s.sources = addSource(s.sources, source);
  }

  private addOption(
    typeName: string,
    field: string,
    option: string,
    id: string | null,
    optionKey: string | null,
    source: DiscoverySource,
  ): void {
    let byField = this.options.get(typeName);
    if (!byField) this.options.set(typeName, (byField = new Map<string, Map<string, KnownOption>>()));
    let byOption = byField.get(field);
    if (!byOption) byField.set(field, (byOption = new Map<string, KnownOption>()));
    const key = nameKey(option);
    let o = byOption.get(key);
    if (!o) {
      if (!this.room()) return;
      o = { option, id, optionKey, sources: [] };
      byOption.set(key, o);
    }
    o.id ??= id;
    o.optionKey ??= optionKey;
    o.sources = addSource(o.sources, source);
  }
}
