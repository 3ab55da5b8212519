/** `engram doctor`: check a database (a SQLite file or PostgreSQL), and with --repair fix what can be rebuilt. */
import type { Command } from 'commander';

import { doctorDatabase } from '../../../entries/maintenance.js';
import { commandConfig, globalOptions, printJson } from '../context.js';
import { doctorText } from '../doctor-format.js';
import { ReportedFailure } from '../reported-failure.js';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check a database: integrity, schema, both indexes, the embedder, session rows, the graph (exit 1 on a problem)')
    .option('--repair', 'rebuild what can be rebuilt without losing a memory, then check again')
    .addHelpText(
      'after',
      '\nExamples:\n  engram doctor\n  engram doctor --repair --db other.db\n  engram doctor --store postgres://engram@db.internal/engram\n  engram doctor --json',
    )
    .action(async (options: { repair?: boolean }, command: Command) => {
      const config = commandConfig(command);
      const report = await doctorDatabase({
        config,
        path: globalOptions(command).db ?? config.store.path,
        repair: options.repair ?? false,
      });
      if (globalOptions(command).json) printJson(report);
      else process.stdout.write(`${doctorText(report)}\n`);
      if (!report.healthy) throw new ReportedFailure(1);
    });
}
