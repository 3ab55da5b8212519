/**
 * `bench longmemeval`: LongMemEval's retrieval protocol. Per question, a fresh in-memory engine
 * holds that question's haystack, one memory per USER turn (assistant turns are not indexed);
 * abstention questions (`_abs`) are skipped.
 *
 * What is ranked: the engine ranks turns (the whole haystack, up to the search limit); each turn
 * maps to its haystack session, and the ranked list of DISTINCT sessions, in order of each
 * session's first (best-ranked) turn, is scored against the answer sessions: recall_any@k (any
 * answer session in the top k sessions), recall_all@k (all of them) and ndcg_any@k (binary
 * relevance), for k = 5 and 10. This matches the official `evaluate_retrieval_turn2session`
 * for recall, which widens the turn cut-off until it covers k sessions. Its nDCG is computed
 * over turns with a DCG that weighs ranks 1 and 2 equally; ours is over sessions with the usual
 * 1 / log2(rank + 1), so nDCG is not directly comparable with the paper's.
 */
import { type Embedder, type Engram, InvalidInputError } from 'engram';
import { MAX_SEARCH_LIMIT, type SearchMode } from 'engram/model';

import type { BenchOptions, BenchResult } from './bench-types.js';
import {
  type CalibrationCounts,
  calibrationShares,
  countPair,
  countUnrelated,
  emptyCalibration,
  formatShares,
} from './calibration-shares.js';
import { openBenchEmbedder, openBenchEngine } from './embedding-cache.js';
import { loadLongMemEval, type LongMemEvalQuestion } from './longmemeval-data.js';
import { machineInfo } from './machine.js';
import { allAtK, averageScores, distinct, hitAtK, ndcgAtK, summarizeMethods } from './metrics.js';
import { textTable } from './stats.js';

/**
 * The search methods compared, in table order, and the search options each stands for: hybrid
 * by words and meaning alone, and `graph`, the default search (hybrid with graph-aware recall).
 */
const METHODS = ['bm25', 'dense', 'keyword', 'hybrid', 'graph'] as const;
type Method = (typeof METHODS)[number];
const METHOD_OPTIONS: Record<Method, { mode: SearchMode; graph?: boolean }> = {
  bm25: { mode: 'bm25' },
  dense: { mode: 'dense' },
  keyword: { mode: 'keyword' },
  hybrid: { mode: 'hybrid', graph: false },
  graph: { mode: 'hybrid', graph: true },
};
const CUTOFFS = [5, 10] as const;

type Scored = { group: string; scores: Record<string, number> };

