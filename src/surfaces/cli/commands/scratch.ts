/** `engram scratch`: the CLI mirror of `scratch_note` — replace, append to, clear or print the scratchpad. */
import type { Command } from 'commander';

import { InvalidInputError } from '../../../index.js';
import { globalOptions, printJson, readStdin, withEngram } from '../context.js';
import { runMemoryTool, type WhereOptions, whereOptions, wordsOrStdin } from './run-memory-tool.js';

interface ScratchOptions extends WhereOptions {
  append?: boolean;
  clear?: boolean;
}

interface ScratchResult {
  mode: string;
  text: string;
  message: string;
}

export function registerScratch(program: Command): void {
  whereOptions(
    program
      .command('scratch')
      .description("the current task's scratchpad: replace it with text, --append to it, --clear it, or print it")
      .argument('[text...]', 'what to write; - reads standard input; omit it to print the scratchpad')
      .option('-a, --append', 'add the text on a new line')
      .option('--clear', 'empty the scratchpad'),
  )
    .addHelpText(
      'after',
      `
Examples:
  engram scratch "1. parse the file"
  engram scratch "2. validate rows" --append
  engram scratch
  engram scratch --clear`,
    )
    .action(async (words: string[], options: ScratchOptions, command: Command) => {
      const text = await wordsOrStdin(words, readStdin);
      if (options.clear && (text !== undefined || options.append)) {
        throw new InvalidInputError('--clear takes no text and no --append: clear first, then write');
      }
      if (options.append && text === undefined) throw new InvalidInputError('--append needs the text to add');
      const mode = options.clear ? 'clear' : text === undefined ? 'read' : options.append ? 'append' : 'replace';
      const result = await withEngram(command, { mustExist: mode === 'read' }, (engram) =>
        runMemoryTool<ScratchResult>(engram, 'scratch_note', text === undefined ? { mode } : { mode, content: text }, options),
      );
      if (globalOptions(command).json) printJson(result);
      else if (mode === 'read') process.stdout.write(result.text ? `${result.text}\n` : 'the scratchpad is empty\n');
      else process.stdout.write(`${result.message}\n`);
    });
}
