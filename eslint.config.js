// @ts-check
/**
 * `npm run lint` (first half): typescript-eslint with type information. The import walls of
 * ARCHITECTURE.md and the cycle check are dependency-cruiser's (`.dependency-cruiser.cjs`, the second
 * half). Formatting is Prettier's job (`npm run format`); eslint-config-prettier turns off the
 * stylistic rules that would fight it.
 */
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'src/generated/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.cjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Input checks refuse control characters on purpose, so their regular expressions name them.
      'no-control-regex': 'off',
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
    files: ['src/emulators/**/*.ts'],
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
    // `fields` block per type) and the emulators.
    files: ['src/**/*.ts'],
    ignores: ['src/*/schema/**', 'src/emulators/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80, IIFEs: true }] },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // dependency-cruiser reads its configuration as CommonJS.
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', console: 'readonly' },
    },
  },
  prettier,
);
