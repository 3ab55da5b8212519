/** `engram handoff`: the CLI mirror of `write_session_handoff` — overwrite the handoff note, or print it. */
import type { Command } from 'commander';

import { SESSION_HANDOFF_KEY } from '../../../entries/tools.js';
import { NotFoundError } from '../../../index.js';
import { globalOptions, printJson, readStdin, withEngram } from '../context.js';
import { runMemoryTool, type WhereOptions, whereOptions, wordsOrStdin } from './run-memory-tool.js';

export function registerHandoff(program: Command): void {
  whereOptions(
    program
      .command('handoff')
      .description("write the next session's handoff note (replacing the last one), or print it when no text is given")
      .argument('[text...]', 'the note; - reads standard input; omit it to print the current note'),
  )
    .addHelpText(
      'after',
      `
Examples:
  engram handoff "Migrations done; next: deploy to staging"
  engram handoff --scope project:billing`,
    )
    .action(async (words: string[], options: WhereOptions, command: Command) => {
      const json = globalOptions(command).json ?? false;
      const text = await wordsOrStdin(words, readStdin);
      if (text === undefined) {
        const note = await withEngram(command, { mustExist: true }, (engram) =>
          engram.getByKey(SESSION_HANDOFF_KEY, options.scope),
        );
        if (!note)
          throw new NotFoundError(`no handoff note in scope ${options.scope} yet: write one with \`engram handoff "text"\``);
        if (json) printJson(note);
        else process.stdout.write(`${note.text}\n`);
        return;
      }
      const result = await withEngram(command, { mustExist: false }, (engram) =>
        runMemoryTool<{ message: string }>(engram, 'write_session_handoff', { content: text }, options),
      );
      if (json) printJson(result);
      else process.stdout.write(`${result.message}\n`);
    });
}
