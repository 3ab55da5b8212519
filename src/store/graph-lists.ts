/**
 * Merging an entity's aliases and observations, the same in every backend: aliases matched like
 * names (see `entityKey`), observations kept in order without exact duplicates or blanks.
 */
import { entityKey } from '../model/graph.js';

/** `current` plus the new aliases, matched like names; the entity's own name is not an alias. */
export function mergeAliases(nameKey: string, current: readonly string[], added: readonly string[]): string[] {
  const keys = new Set([nameKey, ...current.map(entityKey)]);
  const merged = [...current];
  for (const alias of added) {
    const key = entityKey(alias);
    if (key === '' || keys.has(key)) continue;
    keys.add(key);
    merged.push(alias.trim());
  }
  return merged;
}

/** `current` plus the new observations, in order, without exact duplicates or blanks. */
export function mergeObservations(current: readonly string[], added: readonly string[]): string[] {
  const merged = [...current];
  const seen = new Set(current);
  for (const observation of added) {
    if (observation.trim() === '' || seen.has(observation)) continue;
    seen.add(observation);
    merged.push(observation);
  }
  return merged;
}
