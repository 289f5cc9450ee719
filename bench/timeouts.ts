/**
 * Workload 10: how exactly a sub-second timeout fires. The gateway's transport is pointed at a
 * governance emulator that stalls every answer, with a 300 ms header timeout; the figure is how
 * late each timeout fired (fired − 300 ms), its p50, p95 and max. undici's own timers are coarse
 * (a 300 ms timeout fired after about 800 ms); the gateway's own should stay within ~50 ms.
 */
import { HttpTransport } from '../src/core/http.js';
import { percentile, round } from './client.js';
import { startEmulator, type Upstreams } from './upstreams.js';
import type { BenchOptions, WorkloadRecord } from './workloads.js';

const TIMEOUT_MS = 300;

export async function timeoutSpread(_up: Upstreams, options: BenchOptions): Promise<WorkloadRecord> {
  const emulator = await startEmulator('governance', { faults: [{ kind: 'stall', delayMs: 5_000 }] });
  const transport = new HttpTransport({
    upstream: 'governance',
    timeouts: { connectMs: 1_000, headersMs: TIMEOUT_MS, bodyMs: 1_000 },
    maxBodyBytes: 1_000_000,
  });
  const runs = options.quick ? 3 : 20;
  const late: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await transport
        .send({ method: 'GET', origin: emulator.origin, path: '/api/ai-governance/v1/entity-types' })
        .catch(() => undefined);
      late.push(performance.now() - start - TIMEOUT_MS);
    }
  } finally {
    await transport.close();
    await emulator.child.stop();
  }
  return {
    id: '10',
    name: `timeout spread: a ${TIMEOUT_MS} ms header timeout against a stalled upstream, ${runs} runs`,
    timeoutMs: TIMEOUT_MS,
    runs,
    lateMs: {
      p50: round(percentile(late, 50), 1),
      p95: round(percentile(late, 95), 1),
      max: round(Math.max(...late), 1),
      min: round(Math.min(...late), 1),
    },
  };
}
