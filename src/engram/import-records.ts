/**
 * Importing exported memory records: every record is validated before anything is written,
 * vectors are computed next (a cache, safe to leave half-filled), and all rows are written in
 * one transaction. A bad line, a duplicate id or a crash therefore never half-imports a file.
 */
import { EngramError, isEngramError } from '../errors.js';
import type { Memory } from '../model/memory.js';
import { describeIssues, MemoryRecordSchema } from '../model/memory-input.js';
import type { Store } from '../store/store.js';
import type { ProgressListener } from './embed-batches.js';

/** How to import. */
export interface ImportOptions {
  /** What to do with a record whose id is already stored. @default "skip" */
  onConflict?: 'skip' | 'replace';
  /** Line number of each record, for error messages. @default position + 1 */
  lines?: readonly number[] | undefined;
  onProgress?: ProgressListener;
}

/** What an import did. */
export interface ImportSummary {
  read: number;
  imported: number;
  replaced: number;
  skipped: number;
}

/**
 * Validates every record before anything is touched; the first bad one is reported by its line.
 * Records land in `tenant`: a tenant is an isolation boundary, not data.
 */
export function parseRecords(records: readonly unknown[], tenant: string, lines?: readonly number[]): Memory[] {
  const lineOf = (index: number) => lines?.[index] ?? index + 1;
  const seen = new Map<string, number>();
  return records.map((record, index) => {
    const result = MemoryRecordSchema.safeParse(record);
    if (!result.success) {
      throw new EngramError('import_failed', `line ${lineOf(index)}: ${describeIssues(result.error)}; nothing was imported`);
    }
    const first = seen.get(result.data.id);
    if (first !== undefined) {
      throw new EngramError(
        'import_failed',
        `line ${lineOf(index)}: id ${result.data.id} already appears on line ${first}; nothing was imported`,
      );
    }
    seen.set(result.data.id, lineOf(index));
    return { ...result.data, tenant };
  });
}

/** Embeds and writes parsed records in one transaction. */
export async function writeRecords(parts: {
  memories: readonly Memory[];
  options: ImportOptions;
  store: Store;
  tenant: string;
  embed: (memories: readonly Memory[], onProgress?: ProgressListener) => Promise<Float32Array[] | null>;
  afterWrite: (vectors: readonly Float32Array[]) => Promise<void>;
}): Promise<ImportSummary> {
  const { memories, options, store, tenant } = parts;
  const existing = new Set(
    (
      await store.getMemories(
        tenant,
        memories.map((memory) => memory.id),
      )
    ).map((memory) => memory.id),
  );
  const replace = options.onConflict === 'replace';
  const fresh = memories.filter((memory) => !existing.has(memory.id));
  const replacing = replace ? memories.filter((memory) => existing.has(memory.id)) : [];
  const toEmbed = [...fresh, ...replacing];
  const vectors = await parts.embed(toEmbed, options.onProgress);
  options.onProgress?.({ phase: 'writing', done: 0, total: toEmbed.length });
  try {
    await store.commit({
      insert: fresh.map((memory, i) => ({ memory, vector: vectors?.[i] ?? null })),
      update: replacing.map((memory, i) => ({ memory, vector: vectors?.[fresh.length + i] ?? null })),
    });
  } catch (cause) {
    // A storage failure (locked, read-only, disk full) already says what happened and what to do.
    if (isEngramError(cause)) throw cause;
    const reason = (cause as Error).message;
    const hint = /UNIQUE constraint failed: memories\.tenant, memories\.scope, memories\.key/.test(reason)
      ? 'two live memories would share a key in one scope'
      : reason;
    throw new EngramError('import_failed', `import failed: ${hint}; nothing was imported`, { cause });
  }
  await parts.afterWrite(vectors ?? []);
  options.onProgress?.({ phase: 'writing', done: toEmbed.length, total: toEmbed.length });
  return {
    read: memories.length,
    imported: fresh.length,
    replaced: replacing.length,
    skipped: memories.length - fresh.length - replacing.length,
  };
}
