/** The short human-readable summary printed on stderr next to the JSON document. */
import type { BenchDocument } from './bench.js';

type Any = Record<string, any>;

const cell = (v: unknown) =>
  v === null || v === undefined ? '–' : typeof v === 'object' ? JSON.stringify(v) : String(v);

export function table(doc: BenchDocument): string {
  const rows: string[][] = [
    [
      'wl',
      'requests (g/c)',
      'lower bound',
      'ratio',
      'p50 ms',
      'p95 ms',
      'floor wall ms',
      'cpu ms/run',
      'floor cpu ms',
      'emulators cpu ms',
      'peak RSS MB',
    ],
  ];
  for (const w of doc.workloads as Any[]) {
    if (w.skipped || w.failed) {
      rows.push([w.id, `${w.skipped ? 'skipped' : 'FAILED'}: ${w.skipped ?? w.failed}`]);
      continue;
    }
    if (w.id === '6') {
      rows.push([w.id, `gateway ${w.gateway.perSecond} req/s vs bare Yoga ${w.bareYoga.perSecond} req/s = ${w.ratio}`]);
      continue;
    }
    if (w.id === '7') {
      rows.push([w.id, `max in a window ${w.maxInWindow} ÷ budget ${w.budget} = ${w.ratio}`]);
      continue;
    }
    if (w.id === '8') {
      rows.push([
        w.id,
        `three replicas in turn: ${w.upstreamRequests.governance}/${w.upstreamRequests.calendar} requests ÷ one cold EntityGraph's bound ${w.lowerBound.total} = ${w.ratio}`,
      ]);
      continue;
    }
    if (w.id === '14' || w.id === '14a') {
      const waves = (w.waves as Any[]).map((x) => `${x.p50Ms}/${x.maxMs}`).join(', ');
      rows.push([
        w.id,
        `calendar black-holed, p50/max ms of waves 1–3: ${waves}; floor ${w.floor.p50Ms}/${w.floor.maxMs}`,
      ]);
      continue;
    }
    if (w.id === '15') {
      const run = (r: Any) =>
        `${r.callsPerThousand}/1k ops, p50/p95 ${r.wallMs.p50}/${r.wallMs.p95} ms, ${r.gatewayCpuMsPerOperation} ms CPU/op`;
      rows.push([
        w.id,
        `replay: reuse off ${run(w.off)}; on ${run(w.on)}; on ÷ off ${w.reuseOnToOff}; floor ${w.floor.perThousand}/1k ops (on ÷ floor ${w.onToFloor})`,
      ]);
      continue;
    }
    if (w.id === '16') {
      rows.push([
        w.id,
        `fair share: polite p95 ${w.polite.p95Ms} ms beside greedy, ${w.politeAlone.p95Ms} ms alone, pace ${w.budget.paceMs} ms: ratio ${w.ratio}; served ${w.servedShareOfCapacity} of capacity`,
      ]);
      continue;
    }
    if (w.id === '13') {
      rows.push([w.id, `MB promoted by young collections: ${JSON.stringify(w.promotedMb)}`]);
      continue;
    }
    const u = w.upstreamRequests ?? {};
    const b = w.lowerBound;
    rows.push([
      w.id,
      `${cell(u.governance)}/${cell(u.calendar)}`,
      b ? `${b.governance}/${b.calendar}` : '–',
      cell(w.ratioToStormFree ?? w.ratio),
      cell(w.wallMs?.p50),
      cell(w.wallMs?.p95),
      cell(w.floor?.wallMsP50),
      cell(w.gateway?.cpuMsPerRun),
      cell(w.floor?.cpuMsPerRun),
      cell(w.emulatorsCpuMsPerRun),
      cell(w.gateway?.peakRssMb),
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.filter((r) => r.length > 1).map((r) => (r[i] ?? '').length)));
  const lines = rows.map((r) =>
    r.length === 2 ? `${r[0]!.padEnd(widths[0]!)}  ${r[1]}` : r.map((c, i) => c.padEnd(widths[i]!)).join('  '),
  );
  const targets = doc.targets.map(
    (t) =>
      `${t.status.toUpperCase().padEnd(7)} wl ${t.workload}: ${t.target} = ${cell(t.value)} (target ${t.limit})${t.note ? ` – ${t.note}` : ''}`,
  );
  return [...lines, '', ...targets, '', `bench ${doc.passed ? 'passed' : 'FAILED'} in ${doc.durationS} s`].join('\n');
}
