/**
 * The per-call metrics (hot-metrics.ts) as Prometheus reads them through prom-client's registry:
 * cumulative buckets with the bound itself inside its bucket, +Inf, _sum and _count per label set,
 * gauges that go down, and a registry reset.
 */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { HotCounter, HotHistogram } from '../src/observability/hot-metrics.js';
import { parseMetrics, sum } from './support/prometheus.js';

describe('hot metrics', () => {
  it('expose cumulative histogram buckets, sums and counts per label set', async () => {
    const registry = new Registry();
    const h = new HotHistogram({
      name: 'wait_seconds',
      help: 'Waits.',
      labelNames: ['upstream', 'priority'],
      buckets: [0.1, 0.01, 1],
      registers: [registry],
    });
    const list = h.labels('calendar', 'list');
    for (const s of [0.005, 0.01, 0.02, 0.1, 5]) list.observe(s);
    h.labels('governance', 'write').observe(0.5);

    const text = await registry.metrics();
    expect(text).toContain('# TYPE wait_seconds histogram');
    const samples = parseMetrics(text);
    const bucket = (le: string, upstream = 'calendar') =>
      sum(samples, 'wait_seconds_bucket', { upstream, le: new RegExp(`^${le.replace(/[.+]/g, '\\$&')}$`) });
    // A value equal to a bound counts in that bound's bucket (le means ≤).
    expect([bucket('0.01'), bucket('0.1'), bucket('1'), bucket('+Inf')]).toEqual([2, 4, 4, 5]);
    expect(sum(samples, 'wait_seconds_count', { upstream: 'calendar', priority: 'list' })).toBe(5);
    expect(sum(samples, 'wait_seconds_sum', { upstream: 'calendar' })).toBeCloseTo(5.135, 9);
    expect([bucket('0.1', 'governance'), bucket('1', 'governance')]).toEqual([0, 1]);
  });

  it('times with startTimer, counts up, and gauges down', async () => {
    const registry = new Registry();
    const h = new HotHistogram({ name: 'd', help: 'D.', labelNames: ['op'], buckets: [60], registers: [registry] });
    const c = new HotCounter({ name: 'c_total', help: 'C.', labelNames: ['op'], registers: [registry] });
    const g = new HotCounter({ type: 'gauge', name: 'g', help: 'G.', labelNames: ['op'], registers: [registry] });
    const end = h.labels('x').startTimer();
    end();
    c.labels('x').inc();
    c.labels('x').inc(2);
    g.labels('x').inc();
    g.labels('x').inc();
    g.labels('x').dec();

    const text = await registry.metrics();
    expect(text).toContain('# TYPE c_total counter');
    expect(text).toContain('# TYPE g gauge');
    const samples = parseMetrics(text);
    expect(sum(samples, 'd_bucket', { le: '60' })).toBe(1);
    expect(sum(samples, 'c_total', { op: 'x' })).toBe(3);
    expect(sum(samples, 'g', { op: 'x' })).toBe(1);

    registry.resetMetrics();
    expect(parseMetrics(await registry.metrics())).toEqual([]);
  });
});
