/**
 * What every CLI command shares: reading the global options (--db, --store, --config, --json), loading
 * the configuration, and opening the engine for the duration of one command.
 */
import type { Command } from 'commander';

import { redactUrl } from '../../entries/model.js';
import { type Engram, type EngramConfig, InvalidInputError, loadConfig, openEngram } from '../../index.js';
import { checkDatabasePath } from './database-path.js';

/** The options every command accepts. */
export interface GlobalOptions {
  db?: string;
  /** A PostgreSQL URL (`--store` or ENGRAM_STORE_URL). */
  store?: string;
  config?: string;
  json?: boolean;
}

export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/**
 * Loads the configuration for `command`: `--config` (or ./engram.toml), then the `ENGRAM_*`
 * settings, then the store the command line names: `--store` (ENGRAM_STORE_URL) over `--db`
 * (ENGRAM_DB) over the file's `[store] url` and `path`.
 */
export function commandConfig(command: Command): EngramConfig {
  const { origin: _origin, ...config } = loadConfig({ file: globalOptions(command).config });
  const { store, db } = globalOptions(command);
  if (store !== undefined) {
    if (!/^postgres(ql)?:\/\//i.test(store)) {
      throw new InvalidInputError(`--store takes a postgres:// URL (got "${redactUrl(store)}"); use --db for a SQLite file`);
    }
    return { ...config, store: { ...config.store, url: store } };
  }
  return db === undefined ? config : { ...config, store: { ...config.store, url: '' } };
}

/** Where the command's memories live, for messages: the file, or the PostgreSQL URL without its password. */
export function describeStore(config: EngramConfig, file: string): string {
  return config.store.url === '' ? file : redactUrl(config.store.url);
}

/**
 * Refuses a command that works on a SQLite file only when the configuration names a PostgreSQL
 * store, saying what to use there instead.
 */
export function requireSqliteFile(config: EngramConfig, command: string, instead: string): void {
  if (config.store.url !== '') throw new InvalidInputError(`${command} works on a SQLite file only: ${instead}`);
}

/**
 * Opens the engine for one command and closes it afterwards, whatever happens.
 * @param options.mustExist read commands refuse to create a database
 * @param options.config the configuration, when the command loaded it already @default commandConfig(command)
 */
export async function withEngram<T>(
  command: Command,
  options: { mustExist: boolean; config?: EngramConfig },
  action: (engram: Engram) => Promise<T>,
): Promise<T> {
  const config = options.config ?? commandConfig(command);
  const file = globalOptions(command).db ?? config.store.path;
  checkDatabasePath(config, file, options);
  const engram = await openEngram({ config, path: file, mustExist: options.mustExist });
  try {
    return await action(engram);
  } finally {
    await engram.close();
  }
}

/** Reads all of standard input as text. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Prints a value as indented JSON on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Collects a repeatable option into a list, also splitting on commas: `--tag a --tag b,c`. */
export function collect(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part.length > 0),
  ];
}
