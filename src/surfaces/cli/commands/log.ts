/** `engram log`: the daily activity log — one line per write, from every surface (seed 003). */
import type { Command } from 'commander';

import type { ActivityEntry } from '../../../entries/model.js';
import { globalOptions, printJson, withEngram } from '../context.js';
import { oneLine } from '../format.js';
import { parseLimit } from './search.js';

interface LogOptions {
  day?: string;
  limit: string;
}

export function registerLog(program: Command): void {
  program
    .command('log')
    .description(
      'the activity log of one day (UTC, today by default): every write — add, update, forget, restore, import, tools, graph — and when',
    )
    .option('-d, --day <date>', 'the day to show, as YYYY-MM-DD (UTC)')
    .option('-n, --limit <n>', 'lines at most', '1000')
    .addHelpText(
      'after',
      `
Examples:
  engram log
  engram log --day 2026-03-02 --json`,
    )
    .action(async (options: LogOptions, command: Command) => {
      const day = options.day ?? new Date().toISOString().slice(0, 10);
      const limit = parseLimit(options.limit);
      const lines = await withEngram(command, { mustExist: true }, (engram) => engram.activity({ day, limit }));
      if (globalOptions(command).json) {
        printJson(lines);
        return;
      }
      if (lines.length === 0) process.stdout.write(`no activity on ${day}\n`);
      for (const line of lines) process.stdout.write(`${logLine(line)}\n`);
    });
}

/** `10:04:31  remember  fact: Deploys happen on Tuesdays` */
function logLine(entry: ActivityEntry): string {
  return `${entry.at.slice(11, 19)}  ${entry.action}  ${oneLine(entry.summary, 100)}`;
}
