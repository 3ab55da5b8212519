import { describe, expect, it } from 'vitest';

import { stem } from './stem.js';

describe('the light stemmer', () => {
  it('folds plurals, past tenses, gerunds and adverbs', () => {
    expect(['meetings', 'meeting', 'meeted'].map(stem)).toEqual(['meet', 'meet', 'meet']);
    expect(['parties', 'party'].map(stem)).toEqual(['party', 'party']);
    expect(stem('quickly')).toBe('quick');
  });

  it('leaves short words and double-s endings alone', () => {
    expect(['bus', 'is', 'was', 'class', 'glass'].map(stem)).toEqual(['bus', 'is', 'was', 'class', 'glass']);
  });
});
