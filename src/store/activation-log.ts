/**
 * The activation log part of a Store: every activation decision of a session's turns — the
 * receipt, what was injected (which feeds repeat suppression) and which memories count as
 * retrieved (which feeds cooldown).
 */
import type { Lane, Receipt } from '../model/receipt.js';

/** A memory injected into a session's turn (feeds repeat suppression). */
export interface Injection {
  memoryId: string;
  turn: number;
  lane: Lane;
}

/** One time a memory was injected: into which session's turn, by which receipt. */
export interface MemoryInjection {
  sessionId: string;
  turn: number;
  lane: Lane;
  receiptId: string;
  /** When the receipt was written. */
  at: string;
}

/** An activation decision to record: the receipt, what was injected, and what counts as retrieved. */
export interface ActivationRecord {
  receipt: Receipt;
  injected: readonly Injection[];
  /** Memories whose retrieval time and count are updated (cooldown). */
  retrieved: readonly string[];
}

/** Which receipts to read, newest first. */
export interface ReceiptQuery {
  sessionId?: string | undefined;
  turn?: number | undefined;
  limit: number;
}

/** Receipts and injections, written together per activation. */
export interface ActivationLog {
  /** Stores a receipt, its injections and the retrieval times in one transaction. */
  recordActivation(record: ActivationRecord): Promise<void>;
  /** Injections into `sessionId` at turn `sinceTurn` or later, oldest first. */
  listInjections(tenant: string, sessionId: string, sinceTurn: number): Promise<Injection[]>;
  /**
   * The injections of one memory into sessions' turns, the latest recorded first, `offset`
   * skipped; empty for an unknown memory.
   */
  listMemoryInjections(tenant: string, memoryId: string, page: { limit: number; offset?: number }): Promise<MemoryInjection[]>;
  /** Receipts, newest first. */
  listReceipts(tenant: string, query: ReceiptQuery): Promise<Receipt[]>;
}
