/**
 * The user's resident processes as `engram daemon status` and `stop` see them: each socket in
 * the private directory is asked for its status (a socket nobody answers on was left by a
 * process that died, and is not listed), and a stopped process is waited for until it has
 * exited, so its memory is free when the command returns.
 */
import { readFileSync } from 'node:fs';

import { type DaemonAddress, daemonAddresses } from './address.js';
import { askDaemon } from './client.js';
import type { DaemonStatus } from './protocol.js';

/** Status and stop are answered at once, between commands: a short wait is enough. */
const ASK_TIMEOUTS = { connectMs: 500, replyMs: 5_000 };
/** How long a stopped process may take to finish the command in hand and exit. */
const EXIT_MS = 15_000;
const EXIT_POLL_MS = 50;

/** Every live resident process of the user (the directory comes from `env`), by database. */
export async function listResidents(env: NodeJS.ProcessEnv): Promise<DaemonStatus[]> {
  const statuses = await Promise.all(daemonAddresses(env).map((address) => residentStatus(address)));
  return statuses.filter((status) => status !== null).sort((a, b) => a.db.localeCompare(b.db));
}

/** The status of the process at `address`, or null when none answers there. */
export async function residentStatus(address: DaemonAddress): Promise<DaemonStatus | null> {
  const answer = await askDaemon(address, { op: 'status' }, ASK_TIMEOUTS);
  return answer.kind === 'reply' && isStatus(answer.reply.status) ? answer.reply.status : null;
}

/** What became of a stop request. */
export interface StoppedResident {
  status: DaemonStatus;
  /** False when the process had not exited after EXIT_MS (it is still finishing a command). */
  exited: boolean;
}

/** Stops the process at `address` and waits for it to exit; null when none answers there. */
export async function stopResident(address: DaemonAddress): Promise<StoppedResident | null> {
  const answer = await askDaemon(address, { op: 'stop' }, ASK_TIMEOUTS);
  if (answer.kind !== 'reply' || !isStatus(answer.reply.status)) return null;
  const status = answer.reply.status;
  return { status, exited: await waitForExit(status.pid) };
}

/** Stops every live resident process of the user. */
export async function stopAllResidents(env: NodeJS.ProcessEnv): Promise<StoppedResident[]> {
  const stopped = await Promise.all(daemonAddresses(env).map((address) => stopResident(address)));
  return stopped.filter((entry) => entry !== null).sort((a, b) => a.status.db.localeCompare(b.status.db));
}

async function waitForExit(pid: number): Promise<boolean> {
  for (let waited = 0; waited < EXIT_MS; waited += EXIT_POLL_MS) {
    if (!isRunning(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, EXIT_POLL_MS));
  }
  return !isRunning(pid);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, but not ours
  }
  // An exited process its parent has not reaped yet still takes signals: Linux says it is a zombie.
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (macOS): the signal is the answer
  }
}

function isStatus(value: unknown): value is DaemonStatus {
  const status = value as DaemonStatus | undefined;
  return (
    typeof status === 'object' &&
    status !== null &&
    typeof status.pid === 'number' &&
    typeof status.db === 'string' &&
    typeof status.startedAt === 'string' &&
    typeof status.rssBytes === 'number' &&
    typeof status.idleExitAt === 'string'
  );
}
