/**
 * The settings a command runs with, as it hands them to the resident process of its database
 * with each request: the configuration file it would read (or none), its working directory, and
 * the `ENGRAM_*` config keys of its environment. The resident process loads the configuration
 * from exactly these for the request, as the command would have in its own process, so callers
 * with different settings share one process per database and each gets its own settings.
 */
// The fast path must not load the library (src/index.ts loads zod and the engine), so it takes
// the configuration's location rules from their dependency-free module directly.
// eslint-disable-next-line no-restricted-imports
import { isConfigKeyVariable, locateConfigFile } from '../../config/locate.js';

/** What a request carries so that the resident process can load the caller's configuration. */
export interface CallerSettings {
  /** The caller's working directory (configuration messages name the file relative to it). */
  cwd: string;
  /** The configuration file (absolute), or null when the caller has none. */
  config: string | null;
  /** The `ENGRAM_<SECTION>__<KEY>` variables of the caller's environment; no other variable. */
  env: Record<string, string>;
}

/**
 * The settings of a command run in `cwd` with `env` and `--config` `config`.
 * @throws ConfigError when `--config` or ENGRAM_CONFIG names a file that does not exist
 */
export function callerSettings(options: { cwd: string; env: NodeJS.ProcessEnv; config?: string | undefined }): CallerSettings {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.env)) {
    if (isConfigKeyVariable(name) && value !== undefined) env[name] = value;
  }
  return { cwd: options.cwd, config: locateConfigFile({ file: options.config, cwd: options.cwd, env: options.env }), env };
}
