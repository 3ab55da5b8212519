/**
 * The ranked turns of every question, one JSON line each, written where `ENGRAM_BENCH_RANKS`
 * names: two runs' files compared line by line show whether a change kept every ranking.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

/** One question's ranking by one method. */
export interface RankedLine {
  conversation: string;
  question: string;
  method: string;
  ranked: readonly string[];
}

/** An open ranks file. */
export interface RanksFile {
  write(line: RankedLine): void;
  close(): void;
}

/** Opens (and truncates) the file `ENGRAM_BENCH_RANKS` names, or gives undefined when it is unset. */
export function openRanksFile(path = process.env['ENGRAM_BENCH_RANKS']): RanksFile | undefined {
  if (!path) return undefined;
  const fd = openSync(path, 'w');
  return {
    write: (line) => void writeSync(fd, `${JSON.stringify(line)}\n`),
    close: () => closeSync(fd),
  };
}
