import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // Only node_modules/ is left out by default: ESLint does not read .gitignore.
  { ignores: ['dist/', 'release/', 'bench/results/', 'docs/images/', '**/.data/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore names what is left out on purpose: fields dropped from a copy (`{ hash: _hash, ...view }`)
      // and parameters a callback's signature requires. TypeScript's own unused checks follow the same convention.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // A variable declared before the closures that read it and assigned once they exist (the relay's server) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // The relay matches control characters on purpose, to refuse them in names it writes into headers and frames.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['renderer/src/**', 'overlays/**', 'play/**', 'web/**', 'main/preload.ts'],
    languageOptions: { globals: globals.browser },
  },
  {
    // Tests read JSON answers and world frames as `any` to assert on their fields.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // A CommonJS fixture stands for the preload Electron builds: it must `require`.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
