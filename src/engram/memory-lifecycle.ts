/**
 * A memory's life after the facade has checked the engine is open: written (validated, planned,
 * embedded and extracted side by side, committed in one transaction), changed, forgotten (archived
 * or deleted) and restored. Each write keeps the graph in step and adds one activity-log line.
 */
import type { Embedder } from '../embedding/embedder.js';
import { assertCompatible, recordEmbedder } from '../embedding/index-compatibility.js';
import { InvalidInputError, NotFoundError } from '../errors.js';
import type { Memory } from '../model/memory.js';
import { describeIssues, type MemoryInput, type MemoryPatch, MemoryPatchSchema } from '../model/memory-input.js';
import type { ActivityLabel } from '../model/session.js';
import type { ForgetOutcome } from '../tools/tool-engine.js';
import { type ActivityLine, forgottenLine, rememberedLine, restoredLine, updatedLine } from './activity-lines.js';
import type { ProgressListener } from './embed-batches.js';
import type { WriteOptions } from './engram-types.js';
import type { GraphSync } from './graph-sync.js';
import { patchMemory } from './new-memory.js';
import { parseMemoryInputs, planNewMemories, type WritingParts } from './plan-memories.js';

/** What a write uses, beyond what planning reads. */
export interface LifecycleParts extends WritingParts {
  /** The embedder memories are stored with (null: none). */
  embedder: Embedder | null;
  graphSync: GraphSync;
  /** Embeds memories in batches (null without an embedder). */
  embed: (memories: readonly Memory[], onProgress?: ProgressListener) => Promise<Float32Array[] | null>;
  /** Adds a line to the activity log. */
  log: (line: ActivityLine) => Promise<unknown>;
}

/** Validates, plans and writes new memories in one transaction, with their vectors and graph; one activity line. */
export async function storeMemories(
  parts: LifecycleParts,
  inputs: readonly (MemoryInput | string)[],
  onProgress: ProgressListener | undefined,
  label?: ActivityLabel,
): Promise<Memory[]> {
  const parsed = parseMemoryInputs(inputs, parts.tenant);
  await assertCompatible(parts.store, parts.embedder);
  const { memories, replaced } = await planNewMemories(parts, parsed);
  // Side by side: a worker pool embeds while this thread extracts the graph.
  const [vectors, graph] = await Promise.all([parts.embed(memories, onProgress), parts.graphSync.prepare(memories)]);
  onProgress?.({ phase: 'writing', done: 0, total: memories.length });
  await parts.store.commit({
    insert: memories.map((memory, i) => ({ memory, vector: vectors?.[i] ?? null })),
    update: replaced.map((memory) => ({ memory })),
    // Another writer (another server, or another request) may have taken a key since findByKey.
    replaceKeyHolders: true,
  });
  await recordEmbedder(parts.store, parts.embedder, vectors ?? []);
  // A superseded memory's relations end: the newer memory states what holds now.
  await parts.graphSync.record(
    parts.tenant,
    graph,
    replaced.map((memory) => memory.id),
  );
  await parts.log(rememberedLine(memories, replaced, label));
  onProgress?.({ phase: 'writing', done: memories.length, total: memories.length });
  return memories;
}

/** Changes fields of a memory; new text is re-embedded. */
export async function updateMemory(parts: LifecycleParts, id: string, patch: MemoryPatch): Promise<Memory> {
  const result = MemoryPatchSchema.safeParse(patch);
  if (!result.success) throw new InvalidInputError(describeIssues(result.error));
  const current = await requireMemory(parts, id);
  const next = patchMemory(current, result.data, parts.clock.now());
  const textChanged = next.text !== current.text || next.context !== current.context;
  if (textChanged) await assertCompatible(parts.store, parts.embedder);
  const vectors = textChanged ? await parts.embed([next]) : null;
  const reextract = textChanged || next.occurredAt !== current.occurredAt || next.kind !== current.kind;
  const graph = reextract ? await parts.graphSync.prepare([next]) : { extractions: [], failures: [] };
  await parts.store.commit({
    update: [textChanged ? { memory: next, vector: vectors?.[0] ?? null } : { memory: next }],
  });
  if (reextract) await parts.graphSync.record(parts.tenant, graph, graph.extractions.length === 0 ? [next.id] : []);
  await parts.log(updatedLine(current, next));
  return next;
}

/**
 * Forgets a memory. By default it is archived: hidden from search and lists, still in the
 * database and in exports. With `hard: true` it is deleted for good, with its index entries.
 */
export async function forgetMemory(
  parts: LifecycleParts,
  id: string,
  options: { hard?: boolean } & WriteOptions,
): Promise<ForgetOutcome> {
  const memory = await requireMemory(parts, id);
  if (options.hard) {
    await parts.graphSync.forget(parts.tenant, [id]);
    await parts.store.purgeMemories(parts.tenant, [id]);
    await parts.log(forgottenLine(memory, true, options.activity));
    return { id, outcome: 'deleted' };
  }
  // Forgetting a forgotten memory writes nothing, so it logs nothing.
  if (memory.archivedAt === null) {
    const at = parts.clock.now().toISOString();
    await parts.store.commit({ update: [{ memory: { ...memory, archivedAt: at, updatedAt: at } }] });
    await parts.graphSync.forget(parts.tenant, [id]);
    await parts.log(forgottenLine(memory, false, options.activity));
  }
  return { id, outcome: 'archived' };
}

/**
 * Brings a forgotten (archived) memory back in place: the same id, record and vector, nothing
 * re-embedded. Its graph mentions and relations, which forgetting ended, are extracted again
 * (a live memory's graph is what its text names). Refused when a live memory now holds its key.
 */
export async function restoreMemory(parts: LifecycleParts, id: string): Promise<Memory> {
  const memory = await requireMemory(parts, id);
  if (memory.archivedAt === null) return memory;
  if (memory.key !== null && memory.supersededBy === null) {
    const holder = await parts.store.findByKey(parts.tenant, memory.scope, memory.key);
    if (holder && holder.id !== memory.id) {
      throw new InvalidInputError(
        `cannot restore: memory ${holder.id} now holds the key ${memory.key} in ${memory.scope}; forget that one first`,
      );
    }
  }
  const restored = { ...memory, archivedAt: null, updatedAt: parts.clock.now().toISOString() };
  // No vector in the update: the stored one stays.
  await parts.store.commit({ update: [{ memory: restored }] });
  if (restored.supersededBy === null) await parts.graphSync.record(parts.tenant, await parts.graphSync.prepare([restored]));
  await parts.log(restoredLine(restored));
  return restored;
}

async function requireMemory(parts: WritingParts, id: string): Promise<Memory> {
  const memory = await parts.store.getMemory(parts.tenant, id);
  if (!memory) throw new NotFoundError(`no memory with id ${id}: list ids with \`engram list\``);
  return memory;
}
