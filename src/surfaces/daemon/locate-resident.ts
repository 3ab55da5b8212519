/**
 * The resident process a hook hands its work to, found without loading the library: the
 * database the command would open and whether the resident process is on, read by the
 * configuration's rules from the command line, the `ENGRAM_*` variables and the config file's
 * raw TOML (the reader is loaded only when there is a file). A value the configuration would
 * reject counts as "no resident process", so the full CLI runs the command and reports it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

// The fast path must not load the library (src/index.ts loads zod and the engine), so it reads
// `[daemon]` and `[store]` by the configuration's rules from their dependency-free module directly.
// eslint-disable-next-line no-restricted-imports
import { DEFAULT_STORE_PATH, parseEnvFlag, parseEnvValue } from '../../config/locate.js';
import { type DaemonAddress, daemonAddress } from './address.js';
import { type CallerSettings, callerSettings } from './caller-settings.js';

/** The resident process of a command, and what to send it. */
export interface ResidentTarget {
  /** The database file, as the command names it (absolute). */
  db: string;
  /** Whether `--db` (or ENGRAM_DB) named it, rather than the configuration. */
  dbNamed: boolean;
  address: DaemonAddress;
  settings: CallerSettings;
}

/** The part of `engram.toml` this module reads. */
interface RawConfig {
  store?: { path?: unknown; url?: unknown };
  daemon?: { enabled?: unknown };
}

/**
 * The resident process a command run with these options would use, or null when it uses none:
 * `[daemon] enabled = false`, a PostgreSQL store (served in each command's own process), or a
 * setting the full CLI must report.
 * @throws when the config file is missing or unreadable, or not TOML (the full CLI reports it)
 */
export async function locateResident(target: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--db`, when given. */
  db?: string | undefined;
  /** `--config`, when given. */
  config?: string | undefined;
}): Promise<ResidentTarget | null> {
  const { cwd, env } = target;
  const settings = callerSettings({ cwd, env, config: target.config });
  const raw = settings.config === null ? {} : await readRawConfig(settings.config);
  if (!daemonEnabled(raw, env)) return null;
  const named = target.db ?? env.ENGRAM_DB;
  const db = databaseFile(raw, env, named);
  if (db === null) return null;
  return { db: path.resolve(cwd, db), dbNamed: Boolean(named), address: daemonAddress({ db, cwd, env }), settings };
}

/** `[daemon] enabled`: on unless set false; a value the configuration rejects (`0`, `"yes"`) counts as off. */
function daemonEnabled(raw: RawConfig, env: NodeJS.ProcessEnv): boolean {
  const fromEnv = env.ENGRAM_DAEMON__ENABLED;
  if (fromEnv !== undefined) return parseEnvFlag(fromEnv) === true;
  const enabled = raw.daemon?.enabled;
  return enabled === undefined || enabled === true;
}

/**
 * The SQLite file the command opens, as the CLI chooses it: `--store` (ENGRAM_STORE_URL) over
 * `--db` (ENGRAM_DB) over `[store] url` and `path`; null for a PostgreSQL store or a value
 * that is not a path.
 */
function databaseFile(raw: RawConfig, env: NodeJS.ProcessEnv, named: string | undefined): string | null {
  if (env.ENGRAM_STORE_URL) return null;
  if (named) return named;
  const url = env.ENGRAM_STORE__URL !== undefined ? parseEnvValue(env.ENGRAM_STORE__URL) : raw.store?.url;
  if (url !== undefined && url !== '') return null;
  const file = env.ENGRAM_STORE__PATH !== undefined ? parseEnvValue(env.ENGRAM_STORE__PATH) : raw.store?.path;
  if (file === undefined) return DEFAULT_STORE_PATH;
  return typeof file === 'string' && file !== '' ? file : null;
}

async function readRawConfig(file: string): Promise<RawConfig> {
  // The TOML reader costs ~10 ms to load: only when there is a file to read.
  const { parse } = await import('smol-toml');
  // TOML has no null: a section of another type (`store = 5`) reads as one without the keys.
  return parse(readFileSync(file, 'utf8')) as RawConfig;
}
