/**
 * A memory's page: the memory (`engram.get`, as `GET /v1/memories/:id`), the newer versions
 * that replaced it, a page of the turns that injected it (`engram.injections`), and the graph
 * entities extraction recorded it naming (`engram.mentions`).
 */
import type { MemoryInjection } from '../../../entries/model.js';
import type { GraphEntity } from '../../../entries/tools.js';
import { type Engram, type Memory, NotFoundError } from '../../../index.js';

/** Injections per page of a memory's recall history. */
export const INJECTIONS_PAGE = 20;
/** Newer versions followed at most. */
const MAX_CHAIN = 20;

/** One memory's page. */
export interface MemoryDetailView {
  memory: Memory;
  /** The memories that replaced it, oldest first: each supersedes the one before. */
  newerVersions: Memory[];
  /** A page of the turns that injected it, the latest first. */
  injections: MemoryInjection[];
  /** Where this page of injections starts, and the next one (null on the last). */
  injectionsOffset: number;
  nextInjections: number | null;
  /** The graph's entities the memory names. */
  mentions: GraphEntity[];
}

/** The memory with this id in the engine's tenant; a 404 otherwise. */
export async function requireMemory(engram: Engram, id: string): Promise<Memory> {
  const memory = await engram.get(id);
  if (!memory) throw new NotFoundError(`no memory with id ${id.slice(0, 100)}: the memories page lists them`);
  return memory;
}

/** The memory with its newer versions, a page of injections and its mentions; a 404 when there is none. */
export async function loadMemoryDetail(engram: Engram, id: string, injectionsOffset = 0): Promise<MemoryDetailView> {
  const memory = await requireMemory(engram, id);
  const [newerVersions, injections, mentions] = await Promise.all([
    followSupersession(engram, memory),
    engram.injections(memory.id, { limit: INJECTIONS_PAGE + 1, offset: injectionsOffset }),
    engram.mentions(memory.id),
  ]);
  return {
    memory,
    newerVersions,
    injections: injections.slice(0, INJECTIONS_PAGE),
    injectionsOffset,
    nextInjections: injections.length > INJECTIONS_PAGE ? injectionsOffset + INJECTIONS_PAGE : null,
    mentions,
  };
}

async function followSupersession(engram: Engram, memory: Memory): Promise<Memory[]> {
  const chain: Memory[] = [];
  const seen = new Set([memory.id]);
  let next = memory.supersededBy;
  while (next && !seen.has(next) && chain.length < MAX_CHAIN) {
    seen.add(next);
    const newer = await engram.get(next);
    if (!newer) break;
    chain.push(newer);
    next = newer.supersededBy;
  }
  return chain;
}
