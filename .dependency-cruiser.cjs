/**
 * The walls of ARCHITECTURE.md, as dependency-cruiser rules (`npm run lint` runs them on src/).
 *
 * Each layer lists what it may import; anything else under src/ is refused. `may` is for imports
 * that run; `types` adds what a layer may import as `import type` only (erased at run time, so it
 * loads nothing and cannot form a cycle at run time); `dynamic` is what it may load with `import()`
 * only. `never` carves files out of a layer it may otherwise import. A layer always may import
 * itself. The runtime allow-lists form no cycle (checked below, when this file loads), so no two
 * layers can import each other at run time; no two files may import each other in any way.
 * test/lint-walls.test.ts breaks each wall on purpose; ARCHITECTURE.md's walls table is printed
 * from this list (`node .dependency-cruiser.cjs`) and checked by that test.
 */
const areas = {
  'server.ts': '^src/server\\.ts$',
  'emulators/main.ts': '^src/emulators/main\\.ts$',
  app: '^src/app/',
  http: '^src/http/',
  observability: '^src/observability/',
  'governance/schema': '^src/governance/schema/',
  'calendar/schema': '^src/calendar/schema/',
  live: '^src/live/',
  graph: '^src/graph/',
  identity: '^src/identity/',
  mcp: '^src/mcp/',
  governance: '^src/governance/[^/]+$',
  calendar: '^src/calendar/[^/]+$',
  'governance/wire.ts': '^src/governance/wire\\.ts$',
  'calendar/wire.ts': '^src/calendar/wire\\.ts$',
  'calendar/zones.ts': '^src/calendar/zones\\.ts$',
  'core/http.ts': '^src/core/http\\.ts$',
  core: '^src/core/',
  config: '^src/config/',
  'emulators/governance': '^src/emulators/governance/',
  'emulators/calendar': '^src/emulators/calendar/',
  'emulators/kit': '^src/emulators/kit/',
  operations: '^src/operations/',
  generated: '^src/generated/',
  // Packages that only some layers may load.
  graphql:
    '^node_modules/(graphql|graphql-yoga|@graphql-yoga|@pothos|@envelop|@escape\\.tech|@apollo|graphql-[a-z-]+)/',
  undici: '^node_modules/undici/',
  hono: '^node_modules/(hono|@hono)/',
};

const upstreamSchema = (u) => ({
  may: ['graph', 'live', 'core', u],
  types: ['config'],
  never: [`${u}/wire.ts`, 'core/http.ts', 'undici', 'hono'],
  why: 'GraphQL types and resolvers: they read the adapter’s records and services, never the wire shapes or HTTP.',
});
const adapter = () => ({
  may: ['core'],
  types: ['config'],
  never: ['graphql', 'hono'],
  why: 'client, loaders, service, inputs: they see no GraphQL (they throw InputError / UpstreamError).',
});
const emulator = (u, extra = []) => ({
  may: [`${u}/wire.ts`, ...extra, 'emulators/kit'],
  why: 'stands for the real system: of the gateway it sees only its wire shapes.',
});

