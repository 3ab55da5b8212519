// Puts a build's files into the output folder without ever emptying it, so an Engram already
// running from that folder (`npm start` in another terminal, a resident hook process) keeps
// finding its modules: a changed file is written beside its old self and renamed over it (a
// reader sees the old file or the new one, never half of one, and never none), an unchanged file
// is left alone, and only files the build no longer makes are removed, after the new ones are in.
// Executables (package.json `bin`) are written executable, so no moment exists where they are not.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import process from 'node:process';

/** A build's own temporary files: `<file>.build-<pid>.tmp`. */
const TEMPORARY = /\.build-(\d+)\.tmp$/;

/**
 * Writes `outputs` into `outDir` and removes every other file there but those in `keep`.
 * @param {string} outDir absolute path of the output folder
 * @param {Map<string, string>} outputs file contents by absolute path, all inside `outDir`
 * @param {{ executables?: Set<string>, keep?: Set<string> }} [options] absolute paths to write with
 *   mode 0755; names (relative to `outDir`) to leave in place
 * @returns {{ written: number, unchanged: number, removed: number }}
 */
export function writeInPlace(outDir, outputs, { executables = new Set(), keep = new Set() } = {}) {
  let written = 0;
  let unchanged = 0;
  for (const [file, text] of outputs) {
    if (sameContent(file, text)) {
      unchanged += 1;
      continue;
    }
    mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.build-${process.pid}.tmp`;
    writeFileSync(temporary, text, { mode: executables.has(file) ? 0o755 : 0o644 });
    renameSync(temporary, file);
    written += 1;
  }
  // An unchanged executable may come from an older build that wrote it without the bit.
  for (const file of executables) if (outputs.has(file)) chmodSync(file, 0o755);
  const removed = removeStale(outDir, new Set(outputs.keys()), keep);
  return { written, unchanged, removed };
}

/** Removes the files of `outDir` neither written nor kept, then the folders left empty. */
function removeStale(outDir, wanted, keep) {
  let removed = 0;
  const entries = readdirSync(outDir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() && !entry.isSymbolicLink()) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    if (wanted.has(file) || keep.has(path.relative(outDir, file))) continue;
    // Another build running at the same moment owns its temporary files until it exits.
    const owner = TEMPORARY.exec(entry.name)?.[1];
    if (owner !== undefined && Number(owner) !== process.pid && isRunning(Number(owner))) continue;
    unlinkSync(file);
    removed += 1;
  }
  const folders = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
    .sort((a, b) => b.length - a.length);
  for (const folder of folders) {
    if (readdirSync(folder).length === 0) rmdirSync(folder);
  }
  return removed;
}

function sameContent(file, text) {
  if (!existsSync(file)) return false;
  try {
    return readFileSync(file, 'utf8') === text;
  } catch {
    return false;
  }
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
