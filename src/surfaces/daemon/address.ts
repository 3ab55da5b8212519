/**
 * Where the resident Engram process of a database listens. Callers find it without loading the
 * library: the address is a hash of what decides which database and which settings a command
 * would use — the `--db` path (or the working directory, which holds the default database and
 * `engram.toml`), the configuration file and its contents, and the `ENGRAM_*` settings in the
 * environment — so two callers share a process exactly when they would open the same database
 * the same way. The socket lives in a directory only the user can enter.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The fast path must not load the library (src/index.ts loads zod and the engine), so it takes
// the configuration's location rules from their dependency-free module directly.
// eslint-disable-next-line no-restricted-imports
import { isConfigKeyVariable, locateConfigFile } from '../../config/locate.js';

/** Bumped whenever requests or replies change shape, so an old process is never asked. */
const DAEMON_PROTOCOL = 1;

/** What a caller was asked to open. */
interface DaemonTarget {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--db`, when given. */
  db?: string | undefined;
  /** `--config`, when given. */
  config?: string | undefined;
}

/** A resident process's files. */
export interface DaemonAddress {
  /** Short hash naming this database-and-settings. */
  key: string;
  directory: string;
  socket: string;
  /** JSON with the process id, database and start time, written by the process. */
  infoFile: string;
  /** Present while a caller is starting the process. */
  startingFile: string;
  /** The database path the caller named (absolute), or null for the default of `cwd`. */
  db: string | null;
  /** The configuration file in effect (absolute), or null when there is none. */
  config: string | null;
}

/**
 * The address of the resident process for `target`. Reads the config file (if any) to hash it.
 * @throws ConfigError when `--config` or ENGRAM_CONFIG names a file that does not exist: no
 *   process serves such a command, which reports the error itself
 */
export function daemonAddress(target: DaemonTarget): DaemonAddress {
  const dbArg = target.db ?? target.env.ENGRAM_DB;
  const db = dbArg ? path.resolve(target.cwd, dbArg) : null;
  const config = locateConfigFile({ file: target.config, cwd: target.cwd, env: target.env });
  const settings = Object.entries(target.env)
    .filter(([name, value]) => isConfigKeyVariable(name) && value !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  const key = createHash('sha256')
    .update(
      JSON.stringify({
        protocol: DAEMON_PROTOCOL,
        // A relative default database and engram.toml are found from the working directory.
        where: db ?? `cwd:${target.cwd}`,
        config: config === null ? null : [config, createHash('sha256').update(readFileSync(config)).digest('hex')],
        settings,
      }),
    )
    .digest('hex')
    .slice(0, 20);
  const directory = daemonDirectory(target.env);
  return {
    key,
    directory,
    socket: path.join(directory, `${key}.sock`),
    infoFile: path.join(directory, `${key}.json`),
    startingFile: path.join(directory, `${key}.starting`),
    db,
    config,
  };
}

/** The directory holding the user's resident processes: private to the user. */
function daemonDirectory(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_RUNTIME_DIR && path.isAbsolute(env.XDG_RUNTIME_DIR) ? env.XDG_RUNTIME_DIR : os.tmpdir();
  const user = typeof process.getuid === 'function' ? String(process.getuid()) : os.userInfo().username;
  return path.join(base, `engram-${user}`);
}

/**
 * Whether `directory` is the user's own and closed to everyone else, so that a socket in it can
 * only have been made by the user. A missing directory counts as private (it will be made so).
 */
export function isPrivateDirectory(directory: string): boolean {
  try {
    const stat = statSync(directory);
    const uid = typeof process.getuid === 'function' ? process.getuid() : stat.uid;
    return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o077) === 0;
  } catch {
    return !existsSync(directory);
  }
}
