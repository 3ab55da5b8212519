/**
 * A one-shot command handing its work to the resident process of its database, as the hook's
 * fast path does but from the full CLI (the library is loaded; the embedding model is not).
 * When no process answers in time, one is started for next time and the command does the work
 * itself.
 */
import type { Command } from 'commander';

import { loadConfig } from '../../index.js';
import { daemonAddress } from '../daemon/address.js';
import { askDaemon, startDaemon } from '../daemon/client.js';
import type { DaemonRequest } from '../daemon/protocol.js';
import { globalOptions } from './context.js';

/** True when the resident process answered (its output is printed and the exit code set). */
export async function answeredByDaemon(command: Command, request: DaemonRequest): Promise<boolean> {
  const { db, config: configFile } = globalOptions(command);
  if (!loadConfig({ file: configFile }).daemon.enabled) return false;
  const address = daemonAddress({ cwd: process.cwd(), env: process.env, db, config: configFile });
  const answer = await askDaemon(address, request);
  if (answer.kind === 'reply') {
    process.stdout.write(answer.reply.stdout);
    process.stderr.write(answer.reply.stderr);
    process.exitCode = answer.reply.exitCode;
    return true;
  }
  if (answer.kind === 'unreachable') {
    await startDaemon(address, { cli: process.argv[1] as string, cwd: process.cwd(), env: process.env });
  }
  return false;
}
