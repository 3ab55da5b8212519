/**
 * `bench locomo`: evidence retrieval on LoCoMo. Per conversation, a fresh in-memory engine holds
 * every turn as one memory; each question is a query run with every search method, and the
 * ranked turns are scored against the question's evidence ids (recall@k, hit@k).
 */
import type { Embedder } from '../embedding/embedder.js';
import type { Engram } from '../engram.js';
import { InvalidInputError } from '../errors.js';
import type { SearchMode } from '../retrieval/hybrid-search.js';
import { openBenchEmbedder, openBenchEngine } from './embedding-cache.js';
import { loadLocomo, LOCOMO_CATEGORIES, type LocomoConversation } from './locomo-data.js';
import { machineInfo } from './machine.js';
import { averageScores, hitAtK, recallAtK } from './metrics.js';
import type { BenchOptions, BenchResult } from './registry.js';
import { quantile, textTable } from './stats.js';

/** The search methods compared, in table order. */
const METHODS = ['bm25', 'dense', 'keyword', 'hybrid'] as const satisfies readonly SearchMode[];
type Method = (typeof METHODS)[number];
/** Turns retrieved per question; the largest cut-off. */
const LIMIT = 25;
const CUTOFFS = [1, 5, 10, 25] as const;

type Scored = { group: string; scores: Record<string, number> };

export async function runLocomoBenchmark(options: BenchOptions): Promise<BenchResult> {
  if (!options.data) {
    throw new InvalidInputError('bench locomo needs --data FILE: a LoCoMo JSON file such as locomo10.json');
  }
  const file = options.data;
  const conversations = await loadLocomo(file);
  const started = performance.now();
  const rows = emptyPerMethod<Scored>();
  const latencies = emptyPerMethod<number>();
  const { embedder, close } = openBenchEmbedder();
  try {
    for (const [index, conversation] of conversations.entries()) {
      const at = performance.now();
      await scoreConversation(embedder, conversation, rows, latencies);
      options.log(
        `locomo: ${conversation.sampleId} (${index + 1}/${conversations.length}): ${conversation.turns.length} turns, ` +
          `${conversation.questions.length} questions, ${((performance.now() - at) / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    await close();
  }
  const result = summarize(file, conversations, rows, latencies, (performance.now() - started) / 1000);
  return { table: formatTable(result), json: result };
}

/** Runs every question of `conversation` with every method on a fresh engine holding its turns. */
async function scoreConversation(
  embedder: Embedder,
  conversation: LocomoConversation,
  rows: Record<Method, Scored[]>,
  latencies: Record<Method, number[]>,
): Promise<void> {
  const engram = await openBenchEngine({ embedder, now: lastSessionDate(conversation) });
  try {
    const rank = await indexConversation(engram, conversation);
    // Query vectors go into the cache first, so the timed searches measure retrieval, not the model.
    await embedder.embed(conversation.questions.map((question) => question.question));
    for (const question of conversation.questions) {
      const evidence = new Set(question.evidence);
      for (const method of METHODS) {
        const started = performance.now();
        const ranked = await rank(question.question, method);
        latencies[method].push(performance.now() - started);
        rows[method].push({ group: question.category, scores: scoreRanking(ranked, evidence) });
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

/** Stores every turn as one memory and returns a function ranking dialogue ids for a query. */
async function indexConversation(
  engram: Engram,
  conversation: LocomoConversation,
): Promise<(query: string, method: Method) => Promise<string[]>> {
  const memories = await engram.rememberMany(
    conversation.turns.map((turn) => ({
      text: turn.text,
      kind: 'episode' as const,
      sessionId: `session_${turn.session}`,
      ...(turn.date ? { occurredAt: turn.date } : {}),
      data: { diaId: turn.diaId },
    })),
  );
  const diaIdOf = new Map(memories.map((memory, i) => [memory.id, conversation.turns[i]?.diaId ?? '']));
  return async (query, method) => {
    const hits = await engram.search({ query, limit: LIMIT, mode: method, recordRetrieval: false });
    return hits.map((hit) => diaIdOf.get(hit.memory.id) ?? '');
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
  latencyMs: { mean: number; p50: number; p95: number };
};

function summarize(
  file: string,
  conversations: readonly LocomoConversation[],
  rows: Record<Method, Scored[]>,
  latencies: Record<Method, number[]>,
  seconds: number,
) {
  const methods = {} as Record<Method, MethodResult>;
  for (const method of METHODS) {
    const averaged = averageScores(rows[method]);
    const ms = latencies[method];
    methods[method] = {
      overall: averaged.overall,
      byCategory: averaged.byGroup,
      latencyMs: { mean: sum(ms) / Math.max(1, ms.length), p50: quantile(ms, 0.5), p95: quantile(ms, 0.95) },
    };
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
    methods,
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
  return { bm25: [], dense: [], keyword: [], hybrid: [] };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
