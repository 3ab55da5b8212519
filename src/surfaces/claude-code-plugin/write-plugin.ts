/**
 * Writes Engram's Claude Code plugin folder: into a new or empty folder, or over a folder it
 * wrote before (its marketplace manifest names the `engram` marketplace), never into a folder
 * holding anything else.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { InvalidInputError } from '../../index.js';
import { claudeCodePluginFiles, MARKETPLACE_NAME, PLUGIN_NAME, type PluginInstallation } from './plugin-files.js';

/** Where the plugin was written. */
export interface WrittenPlugin {
  /** The marketplace folder: what `claude plugin marketplace add` and `--marketplace` take. */
  marketplace: string;
  /** The plugin folder inside it: what `claude --plugin-dir` takes. */
  plugin: string;
}

/**
 * Writes the plugin for `installation` into `out` (made absolute), replacing the files of an
 * earlier run.
 * @throws InvalidInputError when `out` is a file, or a folder with other content
 */
export function writeClaudeCodePlugin(out: string, installation: PluginInstallation): WrittenPlugin {
  const marketplace = path.resolve(out);
  checkTarget(marketplace);
  for (const file of claudeCodePluginFiles(installation, marketplace)) {
    const target = path.join(marketplace, file.path);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.text);
    if (file.executable) chmodSync(target, 0o755);
  }
  return { marketplace, plugin: path.join(marketplace, PLUGIN_NAME) };
}

function checkTarget(folder: string): void {
  if (!existsSync(folder)) return;
  if (!statSync(folder).isDirectory()) {
    throw new InvalidInputError(`${folder} is a file: give --out a folder for the plugin (it is created if missing)`);
  }
  if (readdirSync(folder).length === 0 || writtenBefore(folder)) return;
  throw new InvalidInputError(
    `${folder} already holds other files: give --out a new or empty folder, or the folder an earlier \`engram plugin claude-code\` wrote`,
  );
}

/** True when `folder` holds the marketplace manifest of an earlier run. */
function writtenBefore(folder: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(path.join(folder, '.claude-plugin', 'marketplace.json'), 'utf8')) as unknown;
    return typeof manifest === 'object' && manifest !== null && (manifest as { name?: unknown }).name === MARKETPLACE_NAME;
  } catch {
    return false;
  }
}
