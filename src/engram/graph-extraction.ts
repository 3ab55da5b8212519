/**
 * Extraction on write: what `src/graph/` finds in a memory — entities with their role, the
 * speaker's `talks_about` relations, resolved dates — mapped onto the store's graph records.
 * It is best effort: a memory whose extraction throws is reported as a failure (and stored all
 * the same by the caller), never an error of the write. The NLP library is loaded on first use
 * only, so commands that never write pay nothing for it.
 */
import type { Extraction, ExtractionInput } from '../graph/extraction.js';
import { entityKey } from '../model/graph.js';
import type { Kind, Memory } from '../model/memory.js';
import type { ExtractionFailure, GraphExtraction } from '../store/store.js';

/** Extracts one memory's graph. */
export type Extractor = (input: ExtractionInput) => Extraction;

/** What extraction made of some memories: the graph of each it could read, and each it could not. */
export interface PreparedGraph {
  extractions: GraphExtraction[];
  failures: ExtractionFailure[];
}

/** A failure as one line a person can read (`RangeError: Invalid time value`). */
export function describeFailure(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.replace(/\s+/g, ' ').trim().slice(0, 500);
}

let loading: Promise<Extractor> | null = null;

/** The extractor, loaded once per process. */
export function loadExtractor(): Promise<Extractor> {
  loading ??= import('../graph/extract.js').then(
    (module) => module.extractGraph,
    (error: unknown) => {
      loading = null; // the next write tries again
      throw error;
    },
  );
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

/**
 * Extracts every memory that has something of its own to extract, with `extract` (default: the
 * offline extractor). A memory it throws on is a failure, not an error: the others go on.
 */
export async function extractMemories(
  memories: readonly Memory[],
  newId: () => string,
  extract?: Extractor,
): Promise<PreparedGraph> {
  const wanted = memories.filter(isExtracted);
  const prepared: PreparedGraph = { extractions: [], failures: [] };
  if (wanted.length === 0) return prepared;
  let extractor: Extractor;
  try {
    extractor = extract ?? (await loadExtractor());
  } catch (error) {
    // Without its library nothing can be extracted: every memory is a failure, none an error.
    return { extractions: [], failures: wanted.map((memory) => ({ memoryId: memory.id, error: describeFailure(error) })) };
  }
  for (const memory of wanted) {
    try {
      const found = extractor({ text: memory.text, speaker: speakerOf(memory), occurredAt: memory.occurredAt });
      prepared.extractions.push(toGraphExtraction(memory, found, newId));
    } catch (error) {
      prepared.failures.push({ memoryId: memory.id, error: describeFailure(error) });
    }
  }
  return prepared;
}
