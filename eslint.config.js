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
);
