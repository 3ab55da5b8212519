import { describe, expect, it } from 'vitest';

import { renderFtsParts } from '../store/sqlite/fts-query.js';
import { parseLexicalQuery } from './lexical-query.js';

describe('reading a full-text query', () => {
  it('keeps content words and drops stop words', () => {
    expect(parseLexicalQuery('Which database do we use for billing?')).toEqual({
      terms: ['database', 'use', 'billing'],
      phrases: [],
      prefixes: [],
    });
  });

  it('keeps stop words when there is nothing else', () => {
    expect(parseLexicalQuery('to be or not to be')?.terms).toEqual(['to', 'be', 'or', 'not']);
  });

  it('reads quoted phrases and prefix words', () => {
    expect(parseLexicalQuery('"support group" meet* near the lake')).toEqual({
      terms: ['near', 'lake'],
      phrases: [['support', 'group']],
      prefixes: ['meet'],
    });
  });

  it('treats a one-word quote as a word and an unbalanced quote as text', () => {
    expect(parseLexicalQuery('"billing" "unclosed phrase')?.terms).toEqual(['billing', 'unclosed', 'phrase']);
  });

  it('has nothing to search in punctuation or NUL bytes alone', () => {
    for (const text of ['', '   ', '"', '()*', '🎉🎉', '\u0000', '* AND *']) {
      expect(parseLexicalQuery(text)?.terms ?? []).not.toContain('');
    }
    expect(parseLexicalQuery('(( ** " \u0000')).toBeNull();
  });

  it('searches an emoji as a word', () => {
    expect(parseLexicalQuery('🎉 (( ** "')?.terms).toEqual(['🎉']);
  });

  it('renders every part as a quoted FTS5 string, so operators stay words', () => {
    const query = parseLexicalQuery('cats AND dogs OR NEAR(birds) "big fish" pre*');
    expect(query && renderFtsParts(query).join(' OR ')).toBe('"big fish" OR "cats" OR "dogs" OR "near" OR "birds" OR "pre"*');
  });

  it('reads a bounded amount of a huge query', () => {
    const query = parseLexicalQuery(`${'word '.repeat(50_000)} tail`);
    expect(query?.terms).toEqual(['word']);
  });
});
