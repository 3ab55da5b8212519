/** `engram import`: load memories exported as JSON Lines, all or nothing. */
import { readFile } from 'node:fs/promises';

import type { Command } from 'commander';

import { EngramError } from '../../../index.js';
import { globalOptions, printJson, readStdin, withEngram } from '../context.js';
import { progressBar } from '../progress.js';

export function registerImport(program: Command): void {
  program
    .command('import')
    .description('import memories from JSON Lines (as written by export); all or nothing')
    .argument('[file]', 'input file; standard input when omitted or -')
    .option('--replace', 'overwrite memories whose id is already stored (default: skip them)')
    .option('--progress', 'report progress on standard error even when it is not a terminal')
    .addHelpText('after', '\nExamples:\n  engram import backup.jsonl\n  engram export --db old.db | engram import --db new.db')
    .action(async (file: string | undefined, options: { replace?: boolean; progress?: boolean }, command: Command) => {
      const text = !file || file === '-' ? await readStdin() : await readInput(file);
      const { records, lines } = parseJsonLines(text);
      const summary = await withEngram(command, { mustExist: false }, (engram) =>
        engram.import(records, {
          lines,
          onConflict: options.replace ? 'replace' : 'skip',
          onProgress: progressBar({ enabled: options.progress }),
        }),
      );
      if (globalOptions(command).json) printJson(summary);
      else {
        const replaced = summary.replaced ? `, replaced ${summary.replaced}` : '';
        process.stdout.write(
          `imported ${summary.imported} of ${summary.read} memories${replaced}, skipped ${summary.skipped} already present\n`,
        );
      }
    });
}

async function readInput(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (cause) {
    throw new EngramError('import_failed', `cannot read ${file}: ${(cause as Error).message}`, { cause });
  }
}

/** Parses JSON Lines; blank lines are skipped, a line that is not JSON is an error naming it. */
export function parseJsonLines(text: string): { records: unknown[]; lines: number[] } {
  const records: unknown[] = [];
  const lines: number[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      records.push(JSON.parse(line));
    } catch (cause) {
      throw new EngramError(
        'import_failed',
        `line ${index + 1}: not valid JSON (${(cause as Error).message}); nothing was imported`,
        { cause },
      );
    }
    lines.push(index + 1);
  });
  return { records, lines };
}
