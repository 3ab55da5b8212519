import { describe, expect, it } from 'vitest';

import { partOf } from './footprint-parts.js';

describe('the parts bench footprint adds tables up into', () => {
  it.each([
    ['memory_embeddings', 'vectors'],
    ['memory_embeddings_by_input', 'vectors'],
    ['embedding_cache', 'cache'],
    ['memories', 'memories'],
    ['memories_spread', 'memory indexes'],
    ['sqlite_autoindex_memories_1', 'memory indexes'],
    ['memories_fts_data', 'full text'],
    ['memories_fts_docsize', 'full text'],
    ['memories_search', 'full text'],
    ['memory_embeddings_hnsw_512', 'vectors'],
    ['memories_pkey', 'memory indexes'],
    ['mentions_by_memory', 'graph'],
    ['sqlite_autoindex_entities_1', 'graph'],
    ['entity_aliases', 'graph'],
    ['sessions', 'other'],
    ['sqlite_schema', 'other'],
  ])('puts %s in %s', (name, part) => {
    expect(partOf(name)).toBe(part);
  });
});
