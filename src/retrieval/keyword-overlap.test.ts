import { describe, expect, it } from 'vitest';

import { keywordOverlap, keywordSet } from './keyword-overlap.js';

const similarity = (a: string, b: string) => keywordOverlap(keywordSet(a), keywordSet(b));

describe("seed 004's keyword overlap", () => {
  it('reproduces the worked example: "Write a CSV parser" vs "Parse a CSV file" is 1/3', () => {
    expect([...keywordSet('Write a CSV parser')]).toEqual(['write', 'csv', 'parser']);
    expect([...keywordSet('Parse a CSV file')]).toEqual(['parse', 'csv', 'file']);
    expect(similarity('Write a CSV parser', 'Parse a CSV file')).toBeCloseTo(1 / 3, 10);
  });

  it('divides by the larger set, not the union', () => {
    expect(similarity('csv parser', 'csv parser for node streams')).toBeCloseTo(2 / 4, 10); // 'for' is filler
  });

  it('ignores case, punctuation, repeats and filler words', () => {
    expect(similarity('The CSV-parser, again: CSV!', 'csv parser again')).toBe(1);
  });

  it('misses synonyms, as the seed says', () => {
    expect(similarity('Fetch web pages', 'Retrieve HTML content')).toBe(0);
  });

  it('is 0 when a side has no words', () => {
    expect(similarity('the of and', 'csv')).toBe(0);
    expect(similarity('', '')).toBe(0);
  });
});
