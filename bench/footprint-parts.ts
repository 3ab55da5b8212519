/**
 * The parts of a store `bench footprint` adds its tables and indexes up into: vectors, the
 * embedding cache, the memories' rows, their indexes, the full-text index, the graph, the rest.
 */

/** A part of the store, in the order the footprint table lists them. */
export const PARTS = ['vectors', 'cache', 'memories', 'memory indexes', 'full text', 'graph', 'other'] as const;
export type Part = (typeof PARTS)[number];

const GRAPH_TABLES = ['mentions', 'entities', 'entity_aliases', 'relations', 'extraction_failures'];

/** The part a table or index (SQLite's or PostgreSQL's name) belongs to. */
export function partOf(name: string): Part {
  if (name.startsWith('memory_embeddings')) return 'vectors';
  if (name.startsWith('embedding_cache')) return 'cache';
  // SQLite's FTS5 tables; PostgreSQL's GIN index over the memories' tsvector.
  if (name.startsWith('memories_fts') || name === 'memories_search') return 'full text';
  if (name === 'memories') return 'memories';
  if (name.startsWith('memories_') || name === 'sqlite_autoindex_memories_1') return 'memory indexes';
  if (GRAPH_TABLES.some((table) => name === table || name.startsWith(`${table}_`) || name === `sqlite_autoindex_${table}_1`)) {
    return 'graph';
  }
  return 'other';
}
