/**
 * `bench recall`: LoCoMo replayed as agent sessions. Each conversation's turns are stored as
 * memories; its questions are then asked one per turn in one session (a minute apart), and
 * each recall policy's injected block is scored: the share of the question's evidence turns it
 * holds, whether it holds any, how many memories and how many tokens it injects. Plain top-k
 * (what most memory layers inject) is compared with Engram's default activation policy.
 */
import { type ConfigInput, type Embedder, type Engram, InvalidInputError, manualClock, type Memory } from 'engram';
import { formatRecallBlock } from 'engram/internal';

import type { BenchOptions, BenchResult } from './bench-types.js';
import { openBenchEmbedder, openBenchEngine } from './embedding-cache.js';
import { loadLocomo, type LocomoConversation } from './locomo-data.js';
import { machineInfo } from './machine.js';
import { hitAtK, recallAtK, summarizeMethods } from './metrics.js';
import { textTable } from './stats.js';

/** The policies compared, in table order. */
const POLICIES = {
  'top-5': { kind: 'search', limit: 5, minRelevance: 0 },
  'top-5 >= 0.6': { kind: 'search', limit: 5, minRelevance: 0.6 },
  default: { kind: 'session', config: {} },
  'default + cooldown on active': {
    kind: 'session',
    config: { memory: { cooldown: { paths: ['explicit', 'active', 'intrusive'] } } },
  },
  'default, threshold 0.5': { kind: 'session', config: { memory: { recall: { threshold: 0.5 } } } },
  'default, no repeat penalty': { kind: 'session', config: { auto_recall: { repeat_penalty: 1 } } },
  'default, no MMR': { kind: 'session', config: { auto_recall: { mmr_lambda: 1 } } },
} as const satisfies Record<
  string,
  { kind: 'search'; limit: number; minRelevance: number } | { kind: 'session'; config: ConfigInput }
>;
type Policy = keyof typeof POLICIES;
const POLICY_NAMES = Object.keys(POLICIES) as Policy[];

/** Turns whose recall blocks count as still in the conversation (the repeat window's length). */
const CONTEXT_TURNS = 6;
/** Seconds between two questions of the replayed session. */
const QUESTION_GAP_MS = 60_000;
/** Tokens estimated as characters ÷ 4, the usual rule of thumb for English with GPT-style tokenisers. */
const CHARS_PER_TOKEN = 4;

type Row = { group: string; scores: Record<string, number> };

export async function runRecallReplayBenchmark(options: BenchOptions): Promise<BenchResult> {
  if (!options.data) throw new InvalidInputError('bench recall needs --data FILE: a LoCoMo JSON file such as locomo10.json');
  const conversations = await loadLocomo(options.data);
  const rows = Object.fromEntries(POLICY_NAMES.map((p) => [p, [] as Row[]])) as Record<Policy, Row[]>;
  const latencies = Object.fromEntries(POLICY_NAMES.map((p) => [p, [] as number[]])) as Record<Policy, number[]>;
  const { embedder, close } = openBenchEmbedder();
  try {
    for (const [index, conversation] of conversations.entries()) {
      for (const policy of POLICY_NAMES) {
        await replay({ embedder, conversation, policy, rows: rows[policy], latencies: latencies[policy] });
      }
      options.log(
        `recall: ${conversation.sampleId} (${index + 1}/${conversations.length}), ${conversation.questions.length} questions`,
      );
    }
  } finally {
    await close();
  }
  const summary = summarizeMethods(POLICY_NAMES, rows, latencies);
  const machine = machineInfo();
  const json = { file: options.data, questions: rows.default.length, machine, policies: summary };
  const table = [
    `recall: LoCoMo questions replayed as one session per conversation, ${rows.default.length} questions; ${machine.cores} cores`,
    'evidence recall = share of the evidence turns in the injected block; in last 6 blocks = in this or the 5 blocks before it; tokens ≈ characters ÷ 4',
    textTable(
      ['policy', 'evidence recall', 'evidence hit', 'in last 6 blocks', 'memories/turn', 'tokens/turn', 'latency p50/p95 ms'],
      POLICY_NAMES.map((policy) => {
        const { overall, latencyMs } = summary[policy];
        return [
          policy,
          (overall.recall ?? 0).toFixed(3),
          (overall.hit ?? 0).toFixed(3),
          (overall.inContext ?? 0).toFixed(3),
          (overall.memories ?? 0).toFixed(2),
          (overall.tokens ?? 0).toFixed(0),
          `${latencyMs.p50.toFixed(1)} / ${latencyMs.p95.toFixed(1)}`,
        ];
      }),
    ),
  ].join('\n');
  return { table, json };
}

/** Stores the conversation on a fresh engine and asks its questions in order, as one session. */
async function replay(parts: {
  embedder: Embedder;
  conversation: LocomoConversation;
  policy: Policy;
  rows: Row[];
  latencies: number[];
}): Promise<void> {
  const { conversation, policy } = parts;
  const spec = POLICIES[policy];
  const clock = manualClock(lastDate(conversation));
  const engram = await openBenchEngine({ embedder: parts.embedder, clock, config: spec.kind === 'session' ? spec.config : {} });
  try {
    const diaIdOf = await storeTurns(engram, conversation);
    await parts.embedder.embed(conversation.questions.map((q) => q.question)); // warm the cache: time recall, not the model
    const session = engram.session({ id: conversation.sampleId });
    const recentBlocks: string[][] = [];
    for (const question of conversation.questions) {
      clock.advance(QUESTION_GAP_MS);
      const started = performance.now();
      const injected =
        spec.kind === 'search'
          ? (await engram.search({ query: question.question, limit: spec.limit, minRelevance: spec.minRelevance })).map(
              (h) => h.memory,
            )
          : (await session.beforeTurn(question.question)).memories;
      parts.latencies.push(performance.now() - started);
      const block = formatRecallBlock({ workingSet: null, pinned: [], memories: injected });
      const ids = injected.map((memory) => diaIdOf.get(memory.id) ?? '');
      const evidence = new Set(question.evidence);
      recentBlocks.push(ids);
      if (recentBlocks.length > CONTEXT_TURNS) recentBlocks.shift();
      const inContext = [...new Set(recentBlocks.flat())];
      parts.rows.push({
        group: question.category,
        scores: {
          recall: recallAtK(ids, evidence, ids.length),
          hit: hitAtK(ids, evidence, ids.length),
          inContext: recallAtK(inContext, evidence, inContext.length),
          memories: injected.length,
          tokens: Math.ceil((block?.content.length ?? 0) / CHARS_PER_TOKEN),
        },
      });
    }
  } finally {
    await engram.close();
  }
}

async function storeTurns(engram: Engram, conversation: LocomoConversation): Promise<Map<string, string>> {
  const turns = conversation.turns;
  const memories: Memory[] = await engram.rememberMany(
    turns.map((turn, i) => {
      const previous = turns[i - 1];
      return {
        text: turn.text,
        context: previous?.session === turn.session ? previous.text : null,
        kind: 'episode' as const,
        sessionId: `session_${turn.session}`,
        ...(turn.date ? { occurredAt: turn.date } : {}),
      };
    }),
  );
  return new Map(memories.map((memory, i) => [memory.id, turns[i]?.diaId ?? '']));
}

function lastDate(conversation: LocomoConversation): string {
  return (
    conversation.turns
      .flatMap((turn) => (turn.date ? [turn.date] : []))
      .sort()
      .at(-1) ?? '2026-01-01T00:00:00.000Z'
  );
}
