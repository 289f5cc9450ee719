/**
 * Process entry: read and validate the settings, start the embedded emulators when asked (the
 * zero-config default outside production), build the gateway and listen. Configuration problems
 * are printed one per line and the process exits 1, without a stack trace. `--help` lists the
 * production checklist and the common settings, `--help all` every setting. SIGTERM/SIGINT drain
 * gracefully (`http/drain.ts`); a second signal exits at once, unless it comes within
 * `SIGNAL_GRACE_MS` of the first: a signal sent to the process group (Ctrl-C on `npm start`, systemd
 * stopping `npm run start:prod`) reaches node twice, from npm and directly, and is one request to stop.
 */
import { createServer, type Server } from 'node:http';
import { ConfigError, loadConfig, type Config } from './config/config.js';
import { renderHelp } from './config/help.js';
import { startEmbeddedUpstreams, type EmbeddedUpstreams } from './app/embedded-emulators.js';
import { createGateway, type Gateway } from './app/gateway.js';
import { anonymousLine, startDevIdentity, type DevIdentity } from './app/dev-identity.js';
import { Drain } from './http/drain.js';
import { isLoopback } from './http/front-door.js';
import { runtimeProblem } from './config/runtime.js';

/** Two copies of one signal arrive within milliseconds; a person pressing Ctrl-C again takes longer. */
const SIGNAL_GRACE_MS = 1_000;

const runtime = runtimeProblem();
if (runtime) {
  console.error(runtime);
  process.exit(1);
}

async function main(): Promise<void> {
  const help = process.argv.findIndex((a) => a === '--help' || a === '-h');
  if (help >= 0) {
    process.stdout.write(renderHelp(process.argv[help + 1] === 'all'));
    return;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }

  let embedded: EmbeddedUpstreams | undefined;
  if (config.embeddedEmulators) {
    embedded = await startEmbeddedUpstreams(config, { controlRoutes: config.emulatorFaultRoutes });
    config = embedded.config;
    console.log(
      `embedded governance emulator: ${embedded.governanceOrigin}${config.emulatorFaultRoutes ? ' (fault routes on)' : ''}`,
    );
    console.log(`embedded calendar emulator:   ${embedded.calendarApiRoot}`);
  }

  const log = (line: string) => process.stdout.write(`${line}\n`);
  let devIdentity: DevIdentity | undefined;
  if (config.embeddedEmulators && config.auth.issuers.length === 0) {
    devIdentity = await startDevIdentity(config, log);
    config = devIdentity.config;
  }
  logStartNotes(config, log);
  const drain = new Drain({ drainMs: config.http.drainMs, retryAfterS: config.http.retryAfterS, log });
  const gateway = createGateway({
    config,
    extraPlugins: [drain.plugin()],
    around: (listener) => drain.wrap(listener),
    sampleCallers: devIdentity?.tokens,
  });
  void gateway.governance.seedDiscovery();
  const { headersMs, requestMs, checkEveryMs } = config.http.timeouts;
  // A request's headers and its whole body arrive within seconds, or its socket is closed (408).
  const server = createServer(
    { headersTimeout: headersMs, requestTimeout: requestMs, connectionsCheckingInterval: checkEveryMs },
    gateway.handler,
  );
  server.once('error', (e: NodeJS.ErrnoException) => {
    // One line, no stack: the usual cause is a second gateway or a leftover process on the port.
    const where = `${config.host}:${config.port}`;
    console.error(
      e.code === 'EADDRINUSE'
        ? `gateway failed to start: port ${config.port} is already in use (${where}); stop what listens there or set PORT`
        : `gateway failed to start: cannot listen on ${where}: ${e.code ?? e.message}`,
    );
    process.exit(1);
  });
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host === '0.0.0.0' ? 'localhost' : config.host;
    console.log(`gateway ready: http://${host}:${port}/graphql${config.graphiql ? ' (GraphiQL in a browser)' : ''}`);
    void logUpstreams(gateway);
  });

  stopOnSignals(server, drain, log, config.http.drainMs, async () => {
    // Flushes the budget counters to Redis, closes Redis and the upstream pools.
    await gateway.close();
    await embedded?.close();
    await devIdentity?.close();
  });
}

/** SIGTERM/SIGINT drain, then close everything and exit 0; a later signal exits 1 at once. */
function stopOnSignals(
  server: Server,
  drain: Drain,
  log: (line: string) => void,
  drainMs: number,
  close: () => Promise<void>,
): void {
  let stoppingSince: number | undefined;
  const shutdown = async (signal: string) => {
    if (stoppingSince !== undefined) {
      if (performance.now() - stoppingSince < SIGNAL_GRACE_MS) return;
      log(JSON.stringify({ level: 'warn', msg: `${signal} again: exiting at once` }));
      process.exit(1);
    }
    stoppingSince = performance.now();
    log(JSON.stringify({ level: 'info', msg: `${signal}: draining`, drainMs }));
    // Idle keep-alive sockets go now; the listener stays open so probes see /ready turn 503.
    server.closeIdleConnections();
    const report = await drain.begin();
    server.close();
    server.closeAllConnections();
    await close();
    log(JSON.stringify({ level: 'info', msg: 'drained; exiting', ...report }));
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

/**
 * Who may call without credentials, which host names are answered, and what callers will see of
 * discovery in production without the tenant's file (docs/api-conventions.md).
 */
function logStartNotes(config: Config, log: (line: string) => void): void {
  const anonymous = anonymousLine(config);
  if (anonymous) log(anonymous);
  if (config.env === 'production' && !isLoopback(config.host) && config.http.publicHosts.length === 0)
    log(
      JSON.stringify({
        level: 'warn',
        msg: 'PUBLIC_HOSTS is not set: only IP addresses and loopback names are answered, a request by any other host name gets 403',
      }),
    );
  const described = config.discoveryFile || config.embeddedEmulators;
  if (config.env !== 'production' || described || !['debug', 'info', 'warn'].includes(config.logLevel)) return;
  const learned =
    config.governance.authMode === 'forward'
      ? 'with forwarded credentials nothing is learned from answers, so stage filters know only the documented stages'
      : 'stages and organizations are learned from records (one page of each kind at start, then every answer): stages listed by name without their workflow order, organizations by id without names';
  const msg = `GOVERNANCE_DISCOVERY_FILE is not set: ${learned}. Set it to the tenant's workflows, organizations, relationship types and attribute options.`;
  log(JSON.stringify({ level: 'warn', msg }));
}

/**
 * One line per upstream at start: does it answer, and if not, why (never its URL). The status of an
 * upstream that answers is left out: the probe asks for the root, which an API may well not serve.
 */
async function logUpstreams(gateway: Gateway): Promise<void> {
  const reports = await gateway.observability.upstreamReports();
  for (const [name, r] of Object.entries(reports)) {
    const status = r.status !== undefined && r.state !== 'up' ? `HTTP ${r.status}` : undefined;
    const detail = [status, r.cause].filter(Boolean).join(', ');
    const state =
      r.state === 'up' ? 'answers' : r.state === 'paused' ? 'is pausing the gateway (429)' : 'does not answer';
    console.log(`upstream ${name}: ${state}${detail ? ` (${detail})` : ''}`);
  }
}

main().catch((e: unknown) => {
  console.error(`gateway failed to start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
