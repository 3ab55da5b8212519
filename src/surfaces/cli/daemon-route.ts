/**
 * A one-shot command handing its work to the resident process of its database, as the hook's
 * fast path does but from the full CLI (the library is loaded; the embedding model is not).
 * When no process listens, one is started for next time and the command does the work itself.
 * When one took the request but gave no answer in time, it may still be doing the work, so the
 * command fails rather than doing it a second time.
 */
import type { Command } from 'commander';

import type { EngramConfig } from '../../index.js';
import { daemonAddress } from '../daemon/address.js';
import { askDaemon, startDaemon } from '../daemon/client.js';
import type { DaemonRequest } from '../daemon/protocol.js';
import { globalOptions } from './context.js';
import { ReportedFailure } from './reported-failure.js';

/**
 * True when the resident process answered (its output is printed); false when the command is
 * to do the work itself.
 * @throws ReportedFailure when the answer was a failure, or no answer came (a line on stderr says so)
 */
export async function answeredByDaemon(command: Command, config: EngramConfig, request: DaemonRequest): Promise<boolean> {
  if (!config.daemon.enabled) return false;
  const { db, config: configFile } = globalOptions(command);
  const address = daemonAddress({ cwd: process.cwd(), env: process.env, db, config: configFile });
  const answer = await askDaemon(address, request);
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
      await startDaemon(address, { cli: process.argv[1] as string, cwd: process.cwd(), env: process.env });
      return false;
  }
}
