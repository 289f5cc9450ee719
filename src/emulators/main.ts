/**
 * `npm run emulators`: both upstream emulators standalone, for poking at the REST APIs directly or
 * for pointing a separately started gateway at them, on the fixed ports 4010 and 4020 (the ones the
 * docs and examples name); the `/_emulator/*` control routes are on.
 */
import { startCalendarEmulator } from './calendar/index.js';
import { startGovernanceEmulator } from './governance/index.js';
import { processEnv, readSettings } from '../config/settings.js';
import { runtimeProblem } from '../config/runtime.js';

const runtime = runtimeProblem();
if (runtime) {
  console.error(runtime);
  process.exit(1);
}

const { settings, problems } = readSettings(processEnv());
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
const host = settings.HOST ?? '127.0.0.1';
/** A port in use is one line, not Node's stack. */
const orExit = <T>(port: number, started: Promise<T>) =>
  started.catch((e: NodeJS.ErrnoException) => {
    const why = e.code === 'EADDRINUSE' ? 'is already in use' : `cannot be listened on (${e.code ?? e.message})`;
    console.error(`emulators failed to start: port ${port} on ${host} ${why}; stop what listens there or set HOST`);
    process.exit(1);
  });
const governance = await orExit(4010, startGovernanceEmulator({ port: 4010, host, controlRoutes: true }));
const calendar = await orExit(4020, startCalendarEmulator({ port: 4020, host, controlRoutes: true }));

const { full } = governance.clients;
const { editor } = calendar.users;
console.log(`governance emulator: ${governance.origin}  (API ${governance.apiRoot}, token ${governance.tokenUrl})`);
console.log(`  client credentials: ${full.clientId} / ${full.clientSecret} (AI_GOVERNANCE)`);
console.log(`calendar emulator:   ${calendar.apiRoot}`);
console.log(`  application password: ${editor.username} / ${editor.appPassword}`);
console.log('To use them from a gateway:');
console.log(
  `  GOVERNANCE_URL=${governance.origin} GOVERNANCE_CLIENT_ID=${full.clientId} GOVERNANCE_CLIENT_SECRET=… \\`,
);
console.log(`  CALENDAR_URL=${calendar.apiRoot} CALENDAR_USER=${editor.username} CALENDAR_APP_PASSWORD=… npm start`);

const stop = async () => {
  await Promise.all([governance.close(), calendar.close()]);
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
