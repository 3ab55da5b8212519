// Lessons become lint rules (STYLE.md 9): type-only imports, sorted imports, no raw SQL
// outside the store backends, and the layers of DESIGN.md (eslint-layers.js). Import cycles,
// type-only imports included, are checked by dpdm in `npm run lint`.
import js from '@eslint/js';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

import { layerConfigs } from './eslint-layers.js';

const SQL = '^\\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|WITH)\\s';
const RAW_SQL =
  'Raw SQL belongs in a store backend (src/store/sqlite/, src/store/postgres/, or src/store/sql-core/ for both): add a Store method instead.';

export default tseslint.config(
  { ignores: ['dist/', 'build/', 'node_modules/', 'scratch/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { 'simple-import-sort': simpleImportSort },
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      'simple-import-sort/imports': 'error',
      'simple-import-sort/exports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: `Literal[value=/${SQL}/]`, message: RAW_SQL },
        { selector: `TemplateElement[value.raw=/${SQL}/]`, message: RAW_SQL },
      ],
    },
  },
  {
    // src/store/sql-core/ holds the SQL both backends share, written once (DESIGN.md, Store).
    files: ['src/store/sqlite/**/*.ts', 'src/store/postgres/**/*.ts', 'src/store/sql-core/**/*.ts', 'test/**/*.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  ...layerConfigs,
);
