/**
 * `put` and `delete` as Engram writes. A put is a keyed memory in the namespace's scope: its
 * value as `data`, the text indexed from the value (item-text.ts). Engram's key holders do the
 * rest — a put with the key of a live item replaces it (the old version is kept, superseded), in
 * one transaction for a run of puts. A delete forgets the item (archived: gone from get, search and
 * lists; `engram restore` brings it back).
 */
import type { Engram, Kind, MemoryInput } from '../../index.js';
import { type FieldPath, itemText, parseFieldPaths } from './item-text.js';
import { storedValue } from './items.js';
import { memoryKeyOf, scopeOfNamespace } from './namespace-scope.js';

/** How the store writes items. */
export interface PutSettings {
  /** The paths indexed when a put names none. */
  fields: readonly FieldPath[];
  kind: Kind;
}

/** The memory a put writes, with its scope and key. */
export type PreparedPut = MemoryInput & { scope: string; key: string };

/** One put, as `batch` receives it. */
export interface PutItem {
  namespace: string[];
  key: string;
  value: unknown;
  index?: false | string[] | undefined;
}

/** The memory a put writes, every part checked: a bad put is refused before anything is written. */
export function preparePut(settings: PutSettings, { namespace, key, value, index }: PutItem): PreparedPut {
  const scope = scopeOfNamespace(namespace);
  const memoryKey = memoryKeyOf(key);
  const where = `${JSON.stringify(namespace)} / ${JSON.stringify(key)}`;
  const data = storedValue(value, where);
  const paths = index === undefined ? settings.fields : index === false ? [] : parseFieldPaths(index, `the index of ${where}`);
  return { text: itemText(data, paths, key), scope, key: memoryKey, data, kind: settings.kind, source: 'agent' };
}

/**
 * Writes a run of prepared puts in one transaction; a later put of the same namespace and key
 * wins, as if they had been written one by one.
 */
export async function putItems(engram: Engram, inputs: readonly PreparedPut[]): Promise<void> {
  // The time each item was first put goes forward to its new version (items.ts reads it as createdAt).
  const firstPut = await Promise.all(
    inputs.map((input) => engram.getByKey(input.key, input.scope).then((held) => held?.occurredAt)),
  );
  await engram.rememberMany(inputs.map((input, i) => ({ ...input, occurredAt: firstPut[i] })));
}

/** Forgets the item held at `scope` and `key` (as stored); nothing happens when there is none. */
export async function deleteItem(engram: Engram, scope: string, key: string): Promise<void> {
  const held = await engram.getByKey(key, scope);
  if (held) await engram.forget(held.id);
}
