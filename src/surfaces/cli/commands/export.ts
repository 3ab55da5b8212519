/** `engram export`: every memory as JSON Lines, every field included. */
import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';

import type { Command } from 'commander';

import { InvalidInputError } from '../../../index.js';
import { withEngram } from '../context.js';

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('write every memory (archived and superseded too) as JSON Lines')
    .argument('[file]', 'output file; standard output when omitted')
    .addHelpText('after', '\nExamples:\n  engram export > memories.jsonl\n  engram export backup.jsonl')
    .action(async (file: string | undefined, _options: unknown, command: Command) => {
      if (file && existsSync(file)) throw new InvalidInputError(`${file} already exists: choose another file or remove it first`);
      await withEngram(command, { mustExist: true }, async (engram) => {
        const out = file ? createWriteStream(file, { flags: 'wx' }) : process.stdout;
        if (file) await once(out, 'open');
        for await (const memory of engram.export()) {
          if (!out.write(`${JSON.stringify(memory)}\n`)) await once(out, 'drain');
        }
        if (file) {
          out.end();
          await once(out, 'finish');
        }
      });
    });
}
