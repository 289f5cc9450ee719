/**
 * Workload 9: cheap refusal of large bodies. `{ __typename }` is timed alone, then again while
 * other connections keep sending 5 MB bodies, which the gateway must answer 413 from their
 * Content-Length without parsing them. Recorded: the refusals' statuses and times, and
 * how much the concurrent `{ __typename }` slowed down (ratio of medians; no wall-time target).
 */
import { Worker } from 'node:worker_threads';
import { round, type GraphQLClient } from './client.js';
import { wall } from './measure.js';
import type { WorkloadRecord } from './workloads.js';

const BIG_BYTES = 5 * 1024 * 1024;

/** Senders of 5 MB bodies, each in a loop until told to stop; then they report what they saw. */
const ATTACKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { request } = require('undici');
const body = Buffer.alloc(workerData.bytes, 'x');
let stop = false;
const refusals = [];
const statuses = {};
parentPort.on('message', () => { stop = true; });
async function send() {
  while (!stop) {
    const started = performance.now();
    let status;
    try {
      const res = await request(workerData.url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length) }, body });
      await res.body.dump();
      status = String(res.statusCode);
    } catch (e) {
      // A connection closed while the body is still going out would show here.
      status = 'closed:' + (e.code || 'error');
    }
    refusals.push(performance.now() - started);
    statuses[status] = (statuses[status] || 0) + 1;
  }
}
parentPort.postMessage('started');
Promise.all(Array.from({ length: workerData.senders }, send)).then(() => parentPort.postMessage({ refusals, statuses }));
`;

async function typenames(client: GraphQLClient, runs: number): Promise<{ times: number[]; errors: number }> {
  const times: number[] = [];
  let errors = 0;
  for (let i = 0; i < runs; i++) {
    const r = await client.run('{ __typename }');
    times.push(r.ms);
    if (r.status !== 200 || r.errors.length) errors++;
  }
  return { times, errors };
}

export async function bodyRefusal(url: string, client: GraphQLClient, quick: boolean): Promise<WorkloadRecord> {
  const runs = quick ? 50 : 300;
  await typenames(client, 20); // warm
  const alone = await typenames(client, runs);

  // The senders run on a worker thread, so that their writes never delay the timed client's loop.
  const worker = new Worker(ATTACKER, { eval: true, workerData: { url, bytes: BIG_BYTES, senders: 4 } });
  await new Promise((resolve) => worker.once('message', resolve));
  const underAttack = await typenames(client, runs);
  worker.postMessage('stop');
  const { refusals, statuses } = await new Promise<{ refusals: number[]; statuses: Record<string, number> }>(
    (resolve) => worker.once('message', resolve),
  );
  await worker.terminate();

  const a = wall(alone.times);
  const b = wall(underAttack.times);
  return {
    id: '9',
    name: '5 MB bodies refused (413) while { __typename } runs',
    runs,
    errors: alone.errors + underAttack.errors,
    refusals: { count: refusals.length, statuses, wallMs: wall(refusals) },
    typenameAloneMs: a,
    typenameDuringRefusalsMs: b,
    p50Ratio: round(b.p50 / a.p50, 2),
    p95Ratio: round(b.p95 / a.p95, 2),
  };
}
