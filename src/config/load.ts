/**
 * Reads `engram.toml` (from the working directory, or a path given with `--config`), applies
 * `ENGRAM_*` environment overrides, and validates the result. Errors name the file (or the
 * variable) and the key, so a typo is a one-line fix.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { parse as parseToml } from 'smol-toml';
import type { z } from 'zod';

import { ConfigError } from '../errors.js';
import { CONFIG_FILE_NAME, isConfigKeyVariable, locateConfigFile, parseEnvValue } from './locate.js';
import { type ConfigInput, ConfigSchema, type EngramConfig } from './schema.js';

export { CONFIG_FILE_NAME };

/** Where a configuration came from, for error messages. */
export interface ConfigOrigin {
  /** The file that was read, if any. */
  file: string | null;
}

/**
 * Validates a configuration object of `engram.toml`'s shape, filling in defaults.
 * `origin` names where it came from in error messages.
 */
export function parseConfig(input: unknown, origin = 'config'): EngramConfig {
  const result = ConfigSchema.safeParse(input ?? {});
  if (!result.success) throw new ConfigError(describeConfigIssues(result.error, origin));
  return result.data;
}

/**
 * Loads the configuration the CLI and servers use: the file, then environment overrides.
 * @param options.file an explicit file (must exist); otherwise `engram.toml` in `cwd` if present
 */
export function loadConfig(
  options: { file?: string | undefined; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): EngramConfig & { origin: ConfigOrigin } {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const file = locateConfigFile({ file: options.file, cwd, env });
  const fromFile = file === null ? {} : readTomlFile(file);
  const label = file === null ? CONFIG_FILE_NAME : path.relative(cwd, file) || file;
  parseConfig(fromFile, label); // a mistake in the file is reported against the file first
  const overrides = readEnvOverrides(env);
  const merged = mergeDeep(fromFile, overrides.values);
  const result = ConfigSchema.safeParse(merged);
  if (!result.success) {
    const keys = result.error.issues.flatMap((issue) =>
      issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key].join('.')) : [issue.path.join('.')],
    );
    const culprit = overrides.sources.find((source) =>
      keys.some((key) => key === source.key || key.startsWith(`${source.key}.`) || source.key.startsWith(`${key}.`)),
    );
    throw new ConfigError(describeConfigIssues(result.error, culprit?.variable ?? label));
  }
  return { ...result.data, origin: { file } };
}

function readTomlFile(file: string): Record<string, unknown> {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new ConfigError(`cannot read config file ${file}: ${(cause as Error).message}`, { cause });
  }
  try {
    return parseToml(source) as Record<string, unknown>;
  } catch (cause) {
    const reason = (cause as Error).message.split('\n')[0] ?? 'syntax error';
    throw new ConfigError(`${file} is not valid TOML: ${reason}`, { cause });
  }
}

/**
 * `ENGRAM_AUTO_RECALL__QUOTAS__MUST_MAX=3` sets `auto_recall.quotas.must_max`: a double
 * underscore separates levels, the rest is the key in upper case. Values are read as JSON when
 * they parse (numbers, booleans), otherwise as strings.
 */
function readEnvOverrides(env: NodeJS.ProcessEnv): {
  values: Record<string, unknown>;
  sources: { variable: string; key: string }[];
} {
  const values: Record<string, unknown> = {};
  const sources: { variable: string; key: string }[] = [];
  for (const [variable, raw] of Object.entries(env)) {
    if (!isConfigKeyVariable(variable) || raw === undefined) continue;
    const parts = variable.slice('ENGRAM_'.length).toLowerCase().split('__');
    if (parts.some((part) => part.length === 0)) {
      throw new ConfigError(`${variable} is not a config key: use ENGRAM_SECTION__KEY, e.g. ENGRAM_MEMORY__RECALL__THRESHOLD`);
    }
    let node = values;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      node = (typeof next === 'object' && next !== null ? next : (node[part] = {})) as Record<string, unknown>;
    }
    node[parts[parts.length - 1] as string] = parseEnvValue(raw);
    sources.push({ variable, key: parts.join('.') });
  }
  return { values, sources };
}

function mergeDeep(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? mergeDeep(current, value) : value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function describeConfigIssues(error: z.ZodError, origin: string): string {
  const lines = error.issues.map((issue) => {
    const key = issue.path.join('.');
    if (issue.code === 'unrecognized_keys') {
      const names = issue.keys.map((name) => (key ? `${key}.${name}` : name));
      return `unknown key ${names.join(', ')} (see docs/configuration.md for the keys)`;
    }
    return `${key || 'config'} ${issue.message}`;
  });
  return `${origin}: ${lines.join('; ')}`;
}

export type { ConfigInput, EngramConfig };
