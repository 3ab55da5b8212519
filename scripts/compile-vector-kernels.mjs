// Compiles the WebAssembly text modules — src/store/vector/vector-kernels.wat (the vector
// index) and src/retrieval/sample-dots.wat (per-store calibration) — into TypeScript modules
// holding their bytes (base64), so the package ships no binary file and needs no compiler at
// install time. `npm run build:kernels` runs it; a test per module checks the committed bytes
// match the source.
import { Buffer } from 'node:buffer';
import { readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

import createWabt from 'wabt';

/** Each module: its source, the TypeScript module written, and the constant holding the bytes. */
const MODULES = [
  {
    source: '../src/store/vector/vector-kernels.wat',
    target: '../src/store/vector/vector-kernels-wasm.ts',
    name: 'VECTOR_KERNELS_WASM',
  },
  { source: '../src/retrieval/sample-dots.wat', target: '../src/retrieval/sample-dots-wasm.ts', name: 'SAMPLE_DOTS_WASM' },
];

const path = (relative) => fileURLToPath(new URL(relative, import.meta.url));
const fileName = (relative) => relative.split('/').pop();

/** The WebAssembly module compiled from the text at `source` (relative to this script), base64. */
async function compile(source) {
  const wabt = await createWabt();
  const module = wabt.parseWat(fileName(source), readFileSync(path(source), 'utf8'), { simd: true });
  try {
    module.validate();
    return Buffer.from(module.toBinary({}).buffer).toString('base64');
  } finally {
    module.destroy();
  }
}

/** The WebAssembly module compiled from vector-kernels.wat, base64. */
export async function compileVectorKernels() {
  return compile(MODULES[0].source);
}

/** The WebAssembly module compiled from sample-dots.wat, base64. */
export async function compileSampleDots() {
  return compile(MODULES[1].source);
}

/** The TypeScript module holding `base64` as the constant `name`, compiled from `source`. */
export function kernelsModuleText(base64, { source, name } = MODULES[0]) {
  return [
    `// Generated from ${fileName(source)} by \`npm run build:kernels\`; do not edit.`,
    '',
    `/** ${fileName(source)} compiled to WebAssembly, base64. */`,
    // On its own line, as Prettier puts a string longer than the line.
    `export const ${name} =`,
    `  '${base64}';`,
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const module of MODULES) {
    writeFileSync(path(module.target), kernelsModuleText(await compile(module.source), module));
    process.stdout.write(`wrote ${path(module.target)}\n`);
  }
}
