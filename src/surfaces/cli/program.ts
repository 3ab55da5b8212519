/**
 * The `engram` command: global options and the list of subcommands. Each subcommand lives in
 * its own file under `commands/` and only parses, calls the engine and prints.
 */
import { Command, Option } from 'commander';

import { registerAdd } from './commands/add.js';
import { registerBackup } from './commands/backup.js';
import { registerBench } from './commands/bench.js';
import { registerDaemon } from './commands/daemon.js';
import { registerDoctor } from './commands/doctor.js';
import { registerExport } from './commands/export.js';
import { registerForget } from './commands/forget.js';
import { registerGraph } from './commands/graph.js';
import { registerHandoff } from './commands/handoff.js';
import { registerHook } from './commands/hook.js';
import { registerImport } from './commands/import.js';
import { registerList } from './commands/list.js';
import { registerLog } from './commands/log.js';
import { registerMcp } from './commands/mcp.js';
import { registerNote } from './commands/note.js';
import { registerPlugin } from './commands/plugin.js';
import { registerProxy } from './commands/proxy.js';
import { registerRecall } from './commands/recall.js';
import { registerReceipts } from './commands/receipts.js';
import { registerReindex } from './commands/reindex.js';
import { registerRestore } from './commands/restore.js';
import { registerScratch } from './commands/scratch.js';
import { registerSearch } from './commands/search.js';
import { registerServe } from './commands/serve.js';
import { registerShow } from './commands/show.js';
import { registerSolution } from './commands/solution.js';
import { registerStats } from './commands/stats.js';

export const VERSION = '0.1.0';

export function buildProgram(): Command {
  const program = new Command('engram')
    .description('Engram: long-term memory and recall for AI agents')
    .version(VERSION)
    .addOption(new Option('--db <path>', 'database file (default .engram/engram.db)').env('ENGRAM_DB'))
    .addOption(
      new Option('--store <url>', 'a PostgreSQL database instead of the file: postgres://user:password@host:5432/db').env(
        'ENGRAM_STORE_URL',
      ),
    )
    .addOption(new Option('--config <file>', 'configuration file (default ./engram.toml if present)').env('ENGRAM_CONFIG'))
    .option('--json', 'print results as JSON')
    // Usage mistakes are thrown, not printed, so main.ts reports them like every other error.
    .exitOverride()
    .configureOutput({ outputError: () => undefined })
    .addHelpText(
      'after',
      `
Examples:
  engram add "We chose PostgreSQL for billing" --kind decision --tier must
  engram search "which database for billing"
  engram list --json
  engram export > memories.jsonl && engram import memories.jsonl --db copy.db
  engram bench ingest --count 1000`,
    );
  for (const register of [
    registerAdd,
    registerSearch,
    registerList,
    registerShow,
    registerForget,
    registerRestore,
    registerImport,
    registerExport,
    registerStats,
    registerRecall,
    registerReceipts,
    registerNote,
    registerHandoff,
    registerScratch,
    registerLog,
    registerSolution,
    registerGraph,
    registerReindex,
    registerDoctor,
    registerBackup,
    registerBench,
    registerHook,
    registerPlugin,
    registerDaemon,
    registerServe,
    registerProxy,
    registerMcp,
  ]) {
    register(program);
  }
  return program;
}
