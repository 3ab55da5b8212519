// Whether dist/ is the build of the sources as they are now. The build writes a stamp,
// dist/.build-stamp.json, holding a fingerprint of everything the build reads (the sources, the
// compiler settings, the compiler's version, the build scripts themselves) and the files it wrote;
// dist/ is current when the fingerprint of the checkout now is the same and those files are all
// there. Content, not times: a checkout, a copy or a touched file changes no fingerprint.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The stamp's name inside the output folder; the build keeps it, the package leaves it out. */
export const STAMP_NAME = '.build-stamp.json';

/** The settings files whose content shapes the output, relative to the project root. */
const SETTINGS = ['tsconfig.json', 'tsconfig.build.json'];

/**
 * The fingerprint of what a build of `root` reads: every file under `src/` but the tests, the
 * settings files, package.json's `type` and `bin`, the TypeScript version, and the build scripts
 * in `scripts/` (this folder and build.mjs).
 * @param {string} root the project folder
 * @returns {string} a hex SHA-256
 */
export function fingerprintSources(root) {
  const hash = createHash('sha256');
  const add = (name, content) => hash.update(`${name}\0${content.length}\0`).update(content);
  for (const file of listFiles(path.join(root, 'src'))) {
    if (!file.endsWith('.test.ts')) add(`src/${file}`, readFileSync(path.join(root, 'src', file)));
  }
  for (const file of SETTINGS) {
    if (existsSync(path.join(root, file))) add(file, readFileSync(path.join(root, file)));
  }
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  add('package.json#type,bin', JSON.stringify([manifest.type ?? null, manifest.bin ?? null]));
  add('typescript', compilerVersion(root));
  const scripts = path.join(root, 'scripts');
  add('scripts/build.mjs', readFileSync(path.join(scripts, 'build.mjs')));
  for (const file of listFiles(path.join(scripts, 'lib')))
    add(`scripts/lib/${file}`, readFileSync(path.join(scripts, 'lib', file)));
  return hash.digest('hex');
}

/**
 * The stamp a build left in `outDir`, or null when there is none (never built, or a build that
 * did not finish: the build removes the stamp before it writes anything).
 * @param {string} outDir
 * @returns {{ fingerprint: string, builtAt: string, typescript: string, files: string[] } | null}
 */
export function readStamp(outDir) {
  try {
    return JSON.parse(readFileSync(path.join(outDir, STAMP_NAME), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Writes the stamp of a finished build (the last thing a build does), in one rename.
 * @param {string} outDir
 * @param {{ fingerprint: string, builtAt: string, typescript: string, files: string[] }} stamp
 */
export function writeStamp(outDir, stamp) {
  const file = path.join(outDir, STAMP_NAME);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(stamp, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/**
 * Whether `outDir` holds the build of `root` as it is now: its stamp's fingerprint is today's and
 * every file the build wrote is still there.
 * @param {string} root
 * @param {string} outDir
 * @returns {{ current: boolean, reason: string }} the reason says why a build is needed
 */
export function checkStamp(root, outDir) {
  const stamp = readStamp(outDir);
  if (stamp === null) return { current: false, reason: `${relative(root, outDir)} has not been built yet` };
  if (stamp.fingerprint !== fingerprintSources(root)) {
    return { current: false, reason: `sources changed since ${relative(root, outDir)} was built` };
  }
  const missing = stamp.files.find((file) => !existsSync(path.join(outDir, file)));
  if (missing !== undefined) return { current: false, reason: `${relative(root, outDir)}/${missing} is missing` };
  return { current: true, reason: `${relative(root, outDir)} is up to date` };
}

/** The version of the TypeScript compiler in `root`'s node_modules ("none" when missing). */
export function compilerVersion(root) {
  try {
    return JSON.parse(readFileSync(path.join(root, 'node_modules', 'typescript', 'package.json'), 'utf8')).version;
  } catch {
    return 'none';
  }
}

/** Every file under `dir`, as sorted paths relative to it with forward slashes ([] when missing). */
function listFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path
        .relative(dir, path.join(entry.parentPath ?? entry.path, entry.name))
        .split(path.sep)
        .join('/'),
    )
    .sort();
}

function relative(root, dir) {
  return `${path.relative(root, dir) || '.'}/`;
}
