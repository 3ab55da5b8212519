/** `engram note`: the CLI mirror of `write_memory` — write a keyed note, or print it. */
import type { Command } from 'commander';

import { TIERS } from '../../../entries/model.js';
import { NotFoundError } from '../../../index.js';
import { globalOptions, printJson, readStdin, withEngram } from '../context.js';
import { runMemoryTool, type WhereOptions, whereOptions, wordsOrStdin } from './run-memory-tool.js';

interface NoteOptions extends WhereOptions {
  append?: boolean;
  tier?: string;
}

export function registerNote(program: Command): void {
  whereOptions(
    program
      .command('note')
      .description('write a keyed note (as the write_memory tool does), or print it when no text is given')
      .argument('<key>', 'name of the note, e.g. deploy-steps')
      .argument('[text...]', 'what to write; - reads standard input; omit it to print the note')
      .option('-a, --append', 'add the text on a new line instead of replacing the note')
      .option('-t, --tier <tier>', `how important it is to keep: ${TIERS.join(', ')}`),
  )
    .addHelpText(
      'after',
      `
Examples:
  engram note deploy-steps "Build the image, then push it"
  engram note deploy-steps "Run the smoke tests" --append
  engram note deploy-steps`,
    )
    .action(async (key: string, words: string[], options: NoteOptions, command: Command) => {
      const json = globalOptions(command).json ?? false;
      const text = await wordsOrStdin(words, readStdin);
      if (text === undefined) {
        const note = await withEngram(command, { mustExist: true }, (engram) => engram.getByKey(key, options.scope));
        if (!note)
          throw new NotFoundError(`no note ${key} in scope ${options.scope}: write one with \`engram note ${key} "text"\``);
        if (json) printJson(note);
        else process.stdout.write(`${note.text}\n`);
        return;
      }
      const result = await withEngram(command, { mustExist: false }, (engram) =>
        runMemoryTool<{ message: string }>(
          engram,
          'write_memory',
          { key, content: text, mode: options.append ? 'append' : 'replace', ...(options.tier ? { tier: options.tier } : {}) },
          options,
        ),
      );
      if (json) printJson(result);
      else process.stdout.write(`${result.message}\n`);
    });
}
