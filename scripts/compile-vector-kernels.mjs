// Compiles src/store/vector/vector-kernels.wat into vector-kernels-wasm.ts (the bytes, base64),
// so the package ships no binary file and needs no compiler at install time.
// `npm run build:kernels` runs it; a test checks the committed bytes match the source.
import { Buffer } from 'node:buffer';
import { readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

import createWabt from 'wabt';

const SOURCE = fileURLToPath(new URL('../src/store/vector/vector-kernels.wat', import.meta.url));
const TARGET = fileURLToPath(new URL('../src/store/vector/vector-kernels-wasm.ts', import.meta.url));

/** The WebAssembly module compiled from vector-kernels.wat, base64. */
export async function compileVectorKernels() {
  const wabt = await createWabt();
  const module = wabt.parseWat('vector-kernels.wat', readFileSync(SOURCE, 'utf8'), { simd: true });
  try {
    module.validate();
    return Buffer.from(module.toBinary({}).buffer).toString('base64');
  } finally {
    module.destroy();
  }
}

/** The TypeScript module holding `base64`. */
export function kernelsModuleText(base64) {
  return [
    '// Generated from vector-kernels.wat by `npm run build:kernels`; do not edit.',
    '',
    '/** vector-kernels.wat compiled to WebAssembly, base64. */',
    // On its own line, as Prettier puts a string longer than the line.
    'export const VECTOR_KERNELS_WASM =',
    `  '${base64}';`,
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(TARGET, kernelsModuleText(await compileVectorKernels()));
  process.stdout.write(`wrote ${TARGET}\n`);
}
