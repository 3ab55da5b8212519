// The build of dist/: nothing when the stamp says dist/ is current, otherwise type-check and
// compile src/ (tsconfig.build.json), bundle the package's executables (bundle-bin.mjs), put the
// files in place without emptying dist/, make the executables executable, and stamp the result.
// A build with an error writes nothing.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

import { bundleExecutables } from './bundle-bin.mjs';
import { compileProject } from './compile.mjs';
import { checkStamp, compilerVersion, fingerprintSources, STAMP_NAME, writeStamp } from './dist-stamp.mjs';
import { writeInPlace } from './write-in-place.mjs';

/** Where the build writes, relative to the project root (package.json's `main` and `bin` point there). */
export const OUT_DIR = 'dist';

/**
 * Builds dist/ of the project at `root` when its sources changed since the last build.
 * @param {string} root the project folder (holding package.json, tsconfig.build.json, src/)
 * @param {{ force?: boolean, log?: (line: string) => void }} [options] `force` builds even when
 *   dist/ is current; `log` receives one line per step (standard error by default)
 * @returns {Promise<{ built: boolean, ok: boolean, reason: string }>} `ok` is false when the
 *   build failed (the compiler's report is on standard error, dist/ is as it was)
 */
export async function buildProject(root, { force = false, log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const outDir = path.join(root, OUT_DIR);
  const check = checkStamp(root, outDir);
  if (check.current && !force) return { built: false, ok: true, reason: check.reason };

  const started = Date.now();
  log(`building ${OUT_DIR}/ (${force ? 'asked to' : check.reason})…`);
  const fingerprint = fingerprintSources(root);
  const compiled = await compileProject(path.join(root, 'tsconfig.build.json'));
  if (!compiled.ok) {
    process.stderr.write(compiled.report);
    log(`the build failed: ${OUT_DIR}/ is left as it was`);
    return { built: false, ok: false, reason: 'the compiler reported errors' };
  }
  if (compiled.outDir !== outDir) {
    log(`tsconfig.build.json writes to ${compiled.outDir}, but the package runs from ${outDir}`);
    return { built: false, ok: false, reason: 'outDir mismatch' };
  }

  let bundles;
  try {
    bundles = await bundleExecutables(root, outDir, compiled.outputs);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    log(`bundling the executables failed: ${OUT_DIR}/ is left as it was`);
    return { built: false, ok: false, reason: 'the bundler reported errors' };
  }
  for (const [file, text] of bundles) {
    if (text === null) compiled.outputs.delete(file);
    else compiled.outputs.set(file, text);
  }

  mkdirSync(outDir, { recursive: true });
  // Without a stamp, a build stopped halfway is never taken for a finished one.
  rmSync(path.join(outDir, STAMP_NAME), { force: true });
  const { written, unchanged, removed } = writeInPlace(outDir, compiled.outputs, {
    executables: executablesOf(root),
    keep: new Set([STAMP_NAME]),
  });
  const files = [...compiled.outputs.keys()].map((file) => path.relative(outDir, file).split(path.sep).join('/')).sort();
  writeStamp(outDir, { fingerprint, typescript: compilerVersion(root), builtAt: new Date().toISOString(), files });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  log(`built ${OUT_DIR}/ in ${seconds} s: ${written} files written, ${unchanged} unchanged, ${removed} removed`);
  return { built: true, ok: true, reason: check.reason };
}

/** The absolute paths of package.json's `bin` entries. */
function executablesOf(root) {
  const { bin } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const files = typeof bin === 'string' ? [bin] : Object.values(bin ?? {});
  return new Set(files.map((file) => path.resolve(root, file)));
}
