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
  type GraphReader,
  memoriesAbout,
  neighboursOf,
  type QueryGraph,
} from './graph-recall.js';

/** What the graph stage reads and writes of a candidate being scored. */
export interface GraphDraft {
  memory: Memory;
  /** The hybrid score before calibration. */
  raw: number;
  signals: { graph: number | null };
  /** What the graph added and why; null until the graph stage has looked at it. */
  graph: GraphPart | null;
}

/** How far below the hit it is beside a lifted neighbour stays. */
const TIE_BREAK = 1e-6;

/**
 * The candidates with their graph parts, and any the graph led to; `drafts` itself when the
 * query names no entity the tenant has (`graph` is null). `draft` reads and scores memories by
 * id; `score` is the search's own ranking score, graph part included. `addAbout: false` leaves
 * out the memories about the named entities that the indexes did not find (a bounded search).
 */
export async function followGraph<D extends GraphDraft>(parts: {
  store: GraphReader;
  filter: MemoryFilter;
  graph: QueryGraph | null;
  drafts: D[];
  draft: (ids: readonly string[]) => Promise<D[]>;
  score: (d: D) => number;
  /** @default true */
  addAbout?: boolean;
}): Promise<D[]> {
  const { store, filter, graph, score, addAbout = true } = parts;
  if (graph === null) return parts.drafts;
  const known = new Set(parts.drafts.map((d) => d.memory.id));
  const about = addAbout ? (await memoriesAbout(store, filter, graph)).filter((id) => !known.has(id)) : [];
  const drafts = [...parts.drafts, ...(await parts.draft(about))];
  await addGraphParts(store, filter.tenant, graph, drafts);
  // The seeds are the best hits so far, ranked by the score the search will rank them with.
  const seeds = [...drafts].sort((a, b) => score(b) - score(a)).slice(0, GRAPH_REACH.seeds);
  const beside = await neighboursOf(
    store,
    filter,
    seeds.map((d) => d.memory.id),
  );
  const byId = new Map(drafts.map((d) => [d.memory.id, d]));
  const added = await parts.draft([...beside.keys()].filter((id) => !byId.has(id)));
  await addGraphParts(store, filter.tenant, graph, added);
  for (const d of added) byId.set(d.memory.id, d);
  for (const [id, seedId] of beside) {
    const d = byId.get(id);
    const from = byId.get(seedId);
    if (d && from) liftBeside(d, from);
  }
  return [...byId.values()];
}

/** Lifts `d` towards the hit `from` it sits beside, never past it: the best match keeps its place. */
function liftBeside(d: GraphDraft, from: GraphDraft): void {
  const total = (x: GraphDraft) => x.raw + (x.graph?.boost ?? 0);
  const lifted = Math.min(total(d) + GRAPH_BOOST.neighbour, Math.max(total(d), total(from) - TIE_BREAK));
  if (lifted <= total(d)) return; // already level with it or above (the best seed beside the second)
  const note = `beside ${from.memory.id} in its session`;
  const via = d.graph?.via ?? null;
  d.graph = { boost: lifted - d.raw, via: via === null ? note : `${via}; ${note}` };
  d.signals.graph = d.graph.boost;
}

async function addGraphParts(store: GraphReader, tenant: string, graph: QueryGraph, drafts: GraphDraft[]): Promise<void> {
  const parts = await graphParts(
    store,
    tenant,
    graph,
    drafts.map((d) => d.memory.id),
  );
  for (const d of drafts) {
    d.graph = parts.get(d.memory.id) ?? { boost: 0, via: null };
    d.signals.graph = d.graph.boost;
  }
}
