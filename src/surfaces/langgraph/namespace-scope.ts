/**
 * LangGraph namespaces as Engram scopes, and item keys as memory keys: `["users", "alice"]` lives
 * in the scope `langgraph:users:alice`. The labels are joined by `:`, which LangGraph forbids in a
 * label, so the encoding is injective; a `%`, and white space at either end of a label or key
 * (which Engram trims from scopes and keys), are percent-encoded, so every label LangGraph accepts
 * comes back as it was given. A prefix of a namespace is a prefix of its scope, ending at a `:`.
 * Why this encoding: docs/decisions/langgraph-store.md.
 */
import { InvalidNamespaceError } from '@langchain/langgraph-checkpoint';

import { InvalidInputError } from '../../index.js';

/** The scope every namespace lives under. */
export const SCOPE_ROOT = 'langgraph';
/** Between labels, and after the root. */
export const LABEL_SEPARATOR = ':';
/** Engram's longest scope and key, in characters (`MAX_LABEL_CHARS`). */
const MAX_SCOPE_CHARS = 1000;

const EDGE_SPACE = /^\s+|\s+$/g;

/** A label or key as Engram stores it: `%` and white space at either end percent-encoded. */
export function encodeLabel(label: string): string {
  return label.replaceAll('%', '%25').replace(EDGE_SPACE, (space) => encodeURIComponent(space));
}

/** A stored label or key as it was given; null when it is not one `encodeLabel` writes. */
export function decodeLabel(stored: string): string | null {
  try {
    const label = decodeURIComponent(stored);
    return encodeLabel(label) === stored ? label : null;
  } catch {
    return null;
  }
}

/**
 * Refuses what cannot be a namespace, in LangGraph's words and with its error class: labels must
 * be non-empty strings without `.`, `:` (the separator) or NUL. A search prefix or a namespace
 * condition may be empty (`allowEmpty`); a condition may hold `*` labels.
 */
export function checkNamespace(namespace: unknown, options: { allowEmpty?: boolean } = {}): asserts namespace is string[] {
  if (!Array.isArray(namespace)) {
    throw new InvalidNamespaceError(`A namespace is a list of labels, e.g. ["users", "alice"]; got ${shownValue(namespace)}.`);
  }
  if (namespace.length === 0) {
    if (options.allowEmpty) return;
    throw new InvalidNamespaceError('Namespace cannot be empty.');
  }
  const shown = JSON.stringify(namespace);
  for (const label of namespace as unknown[]) {
    if (typeof label !== 'string') {
      throw new InvalidNamespaceError(`Invalid namespace label ${shownValue(label)} in ${shown}: labels must be strings.`);
    }
    if (label === '') throw new InvalidNamespaceError(`Namespace labels cannot be empty strings; got ${shown}.`);
    if (label.includes('.')) {
      throw new InvalidNamespaceError(`Invalid namespace label '${label}' in ${shown}: labels cannot contain periods ('.').`);
    }
    if (label.includes(LABEL_SEPARATOR)) {
      throw new InvalidNamespaceError(
        `Invalid namespace label '${label}' in ${shown}: labels cannot contain colons (':'), the separator of Engram's scopes.`,
      );
    }
    if (label.includes('\0')) throw new InvalidNamespaceError(`Namespace labels cannot contain NUL bytes; got ${shown}.`);
  }
}

/** The scope of `namespace` (checked): `["users", "alice"]` → `langgraph:users:alice`. */
export function scopeOfNamespace(namespace: readonly string[]): string {
  checkNamespace(namespace);
  const scope = prefixScope(namespace);
  if (scope.length > MAX_SCOPE_CHARS) {
    throw new InvalidNamespaceError(
      `The namespace ${JSON.stringify(namespace).slice(0, 200)}… is too long: Engram keeps its labels in a scope of at most ${MAX_SCOPE_CHARS} characters. Use shorter labels.`,
    );
  }
  return scope;
}

/** The scope of a checked namespace, or of a search prefix (`[]` is the root). */
export function prefixScope(prefix: readonly string[]): string {
  return [SCOPE_ROOT, ...prefix.map(encodeLabel)].join(LABEL_SEPARATOR);
}

/** Whether `scope` holds the namespace `prefixScope(prefix)` names, or one below it. */
export function isUnder(scope: string, prefixedBy: string): boolean {
  return scope === prefixedBy || scope.startsWith(`${prefixedBy}${LABEL_SEPARATOR}`);
}

/** The namespace a scope holds; null for a scope this store does not write (another program's). */
export function namespaceOfScope(scope: string): string[] | null {
  const labels = scope.split(LABEL_SEPARATOR);
  if (labels.length < 2 || labels[0] !== SCOPE_ROOT) return null;
  const namespace: string[] = [];
  for (const stored of labels.slice(1)) {
    const label = decodeLabel(stored);
    if (label === null || label === '' || label.includes('.') || label.includes('\0')) return null;
    namespace.push(label);
  }
  return namespace;
}

/** An item key as Engram stores it (`encodeLabel`), refused when Engram cannot hold it. */
export function memoryKeyOf(key: unknown): string {
  if (typeof key !== 'string') throw new InvalidInputError(`an item key must be a string; got ${shownValue(key)}`);
  if (key === '') throw new InvalidInputError('an item key cannot be empty: give the item a name within its namespace');
  const stored = encodeLabel(key);
  if (stored.length > MAX_SCOPE_CHARS) {
    throw new InvalidInputError(`the item key ${JSON.stringify(key.slice(0, 40))}… is longer than ${MAX_SCOPE_CHARS} characters`);
  }
  return stored;
}

function shownValue(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : `${String(value)} (${typeof value})`;
}