export async function runLongMemEvalBenchmark(options: BenchOptions): Promise<BenchResult> {
  if (!options.data) {
    throw new InvalidInputError('bench longmemeval needs --data FILE: a LongMemEval JSON file such as longmemeval_s.json');
  }
  const file = options.data;
  const all = await loadLongMemEval(file);
  const questions = all.filter((q) => !q.abstention && q.answerSessionIds.length > 0);
  const started = performance.now();
  const rows = emptyPerMethod<Scored>();
  const latencies = emptyPerMethod<number>();
  const calibration = emptyCalibration();
  const { embedder, close } = openBenchEmbedder();
  try {
    for (const [index, question] of questions.entries()) {
      const at = performance.now();
      // The next question is about another user's haystack: unrelated to this one.
      const stranger = questions[(index + 1) % questions.length] as LongMemEvalQuestion;
      await scoreQuestion({ embedder, question, stranger, withContext: options.context ?? true, rows, latencies, calibration });
      options.log(
        `longmemeval: ${question.questionId} (${index + 1}/${questions.length}): ` +
          `${countUserTurns(question)} user turns in ${question.sessions.length} sessions, ${((performance.now() - at) / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    await close();
  }
  const result = summarize(file, all, questions, rows, latencies, calibration, (performance.now() - started) / 1000);
  const context = (options.context ?? true) ? 'previous user turn of the same session' : 'none';
  return { table: `${formatTable(result)}\nturns indexed with context: ${context}`, json: { ...result, context } };
}

/**
 * Runs `question` with every method on a fresh engine holding its haystack, and counts the
 * default search's relevance of the turns marked as holding the answer, and of every turn
 * against the `stranger`'s question (unrelated unless the two haystacks share a session).
 */
async function scoreQuestion(parts: {
  embedder: Embedder;
  question: LongMemEvalQuestion;
  stranger: LongMemEvalQuestion;
  withContext: boolean;
  rows: Record<Method, Scored[]>;
  latencies: Record<Method, number[]>;
  calibration: CalibrationCounts;
}): Promise<void> {
  const { embedder, question, stranger, rows, latencies, calibration } = parts;
  const engram = await openBenchEngine({ embedder, now: question.questionDate });
  try {
    const haystack = await indexHaystack(engram, question, parts.withContext);
    // The query vectors go into the cache first, so the timed searches measure retrieval, not the model.
    await embedder.embed([question.question, stranger.question]);
    const answers = new Set(question.answerSessionIds);
    for (const method of METHODS) {
      const started = performance.now();
      const sessions = await haystack.rank(question.question, method);
      latencies[method].push(performance.now() - started);
      rows[method].push({ group: question.questionType, scores: scoreSessions(sessions, answers) });
    }
    const relevance = await haystack.relevance(question.question);
    for (const key of haystack.answerTurns) countPair(calibration.evidence, relevance.get(key) ?? 0);
    if (!question.sessions.some((session) => stranger.answerSessionIds.includes(session.id))) {
      const unrelated = await haystack.relevance(stranger.question);
      countUnrelated(calibration.unrelated, unrelated.values(), haystack.turns);
    }
  } finally {
    await engram.close();
  }
}

/** A haystack held by an engine: its turns ranked for a query, and relevances read by turn. */
interface Haystack {
  /** The distinct sessions of the ranked turns, best first. */
  rank(query: string, method: Method): Promise<string[]>;
  /** The default search's relevance of every turn it returns, by `session:turn`. */
  relevance(query: string): Promise<Map<string, number>>;
  /** The `session:turn` keys of the turns marked as holding the answer. */
  answerTurns: string[];
  turns: number;
}

/** Stores the haystack's user turns, one memory each. */
async function indexHaystack(engram: Engram, question: LongMemEvalQuestion, withContext: boolean): Promise<Haystack> {
  const turns = question.sessions.flatMap((session) => session.userTurns.map((text, turn) => ({ text, session, turn })));
  const memories = await engram.rememberMany(
    turns.map(({ text, session, turn }) => ({
      text,
      // Only user turns are indexed (the official protocol), so the context is the user's previous turn.
      context: withContext && turn > 0 ? (session.userTurns[turn - 1] ?? null) : null,
      kind: 'episode' as const,
      sessionId: session.id,
      ...(session.date ? { occurredAt: session.date } : {}),
      data: { sessionId: session.id, turn },
    })),
  );
  const sessionOf = new Map(memories.map((memory, i) => [memory.id, turns[i]?.session.id ?? '']));
  const keyOf = new Map(memories.map((memory, i) => [memory.id, `${turns[i]?.session.id}:${turns[i]?.turn}`]));
  // Rank the whole haystack (up to the engine's limit), so k distinct sessions are always reachable.
  const limit = Math.max(1, Math.min(MAX_SEARCH_LIMIT, memories.length));
  return {
    rank: async (query, method) => {
      const hits = await engram.search({ query, limit, ...METHOD_OPTIONS[method], recordRetrieval: false });
      return distinct(hits.map((hit) => sessionOf.get(hit.memory.id) ?? ''));
    },
    relevance: async (query) => {
      const hits = await engram.search({ query, limit: MAX_SEARCH_LIMIT, recordRetrieval: false });
      return new Map(hits.map((hit) => [keyOf.get(hit.memory.id) ?? '', hit.relevance]));
    },
    answerTurns: question.sessions.flatMap((session) => session.answerTurns.map((turn) => `${session.id}:${turn}`)),
    turns: turns.length,
  };
}

function scoreSessions(sessions: readonly string[], answers: ReadonlySet<string>): Record<string, number> {
  const scores: Record<string, number> = {};
  for (const k of CUTOFFS) {
    scores[`recall_any@${k}`] = hitAtK(sessions, answers, k);
    scores[`recall_all@${k}`] = allAtK(sessions, answers, k);
    scores[`ndcg_any@${k}`] = ndcgAtK(sessions, answers, k);
  }
  return scores;
}

type MethodResult = {
  overall: Record<string, number>;
  byType: Record<string, Record<string, number>>;
  latencyMs: { mean: number; p50: number; p95: number };
};

function summarize(
  file: string,
  all: readonly LongMemEvalQuestion[],
  scoredQuestions: readonly LongMemEvalQuestion[],
  rows: Record<Method, Scored[]>,
  latencies: Record<Method, number[]>,
  calibration: CalibrationCounts,
  seconds: number,
) {
  const summaries = summarizeMethods(METHODS, rows, latencies);
  const methods = {} as Record<Method, MethodResult>;
  for (const method of METHODS) {
    const { overall, byGroup, latencyMs } = summaries[method];
    methods[method] = { overall, byType: byGroup, latencyMs };
  }
  const counts = averageScores(rows.bm25).counts;
  const skippedBecause = {
    abstention: all.filter((q) => q.abstention).length,
    noAnswerSessions: all.filter((q) => !q.abstention && q.answerSessionIds.length === 0).length,
  };
  return {
    benchmark: 'longmemeval' as const,
    data: file,
    machine: machineInfo(),
    questions: {
      scored: counts.overall,
      skipped: skippedBecause.abstention + skippedBecause.noAnswerSessions,
      skippedBecause,
      byType: counts.byGroup,
    },
    haystacks: describeHaystacks(scoredQuestions),
    methods,
    calibration: calibrationShares(calibration),
    seconds,
  };
}

function formatTable(result: ReturnType<typeof summarize>): string {
  const { questions, haystacks, machine, methods } = result;
  const metricNames = CUTOFFS.flatMap((k) => [`recall_any@${k}`, `recall_all@${k}`, `ndcg_any@${k}`]);
  const types = Object.keys(questions.byType).sort();
  return [
    `longmemeval: ${result.data}: ${questions.scored} questions scored, ${questions.skipped} skipped ` +
      `(${questions.skippedBecause.abstention} abstention, ${questions.skippedBecause.noAnswerSessions} without answer sessions); ` +
      `${haystacks.userTurnsIndexed} user turns in ${haystacks.sessions} sessions indexed`,
    `ranked: the haystack's user turns → distinct sessions by first appearance; ` +
      `${machine.cores} cores (${machine.cpu}), node ${machine.node}, ${result.seconds.toFixed(0)} s`,
    textTable(
      ['method', ...metricNames, 'search p50 ms', 'p95 ms'],
      METHODS.map((method) => [
        method,
        ...metricNames.map((name) => formatScore(methods[method].overall[name])),
        formatMs(methods[method].latencyMs.p50),
        formatMs(methods[method].latencyMs.p95),
      ]),
    ),
    '',
    'recall_any@5 / recall_all@5 by question type (questions):',
    textTable(
      ['method', ...types.map((type) => `${type} (${questions.byType[type]})`)],
      METHODS.map((method) => [
        method,
        ...types.map((type) => {
          const scores = methods[method].byType[type];
          return `${formatScore(scores?.['recall_any@5'])} / ${formatScore(scores?.['recall_all@5'])}`;
        }),
      ]),
    ),
    '',
    `default search (graph-aware hybrid) relevance vs the seeds' thresholds: answer turns ${formatShares(result.calibration.evidence)}; ` +
      `unrelated pairs (another question's query against this haystack) ${formatShares(result.calibration.unrelated)}`,
    'search latency excludes query embedding: query vectors are computed (or read from the cache) before timing',
  ].join('\n');
}

function formatScore(value: number | undefined): string {
  return value === undefined ? '-' : value.toFixed(3);
}

function formatMs(value: number): string {
  return Number.isNaN(value) ? '-' : value.toFixed(1);
}

/** Counts that explain the scores: answer sessions the protocol cannot find, and skipped turns. */
function describeHaystacks(questions: readonly LongMemEvalQuestion[]) {
  let answerSessionsMissing = 0;
  let answerSessionsWithoutUserTurns = 0;
  for (const question of questions) {
    const byId = new Map(question.sessions.map((session) => [session.id, session]));
    for (const id of question.answerSessionIds) {
      const session = byId.get(id);
      if (!session) answerSessionsMissing += 1;
      else if (session.userTurns.length === 0) answerSessionsWithoutUserTurns += 1;
    }
  }
  return {
    sessions: sum(questions.map((q) => q.sessions.length)),
    userTurnsIndexed: sum(questions.map(countUserTurns)),
    emptyUserTurnsSkipped: sum(questions.map((q) => q.turns.empty)),
    userTurnsTruncated: sum(questions.map((q) => q.turns.truncated)),
    answerSessionsMissing,
    answerSessionsWithoutUserTurns,
  };
}

function countUserTurns(question: LongMemEvalQuestion): number {
  return sum(question.sessions.map((session) => session.userTurns.length));
}

function emptyPerMethod<T>(): Record<Method, T[]> {
  return { bm25: [], dense: [], keyword: [], hybrid: [], graph: [] };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
