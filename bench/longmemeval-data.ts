/**
 * Reading a LongMemEval file (Wu et al., 2025): validates its shape and keeps what the retrieval
 * protocol needs: per question its haystack sessions (id, date, user turns) and answer sessions.
 */

import { InvalidInputError } from 'engram';
import { MAX_TEXT_CHARS } from 'engram/model';
import { z } from 'zod';

import { readJsonFile } from './read-json-file.js';

/** One haystack session: its id, date and the user's turns (assistant turns are not indexed). */
export interface LongMemEvalSession {
  id: string;
  /** ISO-8601, when the haystack date parses. */
  date: string | undefined;
  userTurns: string[];
  /** Positions in `userTurns` of the turns the file marks as holding the answer (`has_answer`). */
  answerTurns: number[];
}

export interface LongMemEvalQuestion {
  questionId: string;
  questionType: string;
  question: string;
  /** When the question is asked (ISO-8601), when `question_date` is given and parses. */
  questionDate: string | undefined;
  sessions: LongMemEvalSession[];
  answerSessionIds: string[];
  /** Abstention questions (id ending `_abs`) have no answer in the haystack. */
  abstention: boolean;
  /** User turns left out because they were empty, and turns cut to the longest memory text. */
  turns: { empty: number; truncated: number };
}

const Id = z.union([z.string(), z.number()], { error: 'expected a string id' }).transform(String);

const QuestionSchema = z
  .looseObject({
    question_id: Id,
    question_type: z.string(),
    question: z.string(),
    question_date: z.string().optional(),
    haystack_session_ids: z.array(Id),
    haystack_dates: z.array(z.string()),
    haystack_sessions: z.array(
      z.array(z.looseObject({ role: z.string(), content: z.string(), has_answer: z.boolean().optional() })),
    ),
    answer_session_ids: z.array(Id),
  })
  .refine(
    (q) => q.haystack_session_ids.length === q.haystack_sessions.length && q.haystack_dates.length === q.haystack_sessions.length,
    { message: 'haystack_session_ids, haystack_dates and haystack_sessions differ in length' },
  );

const FileSchema = z.array(QuestionSchema).min(1, 'the list of questions is empty');

/** Reads and validates a LongMemEval file; throws InvalidInputError naming the file and the problem. */
export async function loadLongMemEval(file: string): Promise<LongMemEvalQuestion[]> {
  const parsed = FileSchema.safeParse(await readJsonFile(file, 'LongMemEval'));
  if (!parsed.success) throw shapeError(file, parsed.error);
  return parsed.data.map((q) => {
    const turns = { empty: 0, truncated: 0 };
    const sessions = q.haystack_sessions.map((session, i) => {
      const userTurns: string[] = [];
      const answerTurns: number[] = [];
      for (const turn of session) {
        if (turn.role !== 'user') continue;
        const text = turn.content.trim();
        if (text.length === 0) {
          turns.empty += 1;
          continue;
        }
        if (text.length > MAX_TEXT_CHARS) turns.truncated += 1;
        if (turn.has_answer === true) answerTurns.push(userTurns.length);
        userTurns.push(text.slice(0, MAX_TEXT_CHARS));
      }
      return {
        id: q.haystack_session_ids[i] as string,
        date: parseLongMemEvalDate(q.haystack_dates[i] as string),
        userTurns,
        answerTurns,
      };
    });
    return {
      questionId: q.question_id,
      questionType: q.question_type,
      question: q.question,
      questionDate: q.question_date === undefined ? undefined : parseLongMemEvalDate(q.question_date),
      sessions,
      answerSessionIds: q.answer_session_ids,
      abstention: q.question_id.endsWith('_abs'),
      turns,
    };
  });
}

/** A haystack date such as `2023/05/17 (Wed) 23:40` as ISO-8601 (read as UTC), or undefined. */
export function parseLongMemEvalDate(text: string): string | undefined {
  const match = /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:\s*\([a-z]+\))?(?:\s+(\d{1,2}):(\d{2}))?$/i.exec(text.trim());
  if (!match) return undefined;
  const [year, month, day, hour, minute] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (hour > 23 || minute > 59) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date.toISOString() : undefined;
}

/** One line naming the file and the first problems, with paths like `[0].haystack_sessions[3]`. */
function shapeError(file: string, error: z.ZodError): InvalidInputError {
  const problems = error.issues.slice(0, 3).map((issue) => {
    const where = issue.path
      .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
      .join('');
    return where ? `${where}: ${issue.message}` : issue.message;
  });
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : '';
  return new InvalidInputError(
    `${file} is not a LongMemEval file (a list of {question_id, question, haystack_sessions, answer_session_ids, ...}): ` +
      `${problems.join('; ')}${more}`,
  );
}
