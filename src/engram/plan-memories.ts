/**
 * New memories from input: each one checked (the tenant is the isolation boundary), stamped now,
 * carrying forward the version it replaces, and the stored memories it supersedes — by key, or
 * named in `supersedes` — marked superseded. Nothing is written here; the facade commits the plan.
 */
import { InvalidInputError, NotFoundError } from '../errors.js';
import type { Clock } from '../model/clock.js';
import type { IdGenerator } from '../model/ids.js';
import { DEFAULT_SCOPE, type Memory } from '../model/memory.js';
import { describeIssues, type MemoryInput, MemoryInputSchema, type ParsedMemoryInput } from '../model/memory-input.js';
import type { Store } from '../store/store.js';
import { importError } from './import-records.js';
import { carryForward, newMemory, supersedeRepeatedKeys } from './new-memory.js';

/** What planning reads: the store (for the versions replaced), the engine's tenant, clock and ids. */
export interface WritingParts {
  store: Store;
  tenant: string;
  clock: Clock;
  ids: IdGenerator;
}

/** Validates each input (a string is `{ text }`), refusing one for another tenant; names the memory when there are several. */
export function parseMemoryInputs(inputs: readonly (MemoryInput | string)[], tenant: string): ParsedMemoryInput[] {
  return inputs.map((input, index) => {
    const which = inputs.length > 1 ? `memory ${index + 1}: ` : '';
    const result = MemoryInputSchema.safeParse(typeof input === 'string' ? { text: input } : input);
    if (!result.success) throw new InvalidInputError(`${which}${describeIssues(result.error)}`);
    if (result.data.tenant !== undefined && result.data.tenant !== tenant) {
      throw new InvalidInputError(
        `${which}tenant ${result.data.tenant} is not this engine's tenant (${tenant}): open one for it with openEngram({ tenant })`,
      );
    }
    return result.data;
  });
}

/**
 * New memories built from validated input, stamped now, and the stored memories they replace
 * (by key, or named in `supersedes`), marked superseded; nothing is written. An import gives
 * `where`, an input's line, and is refused with it.
 */
export async function planNewMemories(
  parts: WritingParts,
  parsed: readonly ParsedMemoryInput[],
  where: (index: number) => string | undefined = () => undefined,
): Promise<{ memories: Memory[]; replaced: Memory[] }> {
  const now = parts.clock.now();
  // A new version (named in `supersedes`, or holding a live memory's key) carries the old one forward.
  const previous = await Promise.all(parsed.map((input, index) => previousVersion(parts, input, where(index))));
  const memories = parsed.map((input, index) => {
    const before = previous[index] ?? { memory: null, via: 'key' as const };
    return newMemory(carryForward(input, before.memory, before.via), parts.ids(), now, {
      tenant: parts.tenant,
      scope: DEFAULT_SCOPE,
    });
  });
  supersedeRepeatedKeys(memories, now);
  const replaced = new Map<string, Memory>();
  for (const [index, memory] of memories.entries()) {
    const input = parsed[index];
    const targets = [
      input?.supersedes ? (previous[index]?.memory ?? null) : null,
      memory.key && memory.supersededBy === null ? await parts.store.findByKey(memory.tenant, memory.scope, memory.key) : null,
    ];
    for (const old of targets) {
      if (old && !replaced.has(old.id)) {
        replaced.set(old.id, { ...old, supersededBy: memory.id, updatedAt: now.toISOString() });
      }
    }
  }
  return { memories, replaced: [...replaced.values()] };
}

/**
 * The memory `input` is a new version of: the live one it names in `supersedes` (which must
 * exist; an import's `where` names its line), or the live holder of its key in its scope; null
 * memory when neither.
 */
async function previousVersion(
  parts: WritingParts,
  input: ParsedMemoryInput,
  where: string | undefined,
): Promise<{ memory: Memory | null; via: 'supersedes' | 'key' }> {
  if (input.supersedes) return { memory: await requireLive(parts, input.supersedes, where), via: 'supersedes' };
  if (!input.key) return { memory: null, via: 'key' };
  return { memory: await parts.store.findByKey(parts.tenant, input.scope ?? DEFAULT_SCOPE, input.key), via: 'key' };
}

/** The live memory `supersedes` names; an import (`where`, a line) is refused with its line. */
async function requireLive(parts: WritingParts, id: string, where?: string): Promise<Memory> {
  const memory = await parts.store.getMemory(parts.tenant, id);
  const problem = !memory
    ? 'no memory with that id'
    : memory.archivedAt !== null || memory.supersededBy !== null
      ? `it is already ${memory.archivedAt ? 'archived' : 'superseded'}`
      : null;
  if (problem === null) return memory as Memory;
  const message = `cannot supersede ${id}: ${problem}`;
  if (where !== undefined) throw importError(where, `supersedes: ${message}`, 'name a live memory, or leave supersedes out');
  throw memory ? new InvalidInputError(message) : new NotFoundError(message);
}
