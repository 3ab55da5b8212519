/**
 * The graph stage of a search that follows the knowledge graph: the graph's candidates and parts
 * (follow-graph.ts), then — when the query names an entity the store knows and vectors are on —
 * the fused order's score of every candidate (fused-rank.ts), which its relevance then follows.
 */
import type { MemoryFilter } from '../store/memory-filter.js';
import { questionShare } from '../text/question-share.js';
import { calibrate } from './calibration.js';
import type { Draft, DraftMemories } from './draft-candidates.js';
import { followGraph } from './follow-graph.js';
import { fusedScores } from './fused-rank.js';
import { fusedScale } from './fused-relevance.js';
import type { QueryGraph } from './graph-recall.js';
import type { GraphReader } from './search-reader.js';

/** What the graph stage reads besides the drafts. */
export interface GraphStageParts {
  store: GraphReader;
  filter: MemoryFilter;
  /** What the graph says about the query; null when it names no entity the tenant has. */
  graph: QueryGraph | null;
  /** Drafts the memories the graph leads to. */
  draft: DraftMemories;
  /** A tier's own search in a recall decision (see followGraph). */
  bounded: boolean;
  /** Whether the search has the query's vector: the fused order's weights were fitted with meaning in the mix. */
  hasVector: boolean;
  /** Each candidate's place in the full-text index's list, from 1. */
  lexicalRanks: ReadonlyMap<string, number>;
}

/** A draft's raw hybrid score with the graph's part added. */
export function rawWithGraph(d: Draft): number {
  return d.raw + (d.graph?.boost ?? 0);
}

/** The candidates with the graph's part in each, and any the graph led to. */
export async function graphStage(drafts: Draft[], parts: GraphStageParts): Promise<Draft[]> {
  const { store, filter, graph, draft, bounded } = parts;
  const followed = await followGraph({ store, filter, graph, drafts, draft, score: summedScore, bounded });
  // The weights were fitted with meaning in the mix: without vectors the fixed sum ranks.
  if (graph !== null && parts.hasVector) addFusedScores(followed, parts.lexicalRanks);
  return followed;
}

/**
 * What the graph stage ranks by before the fused order is known (its seeds, the turns beside
 * them): the calibrated raw score × every factor. The store's shift, one factor for every hit,
 * is left out: it changes no order.
 */
function summedScore(d: Draft): number {
  const { cooldown, recency, scope, exact } = d.factors;
  return calibrate(rawWithGraph(d)) * cooldown * recency * scope * exact;
}

/**
 * Records the fused order's score of every candidate (fused-rank.ts), read over all the
 * candidates for their sessions' standing, and the search's scale.
 */
function addFusedScores(all: readonly Draft[], lexicalRanks: ReadonlyMap<string, number>): void {
  const scores = fusedScores(
    all.map((d) => ({
      features: {
        coverage: d.signals.coverage,
        bm25: d.signals.bm25,
        cosine: d.signals.cosine ?? 0,
        about: d.graph?.about ?? false,
        dated: d.graph?.dated ?? false,
        onDay: d.graph?.onDay ?? false,
        placed: d.graph?.placed ?? false,
        besideBest: d.around?.besideBest ?? null,
        lexicalRank: lexicalRanks.get(d.memory.id) ?? null,
        length: d.memory.text.length,
        neighbourRaw: d.around?.neighbourRaw ?? 0,
        questionShare: questionShare(d.memory.text),
      },
      session: d.memory.sessionId,
    })),
  );
  const scale = fusedScale(all.map((d, i) => ({ fused: scores[i] ?? 0, relevance: calibrate(rawWithGraph(d)) })));
  all.forEach((d, i) => {
    d.signals.fused = { score: scores[i] ?? 0, ...scale };
  });
}
