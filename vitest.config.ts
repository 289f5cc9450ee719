import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // One graphql-js for everything: packages loaded by Node get its CommonJS entry, so the source
    // under test must too (Vite would pick the ESM `module` entry), or `instanceof GraphQLError`
    // and schema type checks fail across the two copies.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/redis-server.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Emulators and gateways listen on real sockets; two cores run two files at once comfortably.
    pool: 'forks',
    maxWorkers: 2,
  },
});
