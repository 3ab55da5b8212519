// The layers of DESIGN.md as a lint rule: each folder of src/ may import only the layers below
// it. Surfaces reach the library through its entries (src/index.ts, the subpath entries of
// src/entries/, src/internal.ts), never a layer directly, and no layer imports an entry; only the
// facade and the internal entry name the concrete stores. Import paths are matched as written, so `../engram/engram.js` from
// src/tools/ is caught however deep the importing file sits.

/** What each layer of src/ may import, bottom to top (the folder itself is always allowed). */
const ALLOWED = {
  model: [],
  errors: [],
  text: ['model'],
  config: ['model', 'errors'],
  store: ['model', 'errors', 'text', 'config'],
  embedding: ['model', 'errors', 'config', 'store'],
  graph: ['model', 'errors', 'config', 'text', 'store', 'embedding'],
  retrieval: ['model', 'errors', 'config', 'text', 'store', 'embedding', 'graph'],
  context: ['model', 'errors', 'config', 'text'],
  activation: ['model', 'errors', 'config', 'text', 'store', 'embedding', 'graph', 'retrieval', 'context'],
  tools: ['model', 'errors', 'config', 'text', 'embedding', 'graph', 'retrieval', 'context', 'activation'],
  session: ['model', 'errors', 'config', 'text', 'store', 'embedding', 'graph', 'retrieval', 'context', 'activation', 'tools'],
  engram: [
    'model',
    'errors',
    'config',
    'text',
    'store',
    'embedding',
    'graph',
    'retrieval',
    'context',
    'activation',
    'tools',
    'session',
  ],
};
/** Every part of src/ an import can name: the layer folders, the entries, the surfaces. */
const FOLDERS = [...Object.keys(ALLOWED).filter((name) => name !== 'errors'), 'entries', 'surfaces'];
const FILES = ['errors', 'index', 'internal'];

/** An import of one of `names` (folders or single-file modules of src/), from any depth. */
function importOf(names) {
  const folders = names.filter((name) => FOLDERS.includes(name));
  const files = names.filter((name) => FILES.includes(name));
  const alternatives = [...folders.map((name) => `${name}/`), ...files.map((name) => `${name}\\.js$`)];
  return `^(\\.\\./)+(${alternatives.join('|')})`;
}

const SQLITE = { regex: '(^|/)store/(sqlite|postgres)/', message: 'Only the facade (src/engram/) constructs a store backend.' };

function layerRule(layer) {
  const forbidden = [...FOLDERS, ...FILES].filter((name) => name !== layer && !ALLOWED[layer].includes(name));
  const patterns = [
    {
      regex: importOf(forbidden),
      message: `src/${layer}/ may import only ${ALLOWED[layer].join(', ') || 'nothing of ours'} (DESIGN.md, Layers).`,
    },
  ];
  if (layer !== 'store' && layer !== 'engram') patterns.push(SQLITE);
  return { 'no-restricted-imports': ['error', { patterns }] };
}

/**
 * The store's driver folders share SQL through src/store/sql-core/ only: neither imports the
 * other, and the core imports neither (DESIGN.md, "The third wave": Store).
 */
const DRIVERS = {
  sqlite: ['postgres'],
  postgres: ['sqlite'],
  'sql-core': ['sqlite', 'postgres'],
  // The read caches over any store (docs/decisions/what-is-kept.md) know no driver.
  kept: ['sqlite', 'postgres', 'sql-core'],
};

function driverRule(folder) {
  // Within the store, any depth: `../postgres/x.js` from src/store/sqlite/, `../../store/sqlite/` …
  const regex = `(^|/)(\\.\\./)+(store/)?(${DRIVERS[folder].join('|')})/`;
  const message =
    folder === 'sql-core'
      ? 'src/store/sql-core/ holds what both drivers share: it imports neither driver (DESIGN.md, Store).'
      : folder === 'kept'
        ? 'src/store/kept/ holds read caches over any store, kept under the change mark: it imports no driver (docs/decisions/what-is-kept.md).'
        : `src/store/${folder}/ may not import another driver's folder: move what both need to src/store/sql-core/ (DESIGN.md, Store).`;
  return { regex, message };
}

/** One config block per layer, for its source files (tests may import anything). */
export const layerConfigs = [
  ...Object.keys(ALLOWED).map((layer) => ({
    files: layer === 'errors' ? ['src/errors.ts'] : [`src/${layer}/**/*.ts`, `src/${layer}/**/*.tsx`],
    ignores: ['**/*.test.ts'],
    rules: layerRule(layer),
  })),
  ...Object.keys(DRIVERS).map((folder) => ({
    files: [`src/store/${folder}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...layerRule('store')['no-restricted-imports'][1].patterns, driverRule(folder)] },
      ],
    },
  })),
  {
    // The web inspector's pages are .tsx (Hono's JSX): the same rule.
    files: ['src/surfaces/**/*.ts', 'src/surfaces/**/*.tsx'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: importOf(FOLDERS.filter((name) => name !== 'surfaces' && name !== 'entries')),
              message:
                'Surfaces import the package entries (src/index.ts, src/entries/, src/internal.ts) only (DESIGN.md, Layers).',
            },
          ],
        },
      ],
    },
  },
  {
    // Benchmarks sit outside the library: the package's entries (`engram`, `engram/tools`, …,
    // `engram/internal`) only.
    files: ['bench/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+src/',
              message:
                'Benchmarks import Engram by its package name: `engram`, a subpath such as `engram/tools`, or `engram/internal` (DESIGN.md).',
            },
          ],
        },
      ],
    },
  },
];
