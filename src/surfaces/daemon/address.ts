/**
 * Where the resident Engram process of a database listens. There is one per database file,
 * whatever the settings of the commands that use it (those travel with each request, see
 * caller-settings.ts): the address is a hash of the file's real path — relative paths, `..`
 * and symbolic links resolved — so every caller of one database finds the same process, without
 * loading the library. The socket lives in a directory only the user can enter.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Bumped whenever requests or replies change shape, so an old process is never asked. */
const DAEMON_PROTOCOL = 2;

/** A resident process's files. */
export interface DaemonAddress {
  /** Short hash naming the database. */
  key: string;
  directory: string;
  socket: string;
  /** JSON with the process id, database and start time, written by the process. */
  infoFile: string;
  /** Present while a caller is starting the process. */
  startingFile: string;
}

/**
 * The address of the resident process for the database file `db` (real or not yet made).
 * @param target.db the database file, absolute or relative to `cwd`
 */
export function daemonAddress(target: { db: string; cwd: string; env: NodeJS.ProcessEnv }): DaemonAddress {
  const db = realDatabasePath(path.resolve(target.cwd, target.db));
  const key = createHash('sha256')
    .update(JSON.stringify({ protocol: DAEMON_PROTOCOL, db }))
    .digest('hex')
    .slice(0, 20);
  return addressOfKey(daemonDirectory(target.env), key);
}

/**
 * The addresses of every socket in the user's directory of resident processes, live or left
 * behind by a process that died (asking tells them apart).
 */
export function daemonAddresses(env: NodeJS.ProcessEnv): DaemonAddress[] {
  const directory = daemonDirectory(env);
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return []; // no directory: no process was ever started
  }
  return names
    .filter((name) => name.endsWith('.sock'))
    .sort()
    .map((name) => addressOfKey(directory, name.slice(0, -'.sock'.length)));
}

function addressOfKey(directory: string, key: string): DaemonAddress {
  return {
    key,
    directory,
    socket: path.join(directory, `${key}.sock`),
    infoFile: path.join(directory, `${key}.json`),
    startingFile: path.join(directory, `${key}.starting`),
  };
}

/**
 * The real path of the database file `file` (absolute): symbolic links resolved in every part
 * that exists, the rest appended as named, so a database not made yet keeps the path it gets
 * once it is made.
 */
export function realDatabasePath(file: string): string {
  const missing: string[] = [];
  let existing = file;
  for (;;) {
    try {
      return path.join(realpathSync(existing), ...missing);
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return file;
      missing.unshift(path.basename(existing));
      existing = parent;
    }
  }
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