/** @type {Record<string, { may?: string[], types?: string[], dynamic?: string[], never?: string[], why: string }>} */
const layers = {
  'server.ts': {
    may: ['app', 'config', 'http', 'observability', 'core'],
    never: ['hono'],
    why: 'process entry of the gateway.',
  },
  'emulators/main.ts': {
    may: ['config', 'emulators/governance', 'emulators/calendar', 'emulators/kit'],
    why: 'process entry of the standalone emulators.',
  },
  app: {
    may: [
      'http',
      'observability',
      'governance/schema',
      'calendar/schema',
      'live',
      'graph',
      'identity',
      'mcp',
      'governance',
      'calendar',
      'core',
      'config',
      'operations',
      'generated',
    ],
    dynamic: ['emulators/governance', 'emulators/calendar'],
    never: ['hono'],
    why: 'assembles the gateway; the emulators load only when embedded.',
  },
  http: {
    may: ['observability', 'graph', 'identity', 'core', 'operations', 'generated'],
    types: ['config'],
    never: ['hono'],
    why: 'Yoga plugins, response cache, GraphiQL, persisted operations.',
  },
  mcp: {
    may: ['http', 'identity', 'core'],
    types: ['config'],
    never: ['hono'],
    why: 'the MCP endpoint: curated operations as tools, each call a request to the gateway’s own GraphQL endpoint.',
  },
  observability: {
    may: ['core'],
    types: ['graph', 'config'],
    never: ['hono'],
    why: 'metrics, logs, traces, readiness: fed by http/ and the pipeline, never calling them.',
  },
  'governance/schema': upstreamSchema('governance'),
  'calendar/schema': upstreamSchema('calendar'),
  live: {
    may: ['graph', 'core'],
    types: ['governance', 'calendar', 'config'],
    never: ['governance/wire.ts', 'calendar/wire.ts', 'undici', 'hono'],
    why: 'subscriptions: change bus, pollers, shared GraphQL pieces.',
  },
  graph: {
    may: ['identity', 'core'],
    types: ['governance', 'calendar', 'live', 'config'],
    never: ['governance/wire.ts', 'calendar/wire.ts', 'core/http.ts', 'undici', 'hono'],
    why: 'builder, scalars, errors, paging, context: knows neither upstream (its context names their services’ types).',
  },
  identity: {
    may: ['core'],
    types: ['config'],
    never: ['graphql', 'hono'],
    why: 'token verification, API keys, permissions, audit.',
  },
  governance: adapter(),
  calendar: adapter(),
  core: {
    types: ['config'],
    never: ['graphql', 'hono'],
    why: 'the upstream pipeline below both upstreams: no upstream, no GraphQL, no HTTP server.',
  },
  config: {
    never: ['graphql', 'hono', 'undici'],
    why: 'reads and checks the environment; imports nothing of the gateway.',
  },
  'emulators/governance': emulator('governance'),
  'emulators/calendar': emulator('calendar', ['calendar/zones.ts']),
  'emulators/kit': { why: 'what both emulators share (serving, request log, latency, faults).' },
  operations: { why: 'the example operations (GraphQL documents).' },
  generated: { why: 'codegen output.' },
};

/** Any project file or package of `names` (area names). */
const pathsOf = (names) => names.map((n) => areas[n]);

const forbidden = [
  {
    name: 'no-cycle',
    comment: 'no two files import each other, directly or around a loop, type-only imports included',
    severity: 'error',
    from: { path: '^src/' },
    to: { circular: true },
  },
  {
    name: 'not-in-a-layer',
    comment: 'every file under src/ belongs to a layer: a new folder gets its row in the table below',
    severity: 'error',
    from: { path: '^src/', pathNot: Object.keys(layers).map((n) => areas[n]) },
    to: {},
  },
];
for (const [name, layer] of Object.entries(layers)) {
  const own = [name, ...(layer.may ?? [])];
  const from = { path: areas[name] };
  const rule = (suffix, to) => ({ name: `${name}${suffix}`, comment: layer.why, severity: 'error', from, to });
  forbidden.push(
    rule('', {
      path: '^src/',
      pathNot: pathsOf(own),
      dependencyTypesNot: ['type-only', 'dynamic-import'],
    }),
    rule(' (import type)', {
      path: '^src/',
      pathNot: pathsOf([...own, ...(layer.types ?? []), ...(layer.dynamic ?? [])]),
      dependencyTypes: ['type-only'],
    }),
    rule(' (import())', {
      path: '^src/',
      pathNot: pathsOf([...own, ...(layer.dynamic ?? [])]),
      dependencyTypes: ['dynamic-import'],
    }),
  );
  if (layer.never) forbidden.push(rule(' (never)', { path: pathsOf(layer.never) }));
}

/** The runtime allow-lists, as a graph of areas, must have no cycle: then the code can have none. */
function assertNoLayerCycle() {
  const state = new Map();
  const visit = (name, trail) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'open')
      throw new Error(`walls: the layers' allow-lists form a cycle: ${trail.join(' → ')}`);
    state.set(name, 'open');
    for (const next of [...(layers[name]?.may ?? []), ...(layers[name]?.dynamic ?? [])])
      if (next !== name) visit(next, [...trail, next]);
    state.set(name, 'done');
  };
  for (const name of Object.keys(layers)) visit(name, [name]);
}
assertNoLayerCycle();

/** ARCHITECTURE.md's walls table, printed from the list above. */
function wallsTable() {
  const list = (names = []) =>
    names.map((n) => (areas[n].startsWith('^node_modules') ? n : `\`${n}\``)).join(', ') || '—';
  const rows = Object.entries(layers).map(([name, l]) =>
    [`\`${name}\``, list(l.may), list(l.types), list(l.dynamic), list(l.never)].join(' | '),
  );
  const head = ['layer', 'may import', 'and as types only', 'and with `import()` only', 'never'];
  return [head, head.map(() => '---'), ...rows].map((r) => `| ${Array.isArray(r) ? r.join(' | ') : r} |`).join('\n');
}

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

if (require.main === module) console.log(wallsTable());
