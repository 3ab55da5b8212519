/**
 * Engram memories as LangGraph items and back: an item is a live memory with a key in a scope
 * that holds a namespace; its value is the memory's `data` (a memory written by other means,
 * without data, shows its text as `{ text }`). `createdAt` is when the item was first put — its
 * first version's time, carried through every replacement as the memory's `occurredAt` — and
 * `updatedAt` when this version was written.
 */
import type { Item } from '@langchain/langgraph-checkpoint';

import { InvalidInputError, type Memory } from '../../index.js';
import { decodeLabel, namespaceOfScope } from './namespace-scope.js';

/** The item `memory` holds; null when it is not one (no key, or a scope of another program's). */
export function itemOf(memory: Memory): Item | null {
  const namespace = namespaceOfScope(memory.scope);
  const key = memory.key === null ? null : decodeLabel(memory.key);
  if (namespace === null || key === null) return null;
  return {
    value: valueOf(memory),
    key,
    namespace,
    createdAt: new Date(memory.occurredAt),
    updatedAt: new Date(memory.updatedAt),
  };
}

function valueOf(memory: Memory): Record<string, unknown> {
  // A copy: what the engine keeps across reads is never handed out to be changed.
  return memory.data === null ? { text: memory.text } : structuredClone(memory.data);
}

/**
 * The value as Engram keeps it: its JSON, as a copy (a `Date` comes back as its ISO string);
 * refused when it is not a JSON object, with what to store instead.
 */
export function storedValue(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidInputError(`the value of ${where} must be an object (or null to delete the item); got ${shown(value)}`);
  }
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(value));
  } catch (error) {
    throw new InvalidInputError(
      `the value of ${where} is not JSON (${error instanceof Error ? error.message : String(error)}): store objects, lists, strings, numbers, booleans and null`,
      { cause: error },
    );
  }
  if (typeof copy !== 'object' || copy === null || Array.isArray(copy)) {
    throw new InvalidInputError(`the value of ${where} is not a JSON object once serialised: store a plain object`);
  }
  return copy as Record<string, unknown>;
}

function shown(value: unknown): string {
  return Array.isArray(value) ? 'a list' : value === null ? 'null' : typeof value;
}
