import { defineConfig } from 'vitest/config';

/**
 * Test files that start other processes (gateway replicas, `npm start`, the bench's gateways, a
 * browser, a load run) or a Redis server: `npm test` runs them with the rest; `npm run test:fast`
 * leaves them out for the inner loop (in-process tests only).
 */
const MULTI_PROCESS = [
  'test/bench-smoke.test.ts',
  'test/cache-shared.test.ts',
  'test/graphiql-browser.test.ts',
  'test/load.test.ts',
  'test/quiet-logs.test.ts',
  'test/server.test.ts',
  'test/settings.test.ts',
  'test/shutdown.test.ts',
  'test/traffic-redis.test.ts',
  'test/traffic-sliding.test.ts',
];

export default defineConfig({
  resolve: {
    // One graphql-js for everything: packages loaded by Node get its CommonJS entry, so the source
    // under test must too (Vite would pick the ESM `module` entry), or `instanceof GraphQLError`
    // and schema type checks fail across the two copies.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    globalSetup: ['test/support/redis-server.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Emulators and gateways listen on real sockets; two cores run two files at once comfortably.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      // One module graph per worker (not per file): loading the gateway took about as long as the
      // tests themselves. The files share no module state they change: each builds its own gateway.
      {
        extends: true,
        test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: MULTI_PROCESS, isolate: false },
      },
      // Other processes start slowly on a loaded machine: a longer timeout there, the same assertions.
      // One file at a time: each starts several processes (replicas, Redis, browsers) and some test
      // timing guarantees (sliding spans through a Redis outage); two such files at once on two cores
      // stall them for longer than the guarantees' guard bands.
      {
        extends: true,
        test: {
          name: 'multi-process',
          include: MULTI_PROCESS,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
