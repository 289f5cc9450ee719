/** Reads Prometheus text exposition into samples, so tests can assert on what /metrics serves. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** Sum of every sample of `name` whose labels include `where`. */
export function sum(samples: Sample[], name: string, where: Record<string, string | RegExp> = {}): number {
  return samples
    .filter(
      (s) =>
        s.name === name &&
        Object.entries(where).every(([k, v]) =>
          typeof v === 'string' ? s.labels[k] === v : v.test(s.labels[k] ?? ''),
        ),
    )
    .reduce((total, s) => total + s.value, 0);
}
