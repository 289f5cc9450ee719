/**
 * `tsx scripts/router-demand-control.ts`: Hive Gateway's demand control in front of this gateway,
 * reading the `@cost`/`@listSize` the subgraph SDL carries (docs/federation.md). Starts both
 * emulators and the gateway on loopback, composes the supergraph with `@apollo/composition`, runs
 * Hive Gateway (the `@graphql-hive/gateway` dev dependency's `hive-gateway`) with a cost limit, and sends it one operation within the limit and one over it. Prints, for each,
 * the router's estimate, the gateway's own, the answer, and the requests that reached this gateway;
 * exits 1 unless the over-budget one was refused with none.
 *
 *   tsx scripts/router-demand-control.ts [--max-cost 60]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { createGateway } from '../src/app/gateway.js';
import { schema } from '../src/app/schema.js';
import { startCalendarEmulator } from '../src/emulators/calendar/index.js';
import { loadConfig } from '../src/config/config.js';
import { startGovernanceEmulator } from '../src/emulators/governance/index.js';
import { estimateOperationCost } from '../src/http/plugins/operation-cost.js';

const HIVE_GATEWAY = fileURLToPath(new URL('../node_modules/@graphql-hive/gateway/dist/bin.js', import.meta.url));
const { values } = parseArgs({ options: { 'max-cost': { type: 'string', default: '60' } } });
const maxCost = Number(values['max-cost']);

const OPERATIONS = {
  within: `query Within { entities(first: 5) { totalCount nodes { id name links(first: 3) { totalCount } } } }`,
  over: `query Over { entities(first: 50) { nodes { id links(first: 20) { nodes { counterpart { id entity { name } } } } } } }`,
};

const [governance, calendar] = await Promise.all([startGovernanceEmulator(), startCalendarEmulator()]);
const config = loadConfig({
  NODE_ENV: 'development',
  LOG_LEVEL: 'silent',
  AUDIT_SINK: 'off',
  ...emulatorEnv(governance, calendar),
});
const gateway = createGateway({ config });
let reached = 0;
const counted: RequestListener = (req, res) => {
  reached++;
  gateway.handler(req, res);
};
const server = createServer(counted);
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const subgraphUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;

const dir = mkdtempSync(join(tmpdir(), 'router-demand-control-'));
const sdl = (await (await fetch(subgraphUrl, post('{ _service { sdl } }'))).json()) as {
  data: { _service: { sdl: string } };
};
const composed = composeServices([{ name: 'gateway', url: subgraphUrl, typeDefs: parse(sdl.data._service.sdl) }]);
if (composed.errors) throw new Error(composed.errors.map((e) => e.message).join('\n'));
writeFileSync(join(dir, 'supergraph.graphql'), composed.supergraphSdl);
writeFileSync(
  join(dir, 'gateway.config.mjs'),
  `export const gatewayConfig = { demandControl: { maxCost: ${maxCost}, includeExtensionMetadata: true } };\n`,
);

const port = 20_000 + Math.floor(Math.random() * 20_000);
const router = spawn(process.execPath, [HIVE_GATEWAY, 'supergraph', 'supergraph.graphql', '--port', String(port)], {
  cwd: dir,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const routerUrl = `http://127.0.0.1:${port}/graphql`;
let failed = false;
try {
  await waitFor(`http://127.0.0.1:${port}/healthcheck`);
  console.log(`Hive Gateway with demandControl.maxCost = ${maxCost}, in front of ${subgraphUrl}`);
  for (const [name, query] of Object.entries(OPERATIONS)) {
    const before = reached;
    const res = await fetch(routerUrl, post(query));
    const body = (await res.json()) as {
      data?: unknown;
      errors?: { message: string; extensions?: { code?: string } }[];
      extensions?: { cost?: { estimated?: number } };
    };
    const estimate = estimateOperationCost(schema, parse(query), undefined, {}).total;
    console.log(`\n${name}: ${query}`);
    console.log(`  gateway's own estimate (upstream calls): ${JSON.stringify(estimate)}`);
    console.log(`  router's estimate: ${body.extensions?.cost?.estimated ?? '(not reported)'}`);
    console.log(
      `  answer: HTTP ${res.status}, ${body.errors ? `errors ${JSON.stringify(body.errors.map((e) => ({ code: e.extensions?.code, message: e.message })))}` : 'data'}`,
    );
    console.log(`  requests that reached this gateway: ${reached - before}`);
    if (name === 'over') failed ||= !body.errors || reached !== before;
    if (name === 'within') failed ||= Boolean(body.errors) || reached === before;
  }
} finally {
  const exited = new Promise((r) => router.once('exit', r));
  if (router.exitCode === null && router.kill('SIGTERM')) await exited;
  rmSync(dir, { recursive: true, force: true });
  server.closeAllConnections();
  server.close();
  await gateway.close();
  await Promise.all([governance.close(), calendar.close()]);
}
console.log(
  failed
    ? '\nFAILED: the refusal was not as expected.'
    : '\nOK: over budget, refused by the router; nothing reached the gateway.',
);
process.exit(failed ? 1 : 0);

function post(query: string): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) };
}

/** Polls a URL until it answers 200. */
async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (router.exitCode !== null) throw new Error(`Hive Gateway exited (${router.exitCode}).`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > until) throw new Error(`Hive Gateway did not answer at ${url}.`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
