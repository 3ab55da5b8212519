/**
 * Reading a LoCoMo file (Maharana et al., 2024): validates its shape, turns each conversation
 * into indexable turns, parses session dates and repairs the questions' evidence ids.
 * The shape: a list of `{sample_id, conversation, qa}`, where `conversation` holds
 * `session_N` turn lists and `session_N_date_time` strings.
 */

import { InvalidInputError } from 'engram';
import { z } from 'zod';

import { readJsonFile } from './read-json-file.js';

/** LoCoMo's question categories by number. */
export const LOCOMO_CATEGORIES: Readonly<Record<number, string>> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

/** One dialogue turn, ready to index. */
export interface LocomoTurn {
  /** `D<session>:<turn>`, as the evidence ids name it. */
  diaId: string;
  session: number;
  speaker: string;
  /** The indexed text: `Speaker said, "text"`, plus ` [shares caption]` for an image. */
  text: string;
  /** The session's date as ISO-8601, when it parses. */
  date: string | undefined;
}

/** A question with at least one evidence id that names a turn. */
export interface LocomoQuestion {
  question: string;
  category: string;
  evidence: string[];
}

export interface LocomoConversation {
  sampleId: string;
  turns: LocomoTurn[];
  questions: LocomoQuestion[];
  /** Questions left out: no evidence id resolves to a turn, or the question is empty. */
  skipped: { noEvidence: number; emptyQuestion: number };
  /** Evidence entries that needed repair (split, reformatted) and ids that name no turn. */
  evidence: { repaired: string[]; unresolved: string[] };
}

const TurnSchema = z.looseObject({
  speaker: z.string(),
  dia_id: z.string(),
  text: z.string(),
  blip_caption: z.string().nullish(),
});

const QuestionSchema = z.looseObject({
  question: z.string(),
  evidence: z.array(z.string()).default([]),
  category: z.number().int(),
});

const FileSchema = z
  .array(
    z.looseObject({
      sample_id: z.union([z.string(), z.number()], { error: 'expected a string id' }).optional(),
      conversation: z.record(z.string(), z.unknown()),
      qa: z.array(QuestionSchema),
    }),
  )
  .min(1, 'the list of conversations is empty');

const SESSION_KEY = /^session_(\d+)$/;

/** Reads and validates a LoCoMo file; throws InvalidInputError naming the file and the problem. */
export async function loadLocomo(file: string): Promise<LocomoConversation[]> {
  const samples = parseShape(file, await readJsonFile(file, 'LoCoMo'));
  return samples.map((sample, index) => {
    const turns = sessionTurns(file, index, sample.conversation);
    const known = new Set(turns.map((turn) => turn.diaId));
    const conversation: LocomoConversation = {
      sampleId: String(sample.sample_id ?? `conversation-${index + 1}`),
      turns,
      questions: [],
      skipped: { noEvidence: 0, emptyQuestion: 0 },
      evidence: { repaired: [], unresolved: [] },
    };
    for (const qa of sample.qa) {
      const { ids, repaired, unresolved } = normalizeEvidence(qa.evidence, known);
      conversation.evidence.repaired.push(...repaired);
      conversation.evidence.unresolved.push(...unresolved);
      if (qa.question.trim().length === 0) conversation.skipped.emptyQuestion += 1;
      else if (ids.length === 0) conversation.skipped.noEvidence += 1;
      else conversation.questions.push({ question: qa.question, category: categoryName(qa.category), evidence: ids });
    }
    return conversation;
  });
}

/** The name of a category number (`category-N` for numbers LoCoMo does not define). */
export function categoryName(category: number): string {
  return LOCOMO_CATEGORIES[category] ?? `category-${category}`;
}

/**
 * Repairs a question's evidence list: entries are split on `;`, `,` and whitespace
 * (`"D8:6; D9:17"`), each id is reformatted (`D:11:26` → `D11:26`, `D30:05` → `D30:5`), and ids
 * that name no turn in `known` are dropped. Pure.
 * @returns the resolved ids (no repeats, in order), the entries that needed repair to resolve,
 * and the pieces that resolved to no turn
 */
