/**
 * One upstream emulator in a process of its own, as a real upstream is a server of its own: its CPU
 * is neither the gateway's nor the load side's, and its arrival timestamps are taken on its own event
 * loop (a stall of the load side cannot bunch them). BENCH_EMULATOR names it (`governance` or
 * `calendar`); its options come as JSON in BENCH_EMULATOR_OPTIONS. The parent reads the request log,
 * sets latency and faults, resets the data and (calendar) edits records through the IPC channel.
 */
import { startCalendarEmulator } from '../src/emulators/calendar/index.js';
import type { EmulatorControl, FaultRule, LatencyOptions } from '../src/emulators/kit/control.js';
import { startGovernanceEmulator } from '../src/emulators/governance/index.js';
import { announceReady, serveParent } from './ipc.js';

/** What a gateway (and the bench's own walkers) need to reach the emulator. */
export interface EmulatorEndpoint {
  origin: string;
  apiRoot: string;
  /** Governance only. */
  tokenUrl: string;
  clients: { full: { clientId: string; clientSecret: string } };
  /** Calendar only. */
  users: { editor: { username: string; appPassword: string } };
}

const options = JSON.parse(process.env.BENCH_EMULATOR_OPTIONS ?? '{}') as Record<string, unknown>;
const kind = process.env.BENCH_EMULATOR ?? 'governance';
let endpoint: EmulatorEndpoint;
let control: EmulatorControl;
let editTitle: (id: number, title: string) => boolean = () => false;
if (kind === 'calendar') {
  const calendar = await startCalendarEmulator(options);
  control = calendar.control;
  editTitle = calendar.editTitle;
  endpoint = {
    origin: calendar.origin,
    apiRoot: calendar.apiRoot,
    tokenUrl: '',
    clients: { full: { clientId: '', clientSecret: '' } },
    users: { editor: calendar.users.editor },
  };
} else {
  const governance = await startGovernanceEmulator(options);
  control = governance.control;
  endpoint = {
    origin: governance.origin,
    apiRoot: governance.apiRoot,
    tokenUrl: governance.tokenUrl,
    clients: { full: governance.clients.full },
    users: { editor: { username: '', appPassword: '' } },
  };
}

serveParent({
  endpoint: () => endpoint,
  // Every request since the last clear (method, path, route, status, arrival times, body).
  requests: () => control.requests().requests,
  clear: () => (control.clearRequests(), true),
  latency: (latency) => (control.setLatency(latency as LatencyOptions), true),
  faults: (rules) => (control.setFaults(rules as FaultRule[]), true),
  // The seed data again, and the log, latency and faults as at start.
  reset: () => (control.reset(), true),
  // Calendar only: an edit made outside the API (the replay's outside editor).
  'edit-title': (payload) => {
    const { id, title } = payload as { id: number; title: string };
    return editTitle(id, title);
  },
});

announceReady(endpoint.origin);
