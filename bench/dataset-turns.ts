/**
 * Every turn of the development slices in shared/bench, as the graph-extraction tests read them
 * (extraction-on-*.test.ts): LoCoMo and REALTALK (LoCoMo's layout) as `engram bench locomo`
 * indexes them, LongMemEval-S with the user's and the assistant's turns alike, each dated by its
 * session; and what went wrong extracting them. The data is not in the repository: it is read
 * from the `shared/bench` folder beside the checkout or beside one of its parent folders.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { extractGraph } from 'engram/internal';

import { loadLocomo } from './locomo-data.js';
import { parseLongMemEvalDate } from './longmemeval-data.js';
import { readJsonFile } from './read-json-file.js';

/** One turn to extract, as the benchmarks store it. */
export interface DatasetTurn {
  where: string;
  text: string;
  speaker?: string;
  occurredAt: string;
}

/** The nearest `shared/bench` folder at or above the checkout, or undefined. */
export function findBenchFolder(): string | undefined {
  let folder = path.resolve(import.meta.dirname, '..');
  for (;;) {
    const candidate = path.join(folder, 'shared', 'bench');
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

const SOME_DAY = '2023-05-08T12:00:00.000Z';

/** Every turn of a file in LoCoMo's layout, as `engram bench locomo` indexes them. */
export async function locomoTurns(file: string): Promise<DatasetTurn[]> {
  return (await loadLocomo(file)).flatMap((conversation) =>
    conversation.turns.map((turn) => ({
      where: `${path.basename(file)} ${conversation.sampleId} ${turn.diaId}`,
      text: turn.text,
      speaker: turn.speaker,
      occurredAt: turn.date ?? SOME_DAY,
    })),
  );
}

interface LongMemEvalRecord {
  question_id: string;
  haystack_dates: string[];
  haystack_sessions: { role: string; content: string }[][];
}

/** Every turn of a LongMemEval file, the user's and the assistant's, dated by its session. */
export async function longMemEvalTurns(file: string): Promise<DatasetTurn[]> {
  const records = (await readJsonFile(file, 'LongMemEval')) as LongMemEvalRecord[];
  return records.flatMap((record) =>
    record.haystack_sessions.flatMap((session, s) =>
      session.map((turn, t) => ({
        where: `${path.basename(file)} ${record.question_id} session ${s} turn ${t}`,
        text: turn.content,
        occurredAt: parseLongMemEvalDate(record.haystack_dates[s] ?? '') ?? SOME_DAY,
      })),
    ),
  );
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const isKeptDay = (day: string): boolean => {
  const match = DAY.exec(day);
  return match !== null && day >= '0001-01-01' && new Date(`${day}T00:00:00Z`).getUTCDate() === Number(match[3]);
};

/** What went wrong extracting these turns: each exception, and each date outside the kept days. */
export function extractionFaults(turns: readonly DatasetTurn[]): string[] {
  const faults: string[] = [];
  for (const turn of turns) {
    try {
      for (const date of extractGraph(turn).dates) {
        if (!isKeptDay(date.start) || !isKeptDay(date.end) || date.start > date.end) {
          faults.push(`${turn.where}: kept ${date.start}..${date.end} for "${date.text}"`);
        }
      }
    } catch (error) {
      faults.push(`${turn.where}: ${(error as Error).message}`);
    }
  }
  return faults;
}

/** One half of the LongMemEval-S slice's turns (0: the first, 1: the rest), or undefined without the data. */
export async function longMemEvalHalf(half: 0 | 1): Promise<DatasetTurn[] | undefined> {
  const bench = findBenchFolder();
  if (bench === undefined) return undefined;
  const turns = await longMemEvalTurns(path.join(bench, 'longmemeval', 'longmemeval-s-dev.json'));
  const middle = Math.ceil(turns.length / 2);
  return half === 0 ? turns.slice(0, middle) : turns.slice(middle);
}
