/**
 * What every CLI command shares: reading the global options (--db, --config, --json), loading
 * the configuration, and opening the engine for the duration of one command.
 */
import type { Command } from 'commander';

import { type Engram, loadConfig, openEngram } from '../../index.js';

/** The options every command accepts. */
export interface GlobalOptions {
  db?: string;
  config?: string;
  json?: boolean;
}

export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/**
 * Opens the engine for one command and closes it afterwards, whatever happens.
 * @param mustExist read commands refuse to create a database
 */
export async function withEngram<T>(
  command: Command,
  options: { mustExist: boolean },
  action: (engram: Engram) => Promise<T>,
): Promise<T> {
  const { db, config: configFile } = globalOptions(command);
  const { origin: _origin, ...config } = loadConfig({ file: configFile });
  const engram = await openEngram({ config, path: db ?? config.store.path, mustExist: options.mustExist });
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
