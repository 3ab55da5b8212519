/**
 * The graph stage of hybrid search (see graph-recall.ts for what each path adds and why): when
 * the query names entities the store knows, the memories about them join the candidates, every
 * candidate gains its graph part, and the turns beside the best of them gain theirs. It works on
 * drafts — candidates scored but not yet calibrated — so what it adds enters relevance before
 * the curve, like every other signal.
 */
import type { Memory } from '../model/memory.js';
import type { MemoryFilter } from '../store/store.js';
import {
  GRAPH_BOOST,
  GRAPH_REACH,
  type GraphPart,
  graphParts,
  memoriesLedTo,
  neighboursOf,
  NO_GRAPH_PART,
  type QueryGraph,
} from './graph-recall.js';
import type { GraphReader } from './search-reader.js';

/** What the graph stage reads and writes of a candidate being scored. */
export interface GraphDraft {
  memory: Memory;
  /** The hybrid score before calibration. */
  raw: number;
  signals: { graph: number | null };
  /** What the graph added and why; null until the graph stage has looked at it. */
  graph: GraphPart | null;
  /** What the graph stage saw around it in its session (for the fused order, fused-rank.ts); null until then. */
  around?: SessionSurroundings | undefined;
}

/** A candidate's place among the others in its session. */
export interface SessionSurroundings {
  /** Turns from the nearest of the best hits, when it is beside one (see GRAPH_REACH.radius); else null. */
  besideBest: number | null;
  /** The best raw score, graph paths included, of a candidate right beside it in its session; 0 when none is. */
  neighbourRaw: number;
}

/** How far below the hit it is beside a lifted neighbour stays. */
const TIE_BREAK = 1e-6;

/**
 * The candidates with their graph parts, and any the graph led to; `drafts` itself when the
 * query names no entity the tenant has (`graph` is null). `draft` reads and scores memories by
 * id; `score` is the search's own ranking score, graph part included. A bounded search (a
 * tier's own, in a recall decision: is anything of this tier close?) leaves out the memories
 * about the named entities that the indexes did not find, and does not read how the turns
 * beside each candidate matched (see addSurroundings).
 */
export async function followGraph<D extends GraphDraft>(parts: {
  store: GraphReader;
  filter: MemoryFilter;
  graph: QueryGraph | null;
  drafts: D[];
  draft: (ids: readonly string[]) => Promise<D[]>;
  score: (d: D) => number;
  /** @default false */
  bounded?: boolean;
}): Promise<D[]> {
  const { store, filter, graph, score, bounded = false } = parts;
  if (graph === null) return parts.drafts;
  const known = new Set(parts.drafts.map((d) => d.memory.id));
  const about = bounded ? [] : (await memoriesLedTo(store, filter, graph)).filter((id) => !known.has(id));
  const drafts = [...parts.drafts, ...(await parts.draft(about))];
  await addGraphParts(store, filter.tenant, graph, drafts);
  // The seeds are the best hits so far, ranked by the score the search will rank them with.
  const seeds = bestFirst(drafts, score).slice(0, GRAPH_REACH.seeds);
  const beside = await neighboursOf(
    store,
    filter,
    seeds.map((d) => d.memory.id),
  );
  const byId = new Map(drafts.map((d) => [d.memory.id, d]));
  const added = await parts.draft([...beside.keys()].filter((id) => !byId.has(id)));
  await addGraphParts(store, filter.tenant, graph, added);
  for (const d of added) byId.set(d.memory.id, d);
  // Before any lift: how well each candidate matched on its own, with the graph's paths.
  const unlifted = new Map([...byId].map(([id, d]) => [id, d.raw + (d.graph?.boost ?? 0)]));
  for (const [id, { of: seedId }] of beside) {
    const d = byId.get(id);
    const from = byId.get(seedId);
    if (d && from) liftBeside(d, from);
  }
  const ranked = bestFirst([...byId.values()], score);
  await addSurroundings(store, filter, ranked, unlifted, beside, bounded ? 0 : SURROUNDINGS_READ);
  return [...byId.values()];
}

/**
 * Candidates, best first, whose session neighbours are read for the fused order (fused-rank.ts):
 * on LoCoMo, reading them for every candidate (about 100) ranks the first 25 no better, at three
 * times the cost. A bounded search reads none: its filter (one tier) makes the turns it would
 * read the nearest turns of that tier rather than the turns beside, it only asks whether
 * anything of the tier is close, and the read was a tenth of a recall decision at 100k memories.
 * The decisions of `engram bench activation` came out the same with and without it.
 */
const SURROUNDINGS_READ = 30;

/**
 * Records each candidate's surroundings: how far it is from the best hits, and — for the first
 * `read` of `drafts` (best first), the candidates that can still reach the top — how well the
 * candidates right beside it matched (`unlifted`: their raw score with the graph's paths, before
 * any lift).
 */
async function addSurroundings(
  store: GraphReader,
  filter: MemoryFilter,
  drafts: readonly GraphDraft[],
  unlifted: ReadonlyMap<string, number>,
  beside: ReadonlyMap<string, { distance: number }>,
  read: number,
): Promise<void> {
  for (const d of drafts) d.around = { besideBest: beside.get(d.memory.id)?.distance ?? null, neighbourRaw: 0 };
  const best = drafts.slice(0, read);
  if (best.length === 0) return;
  const byId = new Map(best.map((d) => [d.memory.id, d]));
  for (const { memoryId, of } of await store.listSessionNeighbours(filter, [...byId.keys()], 1)) {
    const around = byId.get(of)?.around;
    const next = unlifted.get(memoryId);
    if (around && next !== undefined) around.neighbourRaw = Math.max(around.neighbourRaw, next);
  }
}

/**
 * `drafts` best first by `score`, in the order sorting them with `score(b) - score(a)` gives (the
 * sort is stable), each scored once rather than on every comparison.
 */
function bestFirst<D>(drafts: readonly D[], score: (d: D) => number): D[] {
  return drafts
    .map((d) => ({ d, score: score(d) }))
    .sort((a, b) => b.score - a.score)
    .map(({ d }) => d);
}

/** Lifts `d` towards the hit `from` it sits beside, never past it: the best match keeps its place. */
function liftBeside(d: GraphDraft, from: GraphDraft): void {
  const total = (x: GraphDraft) => x.raw + (x.graph?.boost ?? 0);
  const lifted = Math.min(total(d) + GRAPH_BOOST.neighbour, Math.max(total(d), total(from) - TIE_BREAK));
  if (lifted <= total(d)) return; // already level with it or above (the best seed beside the second)
  const note = `beside ${from.memory.id} in its session`;
  const via = d.graph?.via ?? null;
  const part: GraphPart = { ...(d.graph ?? NO_GRAPH_PART), boost: lifted - d.raw, via: via === null ? note : `${via}; ${note}` };
  d.graph = part;
  d.signals.graph = part.boost;
}

async function addGraphParts(store: GraphReader, tenant: string, graph: QueryGraph, drafts: GraphDraft[]): Promise<void> {
  const parts = await graphParts(
    store,
    tenant,
    graph,
    drafts.map((d) => d.memory),
  );
  for (const d of drafts) {
    const part = parts.get(d.memory.id) ?? NO_GRAPH_PART;
    d.graph = part;
    d.signals.graph = part.boost;
  }
}
