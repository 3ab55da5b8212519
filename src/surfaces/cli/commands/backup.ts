/** `engram backup`: a consistent copy of a live database. */
import type { Command } from 'commander';

import { backupDatabase } from '../../../entries/maintenance.js';
import { commandConfig, globalOptions, printJson, requireSqliteFile } from '../context.js';
import { bytes } from '../format.js';

/** What backs up a PostgreSQL store instead. */
const PG_DUMP =
  'back up PostgreSQL with pg_dump (pg_dump --format=custom --file=engram.dump <database URL>, restored with pg_restore), or write the memories alone with engram export';

export function registerBackup(program: Command): void {
  program
    .command('backup')
    .description('copy the database consistently while other processes use it (SQLite online backup)')
    .argument('<file>', 'the copy; open it with --db <file> to restore')
    .option('--force', 'replace the file if it exists')
    .addHelpText(
      'after',
      '\nExamples:\n  engram backup backups/engram-2026-03-02.db\n  engram backup nightly.db --force --db .engram/engram.db',
    )
    .action(async (file: string, options: { force?: boolean }, command: Command) => {
      const config = commandConfig(command);
      requireSqliteFile(config, 'engram backup', PG_DUMP);
      const summary = await backupDatabase({
        config,
        path: globalOptions(command).db ?? config.store.path,
        to: file,
        force: options.force ?? false,
      });
      if (globalOptions(command).json) printJson(summary);
      else {
        const memories = `${summary.memories} ${summary.memories === 1 ? 'memory' : 'memories'}`;
        process.stdout.write(`backed up ${memories} (${bytes(summary.bytes)}) from ${summary.path} to ${summary.to}\n`);
      }
    });
}
