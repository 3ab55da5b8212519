/**
 * Where a command's configuration comes from, without reading or validating it: the file it
 * would read, which `ENGRAM_*` variables are config keys, and how such a variable's value is
 * read. loadConfig uses these rules, and so does the hook's fast path, which must find the
 * settings of its resident process without loading zod or the library: this module needs
 * nothing but Node's built-ins (and the dependency-free errors module).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { ConfigError } from '../errors.js';

/** The file looked for in the working directory when no path is given. */
export const CONFIG_FILE_NAME = 'engram.toml';

/** `[store] path` when the configuration names none: relative to the working directory. */
export const DEFAULT_STORE_PATH = '.engram/engram.db';

/** Environment variables that are options, not config keys. */
const NON_KEY_VARIABLES: ReadonlySet<string> = new Set([
  'ENGRAM_DB',
  'ENGRAM_STORE_URL',
  'ENGRAM_CONFIG',
  'ENGRAM_TOKEN',
  'ENGRAM_DEBUG',
]);

/** Whether the variable `name` sets a config key (`ENGRAM_SECTION__KEY`) rather than an option. */
export function isConfigKeyVariable(name: string): boolean {
  return name.startsWith('ENGRAM_') && name.includes('__') && !NON_KEY_VARIABLES.has(name);
}

/**
 * The configuration file a command reads (absolute), or null when there is none: the file named
 * by `file` (`--config`) or ENGRAM_CONFIG, which must exist, else `engram.toml` in `cwd` if present.
 * @throws ConfigError when the named file does not exist
 */
export function locateConfigFile(options: { file?: string | undefined; cwd: string; env: NodeJS.ProcessEnv }): string | null {
  const named = options.file ?? options.env.ENGRAM_CONFIG;
  if (!named) {
    const file = path.join(options.cwd, CONFIG_FILE_NAME);
    return existsSync(file) ? file : null;
  }
  const file = path.resolve(options.cwd, named);
  if (!existsSync(file)) throw new ConfigError(`config file ${file} does not exist: check the --config path`);
  return file;
}

/** A config key's value from the environment: JSON numbers and booleans as such, anything else as the string. */
export function parseEnvValue(raw: string): unknown {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'number' || typeof value === 'boolean' ? value : raw;
  } catch {
    return raw;
  }
}

/** A true-or-false key's value from the environment, or undefined when the configuration would reject it (`0`, `yes`). */
export function parseEnvFlag(raw: string): boolean | undefined {
  const value = parseEnvValue(raw);
  return typeof value === 'boolean' ? value : undefined;
}
