/**
 * The import walls of ARCHITECTURE.md are dependency-cruiser rules (`.dependency-cruiser.cjs`, run by
 * `npm run lint`). Here each wall is broken on purpose: a probe file per forbidden edge is written into
 * a temporary copy of src/ (the repository is never touched), one cruise checks them all, and each
 * must be refused by the rule that guards it, while the imports the walls allow pass. The same cruise
 * follows the gateway's entry to show that no emulator code or Hono loads with it, and the walls table
 * of ARCHITECTURE.md must be the one the config prints.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseOptions, type ICruiseResult, type IModule } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = process.cwd();
const CONFIG = join(repo, '.dependency-cruiser.cjs');

/** [what the probe does, file, source, the rule that must refuse it] */
const forbidden: [string, string, string, string][] = [
  [
    'the core imports an upstream (even as a type)',
    'src/core',
    "import type { GovernanceClient } from '../governance/client.js';",
    'core (import type)',
  ],
  ['the core imports the graph', 'src/core', "import { builder } from '../graph/builder.js';", 'core'],
  ['the core imports GraphQL', 'src/core', "import { GraphQLError } from 'graphql';", 'core (never)'],
  [
    'governance imports calendar',
    'src/governance',
    "import { CalendarClient } from '../calendar/client.js';",
    'governance',
  ],
  [
    'calendar types import governance',
    'src/calendar/schema',
    "import { Tags } from '../../governance/client.js';",
    'calendar/schema',
  ],
  ['an adapter imports the graph', 'src/calendar', "import { badInput } from '../graph/errors.js';", 'calendar'],
  ['an adapter imports GraphQL', 'src/governance', "import { GraphQLError } from 'graphql';", 'governance (never)'],
  [
    'a resolver reads wire payloads',
    'src/governance/schema',
    "import type { EntityInformation } from '../wire.js';",
    'governance/schema (never)',
  ],
  [
    'the graph imports an upstream',
    'src/graph',
    "import { GovernanceClient } from '../governance/client.js';",
    'graph',
  ],
  [
    'the graph imports an upstream’s GraphQL types (graph ↔ schema)',
    'src/graph',
    "import '../calendar/schema/index.js';",
    'graph',
  ],
  ['the graph imports live/ at run time', 'src/graph', "import { ChangeBus } from '../live/changes.js';", 'graph'],
  [
    'a GraphQL type file imports undici',
    'src/governance/schema',
    "import { request } from 'undici';",
    'governance/schema (never)',
  ],
  [
    'a GraphQL type file imports the HTTP transport',
    'src/calendar/schema',
    "import { HttpTransport } from '../../core/http.js';",
    'calendar/schema (never)',
  ],
  [
    'observability imports http/ (the old cycle)',
    'src/observability',
    "import { useReadiness } from '../http/plugins/use-readiness.js';",
    'observability',
  ],
  [
    'config imports observability',
    'src/config',
    "import { requestLogger } from '../observability/logging.js';",
    'config',
  ],
  [
    'an emulator imports its gateway client',
    'src/emulators/governance',
    "import { Tags } from '../../governance/client.js';",
    'emulators/governance',
  ],
  [
    'an emulator imports the core',
    'src/emulators/calendar/routes',
    "import { UpstreamError } from '../../../core/errors.js';",
    'emulators/calendar',
  ],
  [
    'app/ imports an emulator statically',
    'src/app',
    "import { startGovernanceEmulator } from '../emulators/governance/index.js';",
    'app',
  ],
  ['http/ imports Hono', 'src/http', "import { Hono } from 'hono';", 'http (never)'],
  ['an upstream imports identity/', 'src/calendar', "import { probe } from '../identity/target.js';", 'calendar'],
  ['identity/ imports http/', 'src/identity', "import { loadSafelist } from '../http/persisted.js';", 'identity'],
  [
    'a folder without a row in the table',
    'src/stray',
    "import { UpstreamError } from '../core/errors.js';",
    'not-in-a-layer',
  ],
  ['two files import each other (types only)', 'src/core', "import type { B } from './cycle-b.js';", 'no-cycle'],
];

const allowed: [string, string, string][] = [
  [
    'an emulator imports its wire types',
    'src/emulators/governance',
    "import type { EntityType } from '../../governance/wire.js';",
  ],
  [
    'the calendar emulator imports the pure zones.ts',
    'src/emulators/calendar',
    "import { zoneOffsetMinutes } from '../../calendar/zones.js';",
  ],
  [
    'an emulator imports the emulator kit',
    'src/emulators/calendar',
    "import { createControl } from '../kit/control.js';",
  ],
  [
    'a resolver imports the graph helpers',
    'src/governance/schema',
    "import { badInput } from '../../graph/errors.js';",
  ],
  [
    'a resolver imports its adapter’s model',
    'src/governance/schema',
    "import type { EntityInformation } from '../model.js';",
  ],
  ['an adapter imports the core', 'src/calendar', "import { UpstreamError } from '../core/errors.js';"],
  [
    'the graph names an upstream’s service type',
    'src/graph',
    "import type { GovernanceScope } from '../governance/service.js';",
  ],
  [
    'app/ loads an emulator with import()',
    'src/app',
    "export const load = () => import('../emulators/governance/index.js');",
  ],
  ['http/ imports identity/', 'src/http', "import { probe } from '../identity/target.js';"],
  ['identity/ imports the core', 'src/identity', "import { UpstreamError } from '../core/errors.js';"],
];

