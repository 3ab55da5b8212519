/**
 * Where the built package's entry points are, for benchmarks that start Engram in a child
 * process. Found through the package's own name and its package.json (`bin`, `exports`), as an
 * installed copy would be, so the benchmarks need not know where they are built to.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

interface Manifest {
  bin: { engram: string };
  exports: { '.': { import: string } };
}

/** The built `engram` CLI and root entry point (dist/), and the package's folder, as absolute paths. */
export function engramEntryPoints(): { cli: string; index: string; root: string } {
  // `engram/package.json` is exported as a plain path, so `require.resolve` finds it through the
  // package's self-reference; the root entry has only an `import` condition, which it would not.
  const file = createRequire(import.meta.url).resolve('engram/package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  const root = path.dirname(file);
  return { cli: path.resolve(root, manifest.bin.engram), index: path.resolve(root, manifest.exports['.'].import), root };
}
