/**
 * `bench locomo`: evidence retrieval on LoCoMo. Per conversation, a fresh in-memory engine holds
 * every turn as one memory; each question is a query run with every search method, and the
 * ranked turns are scored against the question's evidence ids (recall@k, hit@k).
 */
import { type Embedder, type Engram, InvalidInputError } from 'engram';
import { type Fusion, MAX_SEARCH_LIMIT, type SearchMode } from 'engram/model';

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
import { loadLocomo, LOCOMO_CATEGORIES, type LocomoConversation } from './locomo-data.js';
import { machineInfo } from './machine.js';
import { averageScores, hitAtK, recallAtK, summarizeMethods } from './metrics.js';
import { namesSpeaker } from './names-speaker.js';
import { openRanksFile, type RanksFile } from './ranks-file.js';
import { textTable } from './stats.js';

/**
 * The search methods compared, in table order, and the search options each stands for: the
 * hybrid methods by words and meaning alone, and `graph`, the default search (weighted hybrid
 * with graph-aware recall).
 */
const METHODS = ['bm25', 'dense', 'keyword', 'hybrid', 'hybrid-rrf', 'graph'] as const;
type Method = (typeof METHODS)[number];
const METHOD_OPTIONS: Record<Method, { mode: SearchMode; fusion?: Fusion; graph?: boolean }> = {
  bm25: { mode: 'bm25' },
  dense: { mode: 'dense' },
  keyword: { mode: 'keyword' },
  hybrid: { mode: 'hybrid', fusion: 'weighted', graph: false },
  'hybrid-rrf': { mode: 'hybrid', fusion: 'rrf', graph: false },
  graph: { mode: 'hybrid', fusion: 'weighted', graph: true },
};
/** Turns retrieved per question; the largest cut-off. */
const LIMIT = 25;
const CUTOFFS = [1, 5, 10, 25] as const;

/**
 * The unrelated pairs again, split by whether the question names a speaker of the index
 * (names-speaker.ts): conversations that share a participant make some "unrelated" pairs related.
 */
type UnrelatedByNaming = { namingSpeaker: CalibrationCounts; namingNone: CalibrationCounts };

/** One question's scores, grouped by category, with the conversation it belongs to. */
type Scored = { group: string; conversation: string; scores: Record<string, number> };

