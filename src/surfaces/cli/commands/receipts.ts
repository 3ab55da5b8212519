/** `engram receipts`: why each recall decision injected what it did, one screen a decision. */
import type { Command } from 'commander';

import { InvalidInputError } from '../../../index.js';
import { globalOptions, printJson, withEngram } from '../context.js';
import { receiptScreen } from '../receipt-format.js';
import { parseLimit } from './search.js';

interface ReceiptsCommandOptions {
  session?: string;
  turn?: string;
  limit: string;
}

export function registerReceipts(program: Command): void {
  program
    .command('receipts')
    .description('show recall receipts: what each turn injected, what it left out, and why (newest first)')
    .option('--session <id>', 'only this session')
    .option('--turn <n>', 'only this turn (with --session)')
    .option('-n, --limit <n>', 'receipts at most', '5')
    .addHelpText('after', '\nExamples:\n  engram receipts --session s1 --turn 3\n  engram receipts --limit 1 --json')
    .action(async (options: ReceiptsCommandOptions, command: Command) => {
      const turn = options.turn === undefined ? undefined : parseTurn(options.turn);
      const receipts = await withEngram(command, { mustExist: true }, (engram) =>
        engram.receipts({ sessionId: options.session, turn, limit: parseLimit(options.limit) }),
      );
      if (globalOptions(command).json) printJson(receipts);
      else if (receipts.length === 0)
        process.stdout.write('no receipts: they are written when a session recalls (engram recall, or session.beforeTurn)\n');
      else process.stdout.write(`${receipts.map(receiptScreen).join(`\n\n${'─'.repeat(60)}\n\n`)}\n`);
    });
}

function parseTurn(value: string): number {
  const turn = Number(value);
  if (!Number.isInteger(turn) || turn < 1)
    throw new InvalidInputError(`--turn must be a whole number of at least 1 (got ${value})`);
  return turn;
}