let copy: string;
let result: ICruiseResult;
const probeFile = (kind: string, i: number, dir: string) => `${dir}/walls-${kind}-${i}.ts`;

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), 'walls-'));
  cpSync(join(repo, 'src'), join(copy, 'src'), { recursive: true });
  cpSync(join(repo, 'tsconfig.json'), join(copy, 'tsconfig.json'));
  symlinkSync(join(repo, 'node_modules'), join(copy, 'node_modules'));
  const write = (file: string, source: string) => {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    writeFileSync(join(copy, file), `${source}\n`);
  };
  // identity/ is coming; its place in the rules is tested with a stand-in file.
  write('src/identity/target.ts', 'export const probe = 1;');
  // The cycle probe's partner imports it back.
  const cycle = forbidden.findIndex(([, , , rule]) => rule === 'no-cycle');
  write('src/core/cycle-b.ts', `import type { A } from './walls-forbidden-${cycle}.js';\nexport type B = A;`);
  const roots = ['src/server.ts', 'src/core/cycle-b.ts'];
  forbidden.forEach(([, dir, source], i) => {
    roots.push(probeFile('forbidden', i, dir));
    write(probeFile('forbidden', i, dir), `${source}\nexport type A = 1;`);
  });
  allowed.forEach(([, dir, source], i) => {
    roots.push(probeFile('allowed', i, dir));
    write(probeFile('allowed', i, dir), source);
  });
  const options = await extractDepcruiseOptions(CONFIG);
  const tsConfig = extractTSConfig(join(copy, 'tsconfig.json'));
  // The probes' imports are all recorded; past them only what runs with the gateway is followed
  // (parsing the emulators and type-only imports would double the time and prove nothing here).
  const doNotFollow: ICruiseOptions['doNotFollow'] = {
    path: 'node_modules',
    dependencyTypes: ['dynamic-import', 'type-only'],
  };
  const out = await cruise(
    roots,
    { ...options, doNotFollow, baseDir: copy, preserveSymlinks: true, validate: true, outputType: 'json' },
    { extensions: ['.ts', '.js', '.json'] },
    { tsConfig },
  );
  result = JSON.parse(out.output as string) as ICruiseResult;
});

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

// A cycle is reported once, from either of its files.
const violationsOf = (file: string) =>
  result.summary.violations
    .filter((v) => v.from === file || v.to === file)
    .map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);

describe('import walls', () => {
  it.each(forbidden.map(([what, dir, , rule], i) => [what, probeFile('forbidden', i, dir), rule]))(
    'refused: %s',
    (_what, file, rule) => {
      const found = violationsOf(file);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(new RegExp(`^${rule.replace(/[()]/g, '\\$&')}: `));
    },
  );

  it.each(allowed.map(([what, dir], i) => [what, probeFile('allowed', i, dir)]))('allowed: %s', (_what, file) => {
    expect(violationsOf(file)).toEqual([]);
  });

  it('the gateway process loads no emulator code and no Hono (only import() reaches them)', () => {
    const modules = new Map<string, IModule>(result.modules.map((m) => [m.source, m]));
    const seen = new Set<string>();
    const walk = (source: string) => {
      if (seen.has(source)) return;
      seen.add(source);
      for (const d of modules.get(source)?.dependencies ?? [])
        if (!d.dependencyTypes.some((t) => t === 'dynamic-import' || t === 'type-only')) walk(d.resolved);
    };
    walk('src/server.ts');
    expect(seen).toContain('src/app/embedded-emulators.ts');
    expect([...seen].filter((s) => /^src\/emulators\/|node_modules\/(hono|@hono)\//.test(s))).toEqual([]);
  });
});

describe('ARCHITECTURE.md', () => {
  it('has the walls table the config prints (`node .dependency-cruiser.cjs`)', () => {
    const cells = (text: string) =>
      text
        .split('\n')
        .filter((l) => l.startsWith('|') && !/^\|[\s|:-]+\|$/.test(l))
        .map((l) => l.split('|').map((c) => c.trim()));
    const printed = cells(execFileSync(process.execPath, [CONFIG], { encoding: 'utf8' }));
    const doc = cells(readFileSync(join(repo, 'ARCHITECTURE.md'), 'utf8'));
    const start = doc.findIndex((row) => row[1] === printed[0]![1]);
    expect(doc.slice(start, start + printed.length)).toEqual(printed);
  });
});
