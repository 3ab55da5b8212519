/**
 * The caller's side: ask the resident process, give up quickly when it is not there, and start
 * one in the background for next time. Uses Node's built-ins only, so a hook that is answered
 * by the resident process never loads the library.
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';

import { type DaemonAddress, isPrivateDirectory } from './address.js';
import { type DaemonReply, type DaemonRequest, encodeLine, readLine } from './protocol.js';

/** How long a caller waits. */
interface DaemonTimeouts {
  /** To connect: a live process accepts at once, so this is short. */
  connectMs: number;
  /** For the reply once connected. */
  replyMs: number;
}

/** The defaults: a prompt never waits long on a process that is not there or is stuck. */
const DAEMON_TIMEOUTS: DaemonTimeouts = { connectMs: 150, replyMs: 10_000 };

/** What came of asking. */
export type DaemonAnswer =
  | { kind: 'reply'; reply: DaemonReply }
  /** Nothing listens (no process, or a stale socket): the request was never sent, so do the work here. */
  | { kind: 'unreachable' }
  /**
   * Connected and sent, but no (valid) reply in time. The process finishes a request it has
   * begun, so the work may be done there still: doing it here too could do it twice.
   */
  | { kind: 'no-reply' };

/**
 * Sends one request to the process at `address`. Never throws.
 * @param timeouts @default { connectMs: 150, replyMs: 10_000 }
 */
export function askDaemon(
  address: DaemonAddress,
  request: DaemonRequest,
  timeouts: DaemonTimeouts = DAEMON_TIMEOUTS,
): Promise<DaemonAnswer> {
  // A socket in a directory someone else could write to may not be ours: never talk to it.
  if (!isPrivateDirectory(address.directory)) return Promise.resolve({ kind: 'unreachable' });
  return new Promise((resolve) => {
    let settled = false;
    const socket = net.createConnection(address.socket);
    const settle = (answer: DaemonAnswer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    let connected = false;
    let timer = setTimeout(() => settle({ kind: 'unreachable' }), timeouts.connectMs);
    socket.once('error', () => settle({ kind: connected ? 'no-reply' : 'unreachable' }));
    socket.once('connect', () => {
      connected = true;
      clearTimeout(timer);
      timer = setTimeout(() => settle({ kind: 'no-reply' }), timeouts.replyMs);
      socket.write(encodeLine(request));
      readLine(socket).then(
        (reply) => settle(isReply(reply) ? { kind: 'reply', reply } : { kind: 'no-reply' }),
        () => settle({ kind: 'no-reply' }),
      );
    });
  });
}

/**
 * Starts the resident process for `address` in the background, detached from the caller (it
 * outlives it), with the caller's settings until the first request brings its own. `cli` is the
 * path of the `engram` entry script. Two callers starting one at the same moment are fine: the
 * second process finds the first listening and exits.
 */
export async function startDaemon(
  address: DaemonAddress,
  options: {
    cli: string;
    cwd: string;
    env: NodeJS.ProcessEnv;
    /** The database file the caller named with `--db` (absolute); undefined when its configuration names it. */
    db: string | undefined;
    /** The caller's configuration file, or null. */
    config: string | null;
  },
): Promise<void> {
  if (!isPrivateDirectory(address.directory) || !claimStart(address)) return;
  // Loaded only when a process is started: a hook answered by one never needs it.
  const { spawn } = await import('node:child_process');
  // The process opens the database as the caller would (it makes the default one's folder).
  const args = [options.cli, 'daemon', 'run'];
  if (options.db !== undefined) args.push('--db', options.db);
  if (options.config !== null) args.push('--config', options.config);
  try {
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, detached: true, stdio: 'ignore' });
    child.on('error', () => undefined); // the caller does the work itself either way
    child.unref();
  } catch {
    // Spawning failed (no process slots?): the caller does the work itself.
  }
}

/** How long a start in progress keeps other callers from starting another (loading the model takes a second or two). */
const STARTING_MS = 30_000;

/**
 * Marks a start in progress; false when another caller started one moments ago. The process
 * removes the mark once it listens; a mark left by a start that failed expires, so a broken
 * setup costs one attempt per STARTING_MS rather than one per hook.
 */
function claimStart(address: DaemonAddress): boolean {
  try {
    mkdirSync(address.directory, { recursive: true, mode: 0o700 });
    try {
      if (Date.now() - statSync(address.startingFile).mtimeMs < STARTING_MS) return false;
      rmSync(address.startingFile, { force: true });
    } catch {
      // No mark: go ahead.
    }
    writeFileSync(address.startingFile, String(process.pid), { flag: 'wx', mode: 0o600 });
    return true;
  } catch {
    return false; // another caller claimed it between the check and the write, or the directory is not ours
  }
}

function isReply(value: unknown): value is DaemonReply {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as DaemonReply).stdout === 'string' &&
    typeof (value as DaemonReply).stderr === 'string' &&
    typeof (value as DaemonReply).exitCode === 'number'
  );
}
