/**
 * The embedder that made the stored vectors, kept as JSON under one `engram_meta` key, read and
 * written alike on both databases (the doctors read it too).
 */
import type { VectorIndexInfo } from '../vector-index-store.js';
import { get, type Program, run } from './session.js';
import { sql } from './sql.js';

/** The `engram_meta` key of the embedder that made the stored vectors (a VectorIndexInfo as JSON). */
export const INDEX_INFO_KEY = 'vector_index';

export function* readIndexInfo(): Program<VectorIndexInfo | null> {
  const row = yield* get<{ value: string }>(sql`SELECT value FROM engram_meta WHERE key = ${INDEX_INFO_KEY}`);
  return row === undefined ? null : (JSON.parse(row.value) as VectorIndexInfo);
}

export function* writeIndexInfo(info: VectorIndexInfo): Program<void> {
  yield* run(
    sql`INSERT INTO engram_meta (key, value) VALUES (${INDEX_INFO_KEY}, ${JSON.stringify(info)})
      ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
}
