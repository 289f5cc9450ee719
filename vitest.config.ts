import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { runtimeProblem } from './src/config/runtime.js';

// The suite runs on the runtime the project supports (the `node` dev dependency under `npm test`).
const runtime = runtimeProblem();
if (runtime) throw new Error(runtime);

/**
 * Test files that start other processes (gateway replicas, `npm start`, the bench's gateways, a
 * browser, a load run) or a Redis server of their own: `npm test` runs them with the rest; `npm run
 * test:fast` leaves them out for the inner loop (in-process tests only).
 */
const PROCESSES = [
  'test/bench-smoke.test.ts',
  'test/budget-property.test.ts',
  'test/cache-shared.test.ts',
  'test/chaos.test.ts',
  'test/discovery-replicas.test.ts',
  'test/federation-routers.test.ts',
  'test/load.test.ts',
  'test/production-path.test.ts',
  'test/adversarial.test.ts',
  'test/settings-matrix.test.ts',
  'test/mcp-replicas.test.ts',
  'test/quiet-logs.test.ts',
  'test/server.test.ts',
  'test/settings.test.ts',
  'test/shutdown.test.ts',
];
/**
 * Of those, the ones whose assertions are about timing across processes (every sliding span of a
 * budget shared through Redis, with its guard band, and the bench's replicas workload; callers' caps
 * in every span of two replicas' arrivals while their Redis is killed; a browser rendering within its wait): they run last, one at a time, with nothing else of the suite beside them.
 */
const TIMED = [
  'test/bench-budget.test.ts',
  'test/fair-caps.test.ts',
  'test/graphiql-browser.test.ts',
  'test/traffic-redis.test.ts',
  'test/traffic-sliding.test.ts',
];

/**
 * Vitest orders files by project name first (fast, processes, timed), then the longest first. The
 * process files are the longest of all and mostly wait on their processes: they start first, and the
 * short in-process files fill the workers around them, instead of the longest starting last.
 */
class ProcessesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => (f.project.name === 'processes' ? 0 : 1);
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

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
    pool: 'forks',
    // The files spend most of their time waiting (on timers, deadlines, other processes): four at once
    // keep two cores busier than two did, and what they assert does not depend on how fast they run.
    maxWorkers: 4,
    sequence: { sequencer: ProcessesFirst },
    projects: [
      // One module graph per worker (not per file): loading the gateway took about as long as the
      // tests themselves. The files share no module state they change: each builds its own gateway.
      {
        extends: true,
        test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: [...PROCESSES, ...TIMED], isolate: false },
      },
      // Other processes start slowly on a loaded machine: a longer timeout there, the same assertions.
      // They run beside the in-process files: what they assert does not depend on how fast they run.
      {
        extends: true,
        test: { name: 'processes', include: PROCESSES, testTimeout: 120_000, hookTimeout: 120_000 },
      },
      // Last and one file at a time: each starts several processes (replicas, Redis) and asserts
      // timing guarantees (sliding spans through a Redis outage); beside other files on two cores
      // their processes stall for longer than the guarantees' guard bands.
      {
        extends: true,
        test: {
          name: 'timed',
          include: TIMED,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
