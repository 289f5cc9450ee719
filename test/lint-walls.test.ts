/**
 * The import walls of ARCHITECTURE.md are lint rules (eslint.config.js), and the cycle check is part of
 * `npm run lint`: here each wall is broken on purpose in a file that exists only in memory, and lint
 * must refuse it, while the imports the walls allow pass. The cycle check is run on a fixture with a
 * type-only cycle and on src/.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { importSettings, walls } from '../eslint.config.js';
import { findCycles } from '../scripts/check-cycles.js';

// Only the wall rule, without type information: fast, and it is the rule under test.
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfigFile: true,
  overrideConfig: [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser },
      plugins: { 'import-x': importX },
      settings: importSettings,
      rules: { 'import-x/no-restricted-paths': ['error', { zones: walls }] },
    },
  ],
});

async function wallErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: join(process.cwd(), file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('import walls', () => {
  it.each([
    [
      'the core imports an upstream folder',
      'src/core/probe.ts',
      "import type { GovernanceClient } from '../governance/client.js';",
    ],
    ['the core imports the graph', 'src/core/probe.ts', "import { builder } from '../graph/builder.js';"],
    [
      'governance imports calendar',
      'src/governance/probe.ts',
      "import { CalendarClient } from '../calendar/client.js';",
    ],
    [
      'calendar imports governance',
      'src/calendar/schema/probe.ts',
      "import { Tags } from '../../governance/client.js';",
    ],
    [
      'an emulator imports its gateway client',
      'src/governance/emulator/probe.ts',
      "import { Tags } from '../client.js';",
    ],
    [
      'an emulator imports the core',
      'src/calendar/emulator/routes/probe.ts',
      "import { UpstreamError } from '../../../core/errors.js';",
    ],
    ['a GraphQL type file imports undici', 'src/governance/schema/probe.ts', "import { request } from 'undici';"],
    [
      'a GraphQL type file imports the HTTP transport',
      'src/calendar/schema/probe.ts',
      "import { HttpTransport } from '../../core/http.js';",
    ],
  ])('lint fails when %s', async (_wall, file, source) => {
    const errors = await wallErrors(file, `${source}\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^import-x\/no-restricted-paths: /);
  });

  it.each([
    [
      'an emulator imports its wire types',
      'src/governance/emulator/probe.ts',
      "import type { EntityType } from '../wire.js';",
    ],
    [
      'the calendar emulator imports the pure zones.ts',
      'src/calendar/emulator/probe.ts',
      "import { zoneOffsetMinutes } from '../zones.js';",
    ],
    [
      'an emulator imports the emulator kit',
      'src/calendar/emulator/probe.ts',
      "import { createControl } from '../../emulator-kit/control.js';",
    ],
    [
      'a resolver imports the graph helpers',
      'src/governance/schema/probe.ts',
      "import { badInput } from '../../graph/errors.js';",
    ],
    ['a client imports the core', 'src/calendar/probe.ts', "import { UpstreamError } from '../core/errors.js';"],
  ])('lint allows it when %s', async (_case, file, source) => {
    expect(await wallErrors(file, `${source}\n`)).toEqual([]);
  });
});

describe('import cycles', () => {
  it('finds a type-only cycle (which import-x/no-cycle would skip)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cycles-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.js';\nexport interface A { b: B }\n");
      writeFileSync(join(dir, 'b.ts'), "import type { A } from './a.js';\nexport interface B { a?: A }\n");
      writeFileSync(join(dir, 'c.ts'), "import type { A } from './a.js';\nexport type C = A;\n");
      const cycles = findCycles([dir]);
      expect(cycles.map((c) => c.map((f) => f.slice(dir.length + 1)).sort())).toEqual([['a.ts', 'b.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('src/ has none', () => {
    expect(findCycles(['src'])).toEqual([]);
  });
});
