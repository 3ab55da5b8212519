/**
 * The parts of a store a search reads, method by method: the two indexes, the memories they
 * point at, the graph, and the turns beside a memory in its session. Any Store is one; a test's
 * in-memory store implements only these.
 */
import type { GraphStore } from '../store/graph-store.js';
import type { LexicalSearch } from '../store/lexical-search.js';
import type { MemoryReader } from '../store/memory-store.js';
import type { VectorSearch } from '../store/vector-search.js';

/** What the graph stage reads (graph-recall.ts, follow-graph.ts). */
export type GraphReader = Pick<
  GraphStore,
  'findEntities' | 'listRelations' | 'getEntities' | 'listMentionsOfEntities' | 'listMentionsInMemories'
> &
  Pick<MemoryReader, 'getMemories' | 'listSessionNeighbours'>;

/** What a search reads. */
export type SearchReader = GraphReader &
  Pick<LexicalSearch, 'searchLexical'> &
  Pick<VectorSearch, 'searchVector' | 'vectorSimilarities'>;
