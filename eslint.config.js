import tseslint from 'typescript-eslint';
import boundaries from './eslint/boundaries.js';

// Lint holds the architecture in place (the boundary rule) and catches a few real mistakes; style is
// Prettier's job (npm run format). Run by `npm run lint` in .ci/run.
export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.data/**', 'web/**/*.js', 'coverage/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { '@typescript-eslint': tseslint.plugin, boundaries },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'boundaries/imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-debugger': 'error',
      'no-dupe-keys': 'error',
      'no-unreachable': 'error',
      'no-self-compare': 'error',
      'no-unsafe-finally': 'error',
      'no-fallthrough': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // "Spread first": on Node 20's V8 an object literal that opens with a spread and sets properties after it
    // (`{ ...a, b }`) gets a new hidden class at every evaluation: 3-8 us and old-space garbage per call, and every
    // reader of the result megamorphic. `Object.assign({}, a, { b })` or the properties written out keep one shape.
    // Enforced where a transaction's evaluation runs (docs/performance.md, "spread first").
    files: ['src/engines/rules/**/*.ts', 'src/modules/transactions/**/*.ts'],
    ignores: ['**/*.test.ts', '**/schemas.ts'], // schemas: declarations built once at start
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ObjectExpression > SpreadElement:first-child ~ Property',
          message:
            'An object literal opening with a spread and setting properties after it gets a new hidden class at every call on V8 11: write Object.assign({}, a, { b }) or the properties out (eslint.config.js, "spread first").',
        },
      ],
    },
  },
);
