/**
 * The `engram` command: global options and the list of subcommands. Each subcommand lives in
 * its own file under `commands/` and only parses, calls the engine and prints. A run loads the
 * module of the one subcommand it names (every module loaded cost about 50 ms of CPU a process
 * more); help, and anything that names none, loads them all.
 */
import { Command, Option } from 'commander';

/** Adds one subcommand to the program. */
type Register = (program: Command) => void;

/** Each subcommand's name and its registration, loaded when needed, in the order help lists them. */
const COMMANDS: readonly (readonly [string, () => Promise<Register>])[] = [
  ['add', async () => (await import('./commands/add.js')).registerAdd],
  ['search', async () => (await import('./commands/search.js')).registerSearch],
  ['list', async () => (await import('./commands/list.js')).registerList],
  ['show', async () => (await import('./commands/show.js')).registerShow],
  ['forget', async () => (await import('./commands/forget.js')).registerForget],
  ['restore', async () => (await import('./commands/restore.js')).registerRestore],
  ['import', async () => (await import('./commands/import.js')).registerImport],
  ['export', async () => (await import('./commands/export.js')).registerExport],
  ['stats', async () => (await import('./commands/stats.js')).registerStats],
  ['recall', async () => (await import('./commands/recall.js')).registerRecall],
  ['receipts', async () => (await import('./commands/receipts.js')).registerReceipts],
  ['note', async () => (await import('./commands/note.js')).registerNote],
  ['handoff', async () => (await import('./commands/handoff.js')).registerHandoff],
  ['scratch', async () => (await import('./commands/scratch.js')).registerScratch],
  ['log', async () => (await import('./commands/log.js')).registerLog],
  ['solution', async () => (await import('./commands/solution.js')).registerSolution],
  ['graph', async () => (await import('./commands/graph.js')).registerGraph],
  ['reindex', async () => (await import('./commands/reindex.js')).registerReindex],
  ['doctor', async () => (await import('./commands/doctor.js')).registerDoctor],
  ['backup', async () => (await import('./commands/backup.js')).registerBackup],
  ['bench', async () => (await import('./commands/bench.js')).registerBench],
  ['hook', async () => (await import('./commands/hook.js')).registerHook],
  ['plugin', async () => (await import('./commands/plugin.js')).registerPlugin],
  ['daemon', async () => (await import('./commands/daemon.js')).registerDaemon],
  ['serve', async () => (await import('./commands/serve.js')).registerServe],
  ['proxy', async () => (await import('./commands/proxy.js')).registerProxy],
  ['mcp', async () => (await import('./commands/mcp.js')).registerMcp],
];

/** Global options that take a value, so the word after one is not a subcommand's name. */
const VALUED_OPTIONS = new Set(['--db', '--store', '--config']);

export const VERSION = '0.1.0';

/** The whole program, every subcommand registered (help, and the documents' checks). */
export async function buildProgram(): Promise<Command> {
  return programWith(COMMANDS);
}

/**
 * The program for one run of `argv` (as in process.argv): only the subcommand it names, when it
 * names one, else every subcommand.
 */
export async function programFor(argv: readonly string[]): Promise<Command> {
  const name = commandName(argv);
  const named = COMMANDS.filter(([command]) => command === name);
  return programWith(named.length === 1 ? named : COMMANDS);
}

async function programWith(commands: typeof COMMANDS): Promise<Command> {
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
  for (const register of await Promise.all(commands.map(([, load]) => load()))) register(program);
  return program;
}

/** The first word of `argv` after the node binary and the script that is not an option or an option's value. */
function commandName(argv: readonly string[]): string | undefined {
  for (let i = 2; i < argv.length; i++) {
    const word = argv[i] as string;
    if (VALUED_OPTIONS.has(word)) i++;
    else if (!word.startsWith('-')) return word;
  }
  return undefined;
}
