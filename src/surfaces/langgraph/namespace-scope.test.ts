import { InvalidNamespaceError } from '@langchain/langgraph-checkpoint';
import { describe, expect, it } from 'vitest';

import {
  checkNamespace,
  decodeLabel,
  encodeLabel,
  isUnder,
  memoryKeyOf,
  namespaceOfScope,
  prefixScope,
  scopeOfNamespace,
} from './namespace-scope.js';

describe('namespaces as scopes', () => {
  it.each([
    [['users', 'alice'], 'langgraph:users:alice'],
    [['memories'], 'langgraph:memories'],
    [['langgraph', 'x'], 'langgraph:langgraph:x'],
    [['100%', 'done'], 'langgraph:100%25:done'],
    [[' alice ', 'tab\t'], 'langgraph:%20alice%20:tab%09'],
    [['a b', 'ünïcode ☕'], 'langgraph:a b:ünïcode ☕'],
  ])('%j lives in the scope %s, and comes back from it', (namespace, scope) => {
    expect(scopeOfNamespace(namespace)).toBe(scope);
    expect(namespaceOfScope(scope)).toEqual(namespace);
  });

  it.each([
    ['a scope of another program', 'user:alice'],
    ['the root alone', 'langgraph'],
    ['an empty label', 'langgraph:a::b'],
    ['a stray percent sign', 'langgraph:100%'],
    ['an encoding this store never writes', 'langgraph:a%20b'],
    ['a label with a period', 'langgraph:a.b'],
  ])('reads no namespace from %s', (_case, scope) => {
    expect(namespaceOfScope(scope)).toBeNull();
  });

  it('keeps labels and keys that differ only by the white space Engram trims apart', () => {
    const labels = ['key', ' key', 'key ', ' key ', 'key\n', '%20key'];
    expect(new Set(labels.map(encodeLabel)).size).toBe(labels.length);
    for (const label of labels) {
      expect(encodeLabel(label)).toBe(encodeLabel(label).trim());
      expect(decodeLabel(encodeLabel(label))).toBe(label);
    }
  });

  it('puts a namespace under a prefix label by label, never by the start of a label', () => {
    const docs = prefixScope(['docs']);
    expect(isUnder(scopeOfNamespace(['docs']), docs)).toBe(true);
    expect(isUnder(scopeOfNamespace(['docs', 'python']), docs)).toBe(true);
    expect(isUnder(scopeOfNamespace(['docsets']), docs)).toBe(false);
    expect(isUnder(scopeOfNamespace(['docs']), prefixScope([]))).toBe(true);
    expect(isUnder('user:alice', prefixScope([]))).toBe(false);
  });

  it.each([
    ['an empty namespace', [], 'Namespace cannot be empty.'],
    ['an empty label', ['a', ''], 'Namespace labels cannot be empty strings'],
    ['a period', ['a.b'], "labels cannot contain periods ('.')"],
    ['a colon, the separator', ['a:b'], "labels cannot contain colons (':'), the separator of Engram's scopes"],
    ['a NUL byte', ['a\0'], 'cannot contain NUL bytes'],
    ['a label that is not a string', ['a', 7], 'labels must be strings'],
    ['something that is not a list', 'users/alice', 'A namespace is a list of labels'],
  ])('refuses %s with LangGraph’s InvalidNamespaceError', (_case, namespace, message) => {
    expect(() => checkNamespace(namespace)).toThrow(InvalidNamespaceError);
    expect(() => checkNamespace(namespace)).toThrow(message);
  });

  it('lets a search prefix be empty, and refuses a namespace too long for a scope', () => {
    expect(() => checkNamespace([], { allowEmpty: true })).not.toThrow();
    expect(() => scopeOfNamespace(['x'.repeat(600), 'y'.repeat(600)])).toThrow(/too long: .*at most 1000 characters/);
  });

  it('stores item keys encoded as labels are, and refuses keys Engram cannot hold', () => {
    expect(memoryKeyOf(' padded ')).toBe('%20padded%20');
    expect(() => memoryKeyOf('')).toThrow('an item key cannot be empty');
    expect(() => memoryKeyOf(42)).toThrow('an item key must be a string');
    expect(() => memoryKeyOf('k'.repeat(1001))).toThrow('longer than 1000 characters');
  });
});
