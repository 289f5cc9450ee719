/**
 * The governance emulator of workload 7 in a process of its own. Its arrival timestamps are what the
 * sliding-span figure is computed from; in the bench's own process they would be taken on the event
 * loop that also drives the load, and a stall there bunches them (a stall longer than the budget's
 * guard band inflates the figure). Options come as JSON in BENCH_EMULATOR_OPTIONS.
 */
import { startGovernanceEmulator, type GovernanceEmulatorOptions } from '../src/governance/emulator/index.js';
import { announceReady, serveParent } from './ipc.js';

const options = JSON.parse(process.env.BENCH_EMULATOR_OPTIONS ?? '{}') as GovernanceEmulatorOptions;
const governance = await startGovernanceEmulator(options);

serveParent({
  endpoint: () => ({
    origin: governance.origin,
    tokenUrl: governance.tokenUrl,
    clients: { full: governance.clients.full },
  }),
  // Arrival times (epoch ms, sub-millisecond) and statuses of every request since the last clear.
  requests: () => governance.control.requests().requests.map((r) => ({ receivedAt: r.receivedAt, status: r.status })),
  clear: () => {
    governance.control.clearRequests();
    return true;
  },
});

announceReady(governance.origin);
