// Lessons become lint rules (STYLE.md 9): no import cycles, type-only imports, sorted imports,
// and no raw SQL outside the SQLite store.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const SQL = '^\\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|WITH)\\s';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'scratch/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      'import-x/no-cycle': 'error',
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', ['parent', 'sibling', 'index']],
          'newlines-between': 'always',
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: `Literal[value=/${SQL}/]`,
          message: 'Raw SQL belongs in src/store/sqlite/: add a Store method instead.',
        },
        {
          selector: `TemplateElement[value.raw=/${SQL}/]`,
          message: 'Raw SQL belongs in src/store/sqlite/: add a Store method instead.',
        },
      ],
    },
  },
  {
    files: ['src/store/sqlite/**/*.ts', 'test/**/*.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
