/**
 * Run as a process of its own by test/observability.test.ts: a gateway without an OTLP endpoint
 * answers a query, then prints whether it has a tracer and which OpenTelemetry SDK modules this fresh
 * process loaded (in the test's own worker, another file may have loaded them already).
 */
import { createRequire } from 'node:module';
import { emulatorEnv } from '../../src/app/embedded-emulators.js';
import { createGateway } from '../../src/app/gateway.js';
import { startCalendarEmulator } from '../../src/emulators/calendar/index.js';
import { loadConfig } from '../../src/config/config.js';
import { startGovernanceEmulator } from '../../src/emulators/governance/index.js';

const [governance, calendar] = await Promise.all([startGovernanceEmulator(), startCalendarEmulator()]);
const gateway = createGateway({ config: loadConfig({ NODE_ENV: 'test', ...emulatorEnv(governance, calendar) }) });
const res = await gateway.yoga.fetch('http://gateway.test/graphql', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query: '{ entityTypes(first: 1) { totalCount } }' }),
});
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((p) => p.includes('@opentelemetry/sdk-'));
console.log(JSON.stringify({ status: res.status, tracer: gateway.observability.tracing !== undefined, loaded }));
await gateway.close();
await Promise.all([governance.close(), calendar.close()]);