export function normalizeEvidence(
  evidence: readonly string[],
  known: ReadonlySet<string>,
): { ids: string[]; repaired: string[]; unresolved: string[] } {
  const ids = new Set<string>();
  const repaired: string[] = [];
  const unresolved: string[] = [];
  for (const entry of evidence) {
    if (known.has(entry)) {
      ids.add(entry);
      continue;
    }
    let resolved = false;
    for (const piece of entry.split(/[;,\s]+/).filter((part) => part.length > 0)) {
      const id = parseDiaId(piece);
      if (id !== null && known.has(id)) {
        ids.add(id);
        resolved = true;
      } else {
        unresolved.push(piece);
      }
    }
    if (resolved) repaired.push(entry);
  }
  return { ids: [...ids], repaired, unresolved };
}

/** `D<session>:<turn>` in canonical form (no stray colon, no leading zeros), or null. */
export function parseDiaId(piece: string): string | null {
  const match = /^D:?(\d+):(\d+)$/i.exec(piece.trim());
  if (!match) return null;
  return `D${Number(match[1])}:${Number(match[2])}`;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/**
 * A LoCoMo session date such as `1:56 pm on 8 May, 2023` as ISO-8601 (read as UTC, since the
 * data names no time zone), or undefined when it does not parse.
 */
export function parseLocomoDate(text: string): string | undefined {
  const match = /^(?:(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+)?(\d{1,2})\s+([a-z]+),?\s+(\d{4})$/i.exec(text.trim());
  if (!match) return undefined;
  const [, hour12, minute, half, day, monthName, year] = match;
  const month = MONTHS.findIndex(
    (name) => name.startsWith((monthName as string).toLowerCase()) && (monthName as string).length >= 3,
  );
  if (month < 0) return undefined;
  const hour = hour12 === undefined ? 0 : (Number(hour12) % 12) + ((half as string).toLowerCase() === 'p' ? 12 : 0);
  if (Number(hour12 ?? 0) > 12 || Number(minute ?? 0) > 59) return undefined;
  const date = new Date(Date.UTC(Number(year), month, Number(day), hour, Number(minute ?? 0)));
  return date.getUTCDate() === Number(day) ? date.toISOString() : undefined;
}

function sessionTurns(file: string, index: number, conversation: Record<string, unknown>): LocomoTurn[] {
  const sessions = Object.keys(conversation)
    .map((key) => ({ key, number: Number(SESSION_KEY.exec(key)?.[1] ?? Number.NaN) }))
    .filter((session) => !Number.isNaN(session.number))
    .sort((a, b) => a.number - b.number);
  if (sessions.length === 0) {
    throw new InvalidInputError(`${file} is not a LoCoMo file: [${index}].conversation has no session_N turn lists`);
  }
  return sessions.flatMap(({ key, number }) => {
    const parsed = z.array(TurnSchema).safeParse(conversation[key]);
    if (!parsed.success) throw shapeError(file, parsed.error, [index, 'conversation', key]);
    const dateText = conversation[`${key}_date_time`];
    const date = typeof dateText === 'string' ? parseLocomoDate(dateText) : undefined;
    return parsed.data.map((turn) => ({
      diaId: turn.dia_id,
      session: number,
      speaker: turn.speaker,
      text: `${turn.speaker} said, "${turn.text}"${turn.blip_caption ? ` [shares ${turn.blip_caption}]` : ''}`,
      date,
    }));
  });
}

function parseShape(file: string, value: unknown): z.output<typeof FileSchema> {
  const parsed = FileSchema.safeParse(value);
  if (!parsed.success) throw shapeError(file, parsed.error, []);
  return parsed.data;
}

/** One line naming the file and the first problems, with paths like `[0].qa[3].category`. */
function shapeError(file: string, error: z.ZodError, prefix: readonly PropertyKey[]): InvalidInputError {
  const problems = error.issues.slice(0, 3).map((issue) => {
    const where = formatPath([...prefix, ...issue.path]);
    return where ? `${where}: ${issue.message}` : issue.message;
  });
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : '';
  return new InvalidInputError(
    `${file} is not a LoCoMo file (a list of {sample_id, conversation, qa}): ${problems.join('; ')}${more}`,
  );
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`)).join('');
}
