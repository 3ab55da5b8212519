/**
 * A memory's page: the memory (`engram.get`, as `GET /v1/memories/:id`), the newer versions
 * that replaced it, the recent recall decisions that chose it or left it out (read from the
 * receipts, `GET /v1/receipts`), and the graph entities it names.
 */
import { type Engram, type GraphEntity, type Memory, NotFoundError, type Receipt, type ReceiptEntry } from '../../../index.js';

/** Receipts read, newest first, to find the turns that injected a memory. */
export const RECEIPT_SCAN = 500;
/** Newer versions followed at most. */
const MAX_CHAIN = 20;

/** One decision about the memory. */
export interface MemoryDecision {
  receipt: Receipt;
  entry: ReceiptEntry;
  chosen: boolean;
}

/** One memory's page. */
export interface MemoryDetailView {
  memory: Memory;
  /** The memories that replaced it, oldest first: each supersedes the one before. */
  newerVersions: Memory[];
  /** Recent decisions that chose the memory or left it out, newest first. */
  decisions: MemoryDecision[];
  /** How many receipts were read for `decisions`. */
  receiptsRead: number;
  /** The graph's entities among the names the memory's text mentions. */
  mentions: GraphEntity[];
}

/** The memory with this id in the engine's tenant; a 404 otherwise. */
export async function requireMemory(engram: Engram, id: string): Promise<Memory> {
  const memory = await engram.get(id);
  if (!memory) throw new NotFoundError(`no memory with id ${id.slice(0, 100)}: the memories page lists them`);
  return memory;
}

/** The memory with its newer versions, recent decisions and mentions; a 404 when there is none. */
export async function loadMemoryDetail(engram: Engram, id: string): Promise<MemoryDetailView> {
  const memory = await requireMemory(engram, id);
  const [newerVersions, receipts, mentions] = await Promise.all([
    followSupersession(engram, memory),
    engram.receipts({ limit: RECEIPT_SCAN }),
    mentionedEntities(engram, memory),
  ]);
  const decisions = receipts.flatMap((receipt) => {
    const chosen = receipt.chosen.find((entry) => entry.id === memory.id);
    if (chosen) return [{ receipt, entry: chosen, chosen: true }];
    const leftOut = receipt.leftOut.find((entry) => entry.id === memory.id);
    return leftOut ? [{ receipt, entry: leftOut, chosen: false }] : [];
  });
  return { memory, newerVersions, decisions, receiptsRead: receipts.length, mentions };
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

/**
 * The stored entities among the names extraction finds in the memory — the same extraction that
 * wrote its mentions, loaded only when a memory page asks. Archived and superseded memories and
 * the kinds that are never extracted have none.
 */
async function mentionedEntities(engram: Engram, memory: Memory): Promise<GraphEntity[]> {
  if (memory.archivedAt || memory.supersededBy || memory.kind === 'working_set' || memory.kind === 'scratchpad') return [];
  const { extractGraph } = await import('../../../internal.js');
  const speaker = typeof memory.data?.speaker === 'string' ? memory.data.speaker : undefined;
  const extraction = extractGraph({ text: memory.text, speaker, occurredAt: memory.occurredAt });
  const names = [
    ...extraction.entities.map((entity) => entity.name),
    ...extraction.dates.map((date) => (date.start === date.end ? date.start : `${date.start}..${date.end}`)),
  ];
  if (names.length === 0) return [];
  return (await engram.graph.openNodes([...new Set(names)])).entities;
}
