/**
 * Writing an import's memories: vectors are computed first (a cache, safe to leave half-filled),
 * then every row — exported records, new memories and the older memories they supersede — is
 * written in one transaction. A duplicate key or a crash therefore never half-imports a file.
 */
import { isEngramError } from '../errors.js';
import type { Memory } from '../model/memory.js';
import type { Store } from '../store/store.js';
import type { ProgressListener } from './embed-batches.js';
import { importError, type ImportOptions } from './import-records.js';

/** What the memory part of an import did. */
export interface MemoryImportCounts {
  read: number;
  imported: number;
  replaced: number;
  skipped: number;
}

/** Embeds and writes an import's memories in one transaction. */
export async function writeRecords(parts: {
  /** Lines of `engram export`: stored as they are, unless their id is stored already. */
  exported: readonly Memory[];
  /** New memories, built as `remember` builds them. */
  created: readonly Memory[];
  /** Stored memories the new ones supersede, already marked. */
  superseded: readonly Memory[];
  options: ImportOptions;
  store: Store;
  tenant: string;
  embed: (memories: readonly Memory[], onProgress?: ProgressListener) => Promise<Float32Array[] | null>;
  afterWrite: (vectors: readonly Float32Array[]) => Promise<void>;
}): Promise<MemoryImportCounts> {
  const { exported, created, options, store, tenant } = parts;
  const ids = exported.map((memory) => memory.id);
  const existing = new Set(ids.length === 0 ? [] : (await store.getMemories(tenant, ids)).map((memory) => memory.id));
  const replace = options.onConflict === 'replace';
  const fresh = exported.filter((memory) => !existing.has(memory.id));
  const replacing = replace ? exported.filter((memory) => existing.has(memory.id)) : [];
  const inserted = [...fresh, ...created];
  const toEmbed = [...inserted, ...replacing];
  const vectors = await parts.embed(toEmbed, options.onProgress);
  options.onProgress?.({ phase: 'writing', done: 0, total: toEmbed.length });
  try {
    await store.commit({
      insert: inserted.map((memory, i) => ({ memory, vector: vectors?.[i] ?? null })),
      update: [
        ...replacing.map((memory, i) => ({ memory, vector: vectors?.[inserted.length + i] ?? null })),
        ...parts.superseded.map((memory) => ({ memory })),
      ],
    });
  } catch (cause) {
    // A storage failure (locked, read-only, disk full) already says what happened and what to do.
    if (isEngramError(cause)) throw cause;
    const reason = (cause as Error).message;
    const clash = /UNIQUE constraint failed: memories\.tenant, memories\.scope, memories\.key|memories_live_key/.test(reason);
    throw importError(
      'import failed',
      clash ? 'two live memories would share a key in one scope' : reason,
      clash ? 'give one of them another key or scope, or mark the older one superseded' : 'the database is as it was',
      cause,
    );
  }
  await parts.afterWrite(vectors ?? []);
  options.onProgress?.({ phase: 'writing', done: toEmbed.length, total: toEmbed.length });
  return {
    read: exported.length + created.length,
    imported: inserted.length,
    replaced: replacing.length,
    skipped: exported.length - fresh.length - replacing.length,
  };
}
