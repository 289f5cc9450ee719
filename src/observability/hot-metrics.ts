/**
 * Counters and histograms for the per-upstream-call hooks, exposed through a prom-client registry
 * in its own format. prom-client's metrics validate and hash their label object and look the bucket
 * up by its bound as a string on every observation; a cold EntityGraph makes hundreds of upstream
 * calls, each with several observations (docs/decisions/hot-metrics.md). Here a child is looked up
 * once per label set and an observation is a few array writes.
 * Everything else (the registry, exposition, default metrics, the rarer metrics) stays prom-client.
 */
import type { Registry } from 'prom-client';

interface Sample {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

/** What prom-client's registry reads from a metric's `get()`. */
export interface Exposed {
  name: string;
  help: string;
  type: string;
  values: Sample[];
  aggregator: 'sum';
}

interface Options {
  name: string;
  help: string;
  labelNames: readonly string[];
  registers: Registry[];
}

abstract class HotMetric<Child> {
  readonly name: string;
  readonly help: string;
  readonly aggregator = 'sum' as const;
  protected readonly children: { labels: Record<string, string>; child: Child }[] = [];
  /** Label value → … → child, one level per label: a lookup allocates nothing. */
  private tree = new Map<string, unknown>();
  private readonly labelNames: readonly string[];

  constructor(options: Options) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
    // prom-client's Registry takes any object with a name and `get()` (its type says Metric).
    for (const r of options.registers) r.registerMetric(this as never);
  }

  /** The child for these label values, in `labelNames` order (bounded sets, chosen in code). */
  labels(...values: string[]): Child {
    let node = this.tree;
    const last = this.labelNames.length - 1;
    for (let i = 0; i < last; i++) {
      const value = values[i] ?? '';
      let next = node.get(value) as Map<string, unknown> | undefined;
      if (next === undefined) node.set(value, (next = new Map<string, unknown>()));
      node = next;
    }
    const leaf = values[last] ?? '';
    let child = node.get(leaf) as Child | undefined;
    if (child === undefined) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((n, i) => (labels[n] = values[i] ?? ''));
      child = this.make();
      node.set(leaf, child);
      this.children.push({ labels, child });
    }
    return child;
  }

  reset(): void {
    this.children.length = 0;
    this.tree = new Map<string, unknown>();
  }

  protected abstract make(): Child;
}

interface Tally {
  value: number;
  inc(by?: number): void;
  dec(by?: number): void;
}

/** A counter, or with `type: 'gauge'` a gauge (one that also goes down). */
export class HotCounter extends HotMetric<Tally> {
  readonly type: 'counter' | 'gauge';

  constructor(options: Options & { type?: 'counter' | 'gauge' }) {
    super(options);
    this.type = options.type ?? 'counter';
  }

  protected make(): Tally {
    return {
      value: 0,
      inc(by = 1) {
        this.value += by;
      },
      dec(by = 1) {
        this.value -= by;
      },
    };
  }

  async get(): Promise<Exposed> {
    const values = this.children.map(({ labels, child }) => ({ labels, value: child.value }));
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

export interface HotHistogramChild {
  observe(seconds: number): void;
  /** Starts a timer; the returned function observes the seconds since. */
  startTimer(): () => void;
}

export class HotHistogram extends HotMetric<HotHistogramChild & { counts: number[]; sum: number; count: number }> {
  readonly type = 'histogram' as const;

  constructor(options: Options & { buckets: readonly number[] }) {
    super(options);
    this.bounds = [...options.buckets].sort((a, b) => a - b);
  }

  private readonly bounds: number[];

  protected make() {
    const bounds = this.bounds;
    const child = {
      counts: bounds.map(() => 0),
      sum: 0,
      count: 0,
      observe(seconds: number) {
        child.sum += seconds;
        child.count += 1;
        const i = bounds.findIndex((bound) => seconds <= bound);
        if (i >= 0) child.counts[i] = (child.counts[i] ?? 0) + 1;
      },
      startTimer() {
        const start = performance.now();
        return () => child.observe((performance.now() - start) / 1000);
      },
    };
    return child;
  }

  async get(): Promise<Exposed> {
    const values: Sample[] = [];
    const bucket = `${this.name}_bucket`;
    for (const { labels, child } of this.children) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += child.counts[i] ?? 0;
        values.push({ metricName: bucket, labels: { le, ...labels }, value: cumulative });
      });
      values.push({ metricName: bucket, labels: { le: '+Inf', ...labels }, value: child.count });
      values.push({ metricName: `${this.name}_sum`, labels, value: child.sum });
      values.push({ metricName: `${this.name}_count`, labels, value: child.count });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}
