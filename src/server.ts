/**
 * Process entry: read the environment, start the embedded emulators when no upstream URLs are
 * configured, build the gateway and listen. Configuration problems are printed one per line and
 * the process exits 1, without a stack trace.
 */
import { createServer } from 'node:http';
import { ConfigError, loadConfig, type Config } from './config/config.js';
import { startEmbeddedUpstreams, type EmbeddedUpstreams } from './app/embedded-emulators.js';
import { createGateway } from './app/gateway.js';

async function main(): Promise<void> {
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
  if (!config.governance.url && !config.calendar.url) {
    embedded = await startEmbeddedUpstreams(config, { controlRoutes: config.env !== 'production' });
    config = embedded.config;
    console.log(`embedded governance emulator: ${embedded.governanceOrigin}`);
    console.log(`embedded calendar emulator:   ${embedded.calendarApiRoot}`);
  }

  const gateway = createGateway({ config });
  const server = createServer(gateway.yoga);
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host === '0.0.0.0' ? 'localhost' : config.host;
    console.log(`gateway ready: http://${host}:${port}/graphql${config.graphiql ? ' (GraphiQL in a browser)' : ''}`);
  });

  const shutdown = async (signal: string) => {
    console.log(`${signal}: shutting down`);
    server.close();
    server.closeAllConnections();
    await gateway.close();
    await embedded?.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((e: unknown) => {
  console.error(`gateway failed to start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
