/**
 * An import from start to end: every record validated first (import-records.ts), the graph's
 * lines planned, the new memories planned as `rememberMany` plans them, the memories written in
 * one transaction with their vectors and graph (import-write.ts), then the graph's lines. A bad
 * record refuses the whole import before anything is written.
 */
import type { Embedder } from '../embedding/embedder.js';
import { assertCompatible, recordEmbedder } from '../embedding/index-compatibility.js';
import type { Memory } from '../model/memory.js';
import type { KnowledgeGraph } from '../tools/knowledge-graph.js';
import type { ProgressListener } from './embed-batches.js';
import type { GraphSync } from './graph-sync.js';
import { planGraphImport, writeGraphImport } from './import-graph.js';
import { type ImportOptions, type ImportSummary, parseImport } from './import-records.js';
import { writeRecords } from './import-write.js';
import { planNewMemories, type WritingParts } from './plan-memories.js';

/** What an import uses, beyond what planning reads. */
export interface ImportParts extends WritingParts {
  /** The embedder memories are stored with (null: none). */
  embedder: Embedder | null;
  /** The tenant's graph, without the activity log (an import logs one line for everything). */
  graph: KnowledgeGraph;
  graphSync: GraphSync;
  embed: (memories: readonly Memory[], onProgress?: ProgressListener) => Promise<Float32Array[] | null>;
}

/** Imports `records` (see `Engram.import`) and says what was read, written and skipped. */
export async function importRecords(
  parts: ImportParts,
  records: readonly unknown[],
  options: ImportOptions,
): Promise<ImportSummary> {
  const { store, tenant, embedder, graphSync } = parts;
  const parsed = parseImport(records, tenant, options);
  if (parsed.exported.length + parsed.created.length > 0) await assertCompatible(store, embedder);
  const graphPlan = await planGraphImport(parts.graph, parsed.entities, parsed.relations);
  const { memories: created, replaced } = await planNewMemories(
    parts,
    parsed.created.map((record) => record.input),
    (index) => parsed.created[index]?.where,
  );
  const extracted = await graphSync.prepare([...parsed.exported, ...created]);
  const counts = await writeRecords({
    exported: parsed.exported,
    created,
    superseded: replaced,
    options,
    store,
    tenant,
    embed: parts.embed,
    afterWrite: async (vectors) => {
      await recordEmbedder(store, embedder, vectors);
      await graphSync.record(
        tenant,
        extracted,
        replaced.map((memory) => memory.id),
      );
    },
  });
  const added = await writeGraphImport(parts.graph, graphPlan);
  return { ...counts, graph: { entities: parsed.entities.length, relations: parsed.relations.length, ...added } };
}
