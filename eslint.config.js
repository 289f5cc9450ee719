// @ts-check
/**
 * `npm run lint`: typescript-eslint with type information, plus the import walls of ARCHITECTURE.md as
 * rules, so that a broken wall fails CI instead of holding by habit (test/lint-walls.test.ts breaks one
 * on purpose). Formatting is Prettier's job (`npm run format`); eslint-config-prettier turns off the
 * stylistic rules that would fight it.
 */
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** The layers' walls: each zone may not import from the listed folders (paths from the repository root). */
export const walls = [
  // The core is the shared pipeline below both upstreams: it knows no upstream, no GraphQL, no HTTP server.
  {
    target: './src/core',
    from: ['./src/governance', './src/calendar', './src/graph', './src/http', './src/app'],
    message: 'core/ is below the upstream folders and the graph: move the shared part into core/ instead.',
  },
  // The upstream folders never import each other.
  { target: './src/governance', from: './src/calendar', message: 'governance/ and calendar/ never import each other.' },
  { target: './src/calendar', from: './src/governance', message: 'governance/ and calendar/ never import each other.' },
  // Emulators stand for the real systems: of the gateway they see only the wire types (and the pure
  // time-zone arithmetic the calendar emulator shares), plus the emulator kit.
  {
    target: './src/governance/emulator',
    from: './src/governance',
    except: ['./emulator', './wire.ts'],
    message: 'an emulator imports nothing of the gateway but wire.ts.',
  },
  {
    target: './src/calendar/emulator',
    from: './src/calendar',
    except: ['./emulator', './wire.ts', './zones.ts'],
    message: 'an emulator imports nothing of the gateway but wire.ts (and the pure zones.ts).',
  },
  {
    target: ['./src/governance/emulator', './src/calendar/emulator', './src/emulator-kit'],
    from: ['./src/core', './src/graph', './src/http', './src/app', './src/config', './src/observability'],
    message: 'an emulator imports nothing of the gateway but wire.ts.',
  },
  // GraphQL type files never see HTTP: resolvers talk to loaders and services, clients talk to the wire.
  {
    target: ['./src/governance/schema', './src/calendar/schema', './src/graph'],
    from: ['./src/core/http.ts', './src/http', './node_modules/undici'],
    message: 'GraphQL type files never import HTTP code: go through the loaders and the client.',
  },
];

/** How import-x finds a `./x.js` import's `./x.ts` file (NodeNext), shared with test/lint-walls.test.ts. */
export const importSettings = {
  'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
};

export default tseslint.config(
  { ignores: ['node_modules/', 'src/generated/', 'coverage/', 'test/fixtures/lint/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js'] }, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: importSettings,
    rules: {
      // Input checks refuse control characters on purpose, so their regular expressions name them.
      'no-control-regex': 'off',
      'import-x/no-restricted-paths': ['error', { zones: walls }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-useless-path-segments': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-empty': ['error', { allowEmptyCatch: false }],
      // An async method that meets a Promise-returning interface without awaiting is fine.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // The emulators coerce form values the way PHP does (String(anything)) on purpose.
    files: ['src/*/emulator/**/*.ts', 'src/emulator-kit/**/*.ts'],
    rules: { '@typescript-eslint/no-base-to-string': 'off' },
  },
  {
    // Yoga and envelop hand their hooks bound callbacks (setResult, endResponse…) to destructure.
    files: ['src/http/plugins/**/*.ts'],
    rules: { '@typescript-eslint/unbound-method': 'off' },
  },
  {
    // Tests and the bench read untyped JSON answers and poke at them; the unsafe-any family would be noise there.
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    // Functions stay short in gateway code. Not counted: Pothos declarations (schema/ folders: one
    // `fields` block per type), the emulators, and for now config/ (loadConfig is still one function).
    files: ['src/**/*.ts'],
    ignores: ['src/*/schema/**', 'src/*/emulator/**', 'src/emulator-kit/**', 'src/config/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80, IIFEs: true }] },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
);