export async function runLocomoBenchmark(options: BenchOptions): Promise<BenchResult> {
  if (!options.data) {
    throw new InvalidInputError('bench locomo needs --data FILE: a LoCoMo JSON file such as locomo10.json');
  }
  const file = options.data;
  const withContext = options.context ?? true;
  const conversations = await loadLocomo(file);
  const started = performance.now();
  const rows = emptyPerMethod<Scored>();
  const latencies = emptyPerMethod<number>();
  const calibration = emptyCalibration();
  // The same counts per conversation (its questions' evidence, and its index against the next
  // conversation's questions), so a tuning split can be told from the rest.
  const calibrationByConversation: Record<string, CalibrationCounts> = {};
  const unrelatedByNaming: UnrelatedByNaming = { namingSpeaker: emptyCalibration(), namingNone: emptyCalibration() };
  const { embedder, close } = openBenchEmbedder();
  const ranks = openRanksFile();
  try {
    for (const [index, conversation] of conversations.entries()) {
      const at = performance.now();
      // The next conversation's questions are about other people: unrelated to this index.
      const strangers = conversations[(index + 1) % conversations.length] as LocomoConversation;
      const own = emptyCalibration();
      calibrationByConversation[conversation.sampleId] = own;
      await scoreConversation({
        embedder,
        conversation,
        strangers,
        withContext,
        rows,
        latencies,
        calibration: [calibration, own],
        unrelatedByNaming,
        ranks,
      });
      options.log(
        `locomo: ${conversation.sampleId} (${index + 1}/${conversations.length}): ${conversation.turns.length} turns, ` +
          `${conversation.questions.length} questions, ${((performance.now() - at) / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    ranks?.close();
    await close();
  }
  const seconds = (performance.now() - started) / 1000;
  const result = summarize({
    file,
    conversations,
    rows,
    latencies,
    calibration,
    calibrationByConversation,
    unrelatedByNaming,
    withContext,
    seconds,
  });
  return { table: formatTable(result), json: result };
}

/** Runs every question of `conversation` with every method on a fresh engine holding its turns. */
async function scoreConversation(parts: {
  embedder: Embedder;
  conversation: LocomoConversation;
  strangers: LocomoConversation;
  withContext: boolean;
  rows: Record<Method, Scored[]>;
  latencies: Record<Method, number[]>;
  /** Every set of counts the pairs are added to (the whole run's, the conversation's). */
  calibration: readonly CalibrationCounts[];
  unrelatedByNaming: UnrelatedByNaming;
  /** Where every question's ranked turns are written, when asked for. */
  ranks: RanksFile | undefined;
}): Promise<void> {
  const { embedder, conversation, rows, latencies, calibration } = parts;
  const engram = await openBenchEngine({ embedder, now: lastSessionDate(conversation) });
  try {
    const index = await indexConversation(engram, conversation, parts.withContext);
    // Query vectors go into the cache first, so the timed searches measure retrieval, not the model.
    await embedder.embed([...conversation.questions, ...parts.strangers.questions].map((question) => question.question));
    for (const question of conversation.questions) {
      const evidence = new Set(question.evidence);
      for (const method of METHODS) {
        const started = performance.now();
        const ranked = await index.rank(question.question, method);
        latencies[method].push(performance.now() - started);
        parts.ranks?.write({ conversation: conversation.sampleId, question: question.question, method, ranked });
        rows[method].push({
          group: question.category,
          conversation: conversation.sampleId,
          scores: scoreRanking(ranked, evidence),
        });
      }
      // Relevance of every evidence turn (a turn that is no candidate at all counts as below).
      const relevance = await index.relevance(question.question);
      for (const counts of calibration) for (const id of evidence) countPair(counts.evidence, relevance.get(id) ?? 0);
    }
    const speakers = new Set(conversation.turns.map((turn) => turn.speaker));
    for (const question of parts.strangers.questions) {
      const relevance = await index.relevance(question.question);
      const { namingSpeaker, namingNone } = parts.unrelatedByNaming;
      const split = namesSpeaker(question.question, speakers) ? namingSpeaker : namingNone;
      for (const counts of [...calibration, split]) {
        countUnrelated(counts.unrelated, relevance.values(), conversation.turns.length);
      }
    }
  } finally {
    await engram.close();
  }
}

/** Questions are asked after the last session: the latest session date, when any parses. */
function lastSessionDate(conversation: LocomoConversation): string | undefined {
  const dates = conversation.turns.flatMap((turn) => (turn.date ? [turn.date] : [])).sort();
  return dates.at(-1);
}

/**
 * Stores every turn as one memory — with the turn before it in the same session as context,
 * unless `withContext` is off — and returns ways to rank dialogue ids and read relevances.
 */
async function indexConversation(
  engram: Engram,
  conversation: LocomoConversation,
  withContext: boolean,
): Promise<{
  rank: (query: string, method: Method) => Promise<string[]>;
  relevance: (query: string) => Promise<Map<string, number>>;
}> {
  const turns = conversation.turns;
  const memories = await engram.rememberMany(
    turns.map((turn, i) => {
      const previous = turns[i - 1];
      const context = withContext && previous?.session === turn.session ? previous.text : null;
      return {
        text: turn.text,
        context,
        kind: 'episode' as const,
        sessionId: `session_${turn.session}`,
        ...(turn.date ? { occurredAt: turn.date } : {}),
        data: { diaId: turn.diaId },
      };
    }),
  );
  const diaIdOf = new Map(memories.map((memory, i) => [memory.id, turns[i]?.diaId ?? '']));
  return {
    rank: async (query, method) => {
      const hits = await engram.search({ query, limit: LIMIT, ...METHOD_OPTIONS[method], recordRetrieval: false });
      return hits.map((hit) => diaIdOf.get(hit.memory.id) ?? '');
    },
    relevance: async (query) => {
      const hits = await engram.search({ query, limit: MAX_SEARCH_LIMIT, recordRetrieval: false });
      return new Map(hits.map((hit) => [diaIdOf.get(hit.memory.id) ?? '', hit.relevance]));
    },
  };
}

function scoreRanking(ranked: readonly string[], evidence: ReadonlySet<string>): Record<string, number> {
  const scores: Record<string, number> = {};
  for (const k of CUTOFFS) scores[`recall@${k}`] = recallAtK(ranked, evidence, k);
  for (const k of CUTOFFS) scores[`hit@${k}`] = hitAtK(ranked, evidence, k);
  return scores;
}

type MethodResult = {
  overall: Record<string, number>;
  byCategory: Record<string, Record<string, number>>;
  /** Per conversation (by sample id), so a tuning split can be told from the rest. */
  byConversation: Record<string, Record<string, number>>;
  latencyMs: { mean: number; p50: number; p95: number };
};

function summarize(parts: {
  file: string;
  conversations: readonly LocomoConversation[];
  rows: Record<Method, Scored[]>;
  latencies: Record<Method, number[]>;
  calibration: CalibrationCounts;
  calibrationByConversation: Record<string, CalibrationCounts>;
  unrelatedByNaming: UnrelatedByNaming;
  withContext: boolean;
  seconds: number;
}) {
  const { file, conversations, rows, latencies, calibration, withContext, seconds } = parts;
  const summaries = summarizeMethods(METHODS, rows, latencies);
  const methods = {} as Record<Method, MethodResult>;
  for (const method of METHODS) {
    const { overall, byGroup, latencyMs } = summaries[method];
    const byConversation = averageScores(rows[method].map((row) => ({ group: row.conversation, scores: row.scores }))).byGroup;
    methods[method] = { overall, byCategory: byGroup, byConversation, latencyMs };
  }
  const counts = averageScores(rows.bm25).counts;
  const skippedBecause = {
    noEvidence: sum(conversations.map((c) => c.skipped.noEvidence)),
    emptyQuestion: sum(conversations.map((c) => c.skipped.emptyQuestion)),
  };
  return {
    benchmark: 'locomo' as const,
    data: file,
    machine: machineInfo(),
    limit: LIMIT,
    conversations: conversations.length,
    turnsIndexed: sum(conversations.map((c) => c.turns.length)),
    byConversation: conversations.map((c) => ({ sampleId: c.sampleId, questions: c.questions.length })),
    questions: {
      scored: counts.overall,
      skipped: skippedBecause.noEvidence + skippedBecause.emptyQuestion,
      skippedBecause,
      byCategory: counts.byGroup,
    },
    evidence: {
      repaired: conversations.flatMap((c) => c.evidence.repaired.map((entry) => `${c.sampleId} ${entry}`)),
      unresolved: conversations.flatMap((c) => c.evidence.unresolved.map((piece) => `${c.sampleId} ${piece}`)),
    },
    context: withContext ? 'previous turn of the same session' : 'none',
    methods,
    calibration: calibrationShares(calibration),
    /** The unrelated pairs whose question names a speaker of the index, and the rest. */
    unrelatedByNaming: {
      namingSpeaker: calibrationShares(parts.unrelatedByNaming.namingSpeaker).unrelated,
      namingNone: calibrationShares(parts.unrelatedByNaming.namingNone).unrelated,
    },
    calibrationByConversation: Object.fromEntries(
      Object.entries(parts.calibrationByConversation).map(([sampleId, counts]) => [sampleId, calibrationShares(counts)]),
    ),
    seconds,
  };
}

function formatTable(result: ReturnType<typeof summarize>): string {
  const { questions, evidence, machine, methods } = result;
  const named = Object.values(LOCOMO_CATEGORIES);
  const categories = [
    ...named.filter((name) => name in questions.byCategory),
    ...Object.keys(questions.byCategory).filter((name) => !named.includes(name)),
  ];
  return [
    `locomo: ${result.data}: ${result.conversations} conversations, ${result.turnsIndexed} turns indexed; ` +
      `${questions.scored} questions scored, ${questions.skipped} skipped ` +
      `(${questions.skippedBecause.noEvidence} without resolvable evidence, ${questions.skippedBecause.emptyQuestion} empty); ` +
      `top ${LIMIT} turns per query`,
    `${evidence.repaired.length} evidence entries repaired, ${evidence.unresolved.length} evidence ids naming no turn dropped; ` +
      `${machine.cores} cores (${machine.cpu}), node ${machine.node}, ${result.seconds.toFixed(0)} s`,
    textTable(
      ['method', ...CUTOFFS.map((k) => `recall@${k}`), 'hit@10', 'search p50 ms', 'p95 ms'],
      METHODS.map((method) => {
        const { overall, latencyMs } = methods[method];
        return [
          method,
          ...CUTOFFS.map((k) => formatScore(overall[`recall@${k}`])),
          formatScore(overall['hit@10']),
          formatMs(latencyMs.p50),
          formatMs(latencyMs.p95),
        ];
      }),
    ),
    '',
    'recall@10 by category (questions):',
    textTable(
      ['method', ...categories.map((name) => `${name} (${questions.byCategory[name]})`)],
      METHODS.map((method) => [
        method,
        ...categories.map((name) => formatScore(methods[method].byCategory[name]?.['recall@10'])),
      ]),
    ),
    '',
    'recall@10 by conversation (questions):',
    textTable(
      ['method', ...result.byConversation.map(({ sampleId, questions }) => `${sampleId} (${questions})`)],
      METHODS.map((method) => [
        method,
        ...result.byConversation.map(({ sampleId }) => formatScore(methods[method].byConversation[sampleId]?.['recall@10'])),
      ]),
    ),
    '',
    `default search (graph-aware hybrid) relevance vs the seeds' thresholds: evidence turns ${formatShares(result.calibration.evidence)}; ` +
      `unrelated pairs (questions about another conversation) ${formatShares(result.calibration.unrelated)}`,
    `  unrelated pairs whose question names nobody who speaks in the index ${formatShares(result.unrelatedByNaming.namingNone)}; ` +
      `naming someone who does (conversations sharing a participant) ${formatShares(result.unrelatedByNaming.namingSpeaker)}`,
    ...Object.entries(result.calibrationByConversation).map(
      ([sampleId, shares]) =>
        `  ${sampleId}: evidence ${formatShares(shares.evidence)}; unrelated ${formatShares(shares.unrelated)}`,
    ),
    `turns indexed with context: ${result.context}; ` +
      'search latency excludes query embedding: query vectors are computed (or read from the cache) before timing',
  ].join('\n');
}

function formatScore(value: number | undefined): string {
  return value === undefined ? '-' : value.toFixed(3);
}

function formatMs(value: number): string {
  return Number.isNaN(value) ? '-' : value.toFixed(1);
}

function emptyPerMethod<T>(): Record<Method, T[]> {
  return { bm25: [], dense: [], keyword: [], hybrid: [], 'hybrid-rrf': [], graph: [] };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
