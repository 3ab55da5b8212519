/**
 * A one-shot command handing its work to the resident process of its database, as the hook's
 * fast path does but from the full CLI (the library is loaded; the embedding model is not).
 * The request carries the command's settings, so whichever configuration started the process,
 * the command runs with its own. When no process listens, one is started for next time and the
 * command does the work itself. When one took the request but gave no answer in time, it may
 * still be doing the work, so the command fails rather than doing it a second time.
 */
import path from 'node:path';

import type { Command } from 'commander';

import type { EngramConfig } from '../../index.js';
import { daemonAddress } from '../daemon/address.js';
import { callerSettings } from '../daemon/caller-settings.js';
import { askDaemon, startDaemon } from '../daemon/client.js';
import type { ResidentTarget } from '../daemon/locate-resident.js';
import type { CommandRequest } from '../daemon/protocol.js';
import { globalOptions } from './context.js';
import { checkDatabasePath } from './database-path.js';
import { ReportedFailure } from './reported-failure.js';

/**
 * True when the resident process answered (its output is printed); false when the command is
 * to do the work itself.
 * @param request the command's request, without the settings (this adds them)
 * @throws ReportedFailure when the answer was a failure, or no answer came (a line on stderr says so)
 */
export async function answeredByDaemon(
  command: Command,
  config: EngramConfig,
  request: DistributiveOmit<CommandRequest, 'settings'>,
): Promise<boolean> {
  const resident = residentOf(command, config);
  if (resident === null) return false;
  // A missing folder is refused here, in the CLI's words, rather than by a process started for it.
  checkDatabasePath(config, resident.db, { mustExist: false });
  const answer = await askDaemon(resident.address, { ...request, settings: resident.settings } as CommandRequest);
  switch (answer.kind) {
    case 'reply':
      process.stdout.write(answer.reply.stdout);
      process.stderr.write(answer.reply.stderr);
      if (answer.reply.exitCode !== 0) throw new ReportedFailure(answer.reply.exitCode);
      return true;
    case 'no-reply':
      process.stderr.write(
        'engram: the resident process took the request but did not answer in time; it may still finish it, so it was ' +
          'not run again here (see engram daemon status, or engram daemon stop)\n',
      );
      throw new ReportedFailure(1);
    case 'unreachable':
      await startDaemon(resident.address, {
        cli: process.argv[1] as string,
        cwd: process.cwd(),
        env: process.env,
        db: resident.dbNamed ? resident.db : undefined,
        config: resident.settings.config,
      });
      return false;
  }
}

/** The resident process the command would use, or null: `[daemon] enabled = false`, or a PostgreSQL store. */
function residentOf(command: Command, config: EngramConfig): ResidentTarget | null {
  const db = commandDatabase(command, config);
  if (!config.daemon.enabled || db === null) return null;
  const { db: named, config: configFile } = globalOptions(command);
  const { cwd, env } = { cwd: process.cwd(), env: process.env };
  return {
    db,
    dbNamed: named !== undefined,
    address: daemonAddress({ db, cwd, env }),
    settings: callerSettings({ cwd, env, config: configFile }),
  };
}

/** The SQLite file the command opens (absolute), or null when its store is PostgreSQL. */
export function commandDatabase(command: Command, config: EngramConfig): string | null {
  if (config.store.url !== '') return null;
  return path.resolve(globalOptions(command).db ?? config.store.path);
}

/** `Omit` over each member of a union. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
