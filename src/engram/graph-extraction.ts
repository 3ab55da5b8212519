/**
 * Extraction on write: what `src/graph/` finds in a memory — entities with their role, the
 * speaker's `talks_about` relations, resolved dates — mapped onto the store's graph records.
 * The NLP library is loaded on first use only, so commands that never write pay nothing for it.
 */
import type { Extraction, ExtractionInput } from '../graph/extraction.js';
import { entityKey } from '../model/graph.js';
import type { Kind, Memory } from '../model/memory.js';
import type { GraphExtraction } from '../store/store.js';

/** Extracts one memory's graph. */
export type Extractor = (input: ExtractionInput) => Extraction;

let loading: Promise<Extractor> | null = null;

/** The extractor, loaded once per process. */
export function loadExtractor(): Promise<Extractor> {
  loading ??= import('../graph/extract.js').then((module) => module.extractGraph);
  return loading;
}

/** Kinds with nothing of their own to extract: derived from other memories, or a scratchpad about to be cleared. */
const NOT_EXTRACTED: ReadonlySet<Kind> = new Set<Kind>(['working_set', 'scratchpad']);

/** Whether a memory's text is extracted into the graph. */
export function isExtracted(memory: Memory): boolean {
  return !NOT_EXTRACTED.has(memory.kind) && memory.archivedAt === null && memory.supersededBy === null;
}

/** The speaker a memory names in its data (`data.speaker`), when it is a conversation turn. */
function speakerOf(memory: Memory): string | undefined {
  const speaker = memory.data?.speaker;
  return typeof speaker === 'string' && speaker.trim().length > 0 ? speaker : undefined;
}

/** A date entity's name: the day, or the first and last day of a range. */
export function dateName(start: string, end: string): string {
  return start === end ? start : `${start}..${end}`;
}

/** What extraction found in `memory`, as the store records it; `newId` names new entities and relations. */
export function toGraphExtraction(memory: Memory, extraction: Extraction, newId: () => string): GraphExtraction {
  const dates = extraction.dates.map((date) => dateName(date.start, date.end));
  const named = new Set(extraction.entities.flatMap((entity) => [entity.name, ...(entity.aliases ?? [])]).map(entityKey));
  return {
    memoryId: memory.id,
    entities: [
      ...extraction.entities.map((entity) => ({
        id: newId(),
        name: entity.name,
        type: entity.type,
        aliases: entity.aliases ?? [],
      })),
      ...dates.map((name) => ({ id: newId(), name, type: 'date' })),
    ],
    mentions: [
      ...extraction.entities.map((entity) => ({ name: entity.name, role: entity.role })),
      ...dates.map((name) => ({ name, role: 'mention' as const })),
    ],
    // Only between entities of this memory: the store refuses a name it cannot resolve, and a
    // write must never fail on an extractor's slip.
    relations: extraction.relations
      .filter((relation) => named.has(entityKey(relation.from)) && named.has(entityKey(relation.to)))
      .map((relation) => ({
        id: newId(),
        from: relation.from,
        to: relation.to,
        type: relation.type,
        validFrom: memory.occurredAt,
      })),
  };
}

/** Extracts every memory that has something of its own to extract. */
export async function extractMemories(memories: readonly Memory[], newId: () => string): Promise<GraphExtraction[]> {
  const wanted = memories.filter(isExtracted);
  if (wanted.length === 0) return [];
  const extract = await loadExtractor();
  return wanted.map((memory) =>
    toGraphExtraction(memory, extract({ text: memory.text, speaker: speakerOf(memory), occurredAt: memory.occurredAt }), newId),
  );
}
